'use strict';

const UNITS = [
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
  ['ms', 1],
];

/** 5_400_000 → "1h 30m"; 0 → "0ms". */
function formatDuration(ms) {
  if (!Number.isInteger(ms) || ms < 0) throw new TypeError('ms must be a non-negative integer');
  if (ms === 0) return '0ms';
  const parts = [];
  let rest = ms;
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      parts.push(`${n}${unit}`);
      rest -= n * size;
    }
  }
  return parts.join(' ');
}

module.exports = { formatDuration };
