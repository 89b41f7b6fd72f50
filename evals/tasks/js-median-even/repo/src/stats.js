'use strict';

/** Arithmetic mean of a non-empty list of numbers. */
function mean(values) {
  if (values.length === 0) throw new RangeError('mean of an empty list');
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** The middle value of a non-empty list of numbers (for an even count, the mean of the two middle values). */
function median(values) {
  if (values.length === 0) throw new RangeError('median of an empty list');
  const sorted = values.sort();
  return sorted[Math.floor(sorted.length / 2)];
}

module.exports = { mean, median };
