'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { mean, median } = require('../src/stats.js');

test('mean', () => {
  assert.equal(mean([1, 2, 3, 4]), 2.5);
  assert.throws(() => mean([]), RangeError);
});

test('median of an odd count', () => {
  assert.equal(median([3, 1, 2]), 2);
});
