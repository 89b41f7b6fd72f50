'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { capitalize } = require('../src/strings.js');
const { clamp } = require('../src/numbers.js');

test('capitalize of the empty string', () => {
  assert.equal(capitalize(''), '');
  assert.equal(capitalize('x'), 'X');
  assert.equal(capitalize('élan'), 'Élan');
});

test('clamp', () => {
  assert.equal(clamp(5, 0, 10), 5);
  assert.equal(clamp(-1, 0, 10), 0);
  assert.equal(clamp(11, 0, 10), 10);
  assert.equal(clamp(0, 0, 10), 0);
  assert.equal(clamp(10, 0, 10), 10);
  assert.equal(clamp(-7.5, -10, -5), -7.5);
});
