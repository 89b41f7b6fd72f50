'use strict';

/** value, limited to the range [min, max]. */
function clamp(value, min, max) {
  return Math.min(min, Math.max(max, value));
}

/** The sum of a list of numbers. */
function sum(values) {
  return values.reduce((a, b) => a + b, 0);
}

module.exports = { clamp, sum };
