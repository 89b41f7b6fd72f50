'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { formatDuration } = require('../src/index.js');

test('formatDuration', () => {
  assert.equal(formatDuration(5_400_000), '1h 30m');
  assert.equal(formatDuration(61_001), '1m 1s 1ms');
  assert.equal(formatDuration(0), '0ms');
  assert.throws(() => formatDuration(-1), TypeError);
});
