'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const index = require('../src/index.js');
const { parseDuration, formatDuration } = require('../src/duration.js');

test('parseDuration reads every unit', () => {
  assert.equal(parseDuration('1h30m'), 5_400_000);
  assert.equal(parseDuration('45s'), 45_000);
  assert.equal(parseDuration('500ms'), 500);
  assert.equal(parseDuration('2h 5m 10s'), 7_510_000);
  assert.equal(parseDuration('1m1s1ms'), 61_001);
});

test('parseDuration inverts formatDuration', () => {
  for (const ms of [1, 999, 1_000, 59_999, 3_600_000, 7_510_000, 90_061_001]) assert.equal(parseDuration(formatDuration(ms)), ms);
});

test('parseDuration refuses what is not a duration', () => {
  for (const bad of ['', '5x', 'h', '1h30', 'abc', '1.5h', '-1s']) assert.throws(() => parseDuration(bad), TypeError, bad);
});

test('index exports parseDuration', () => {
  assert.equal(index.parseDuration, parseDuration);
  assert.equal(index.formatDuration, formatDuration);
});
