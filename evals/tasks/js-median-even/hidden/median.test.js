'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { median } = require('../src/stats.js');

test('median of an even count is the mean of the two middle values', () => {
  assert.equal(median([1, 2, 3, 4]), 2.5);
  assert.equal(median([7, 1]), 4);
});

test('median sorts numerically', () => {
  assert.equal(median([10, 9, 2]), 9);
  assert.equal(median([100, 20, 3, 4000, 5]), 20);
  assert.equal(median([-5, -10, 0]), -5);
});

test('median leaves its argument as it was', () => {
  const values = [3, 1, 2];
  median(values);
  assert.deepEqual(values, [3, 1, 2]);
});

test('median of an empty list throws', () => {
  assert.throws(() => median([]), RangeError);
});
