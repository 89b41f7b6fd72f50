'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { area, perimeter } = require('../dist/shapes.js');

test('circles', () => {
  assert.equal(area({ kind: 'circle', radius: 1 }), Math.PI);
  assert.equal(perimeter({ kind: 'circle', radius: 1 }), 2 * Math.PI);
});

test('rectangle perimeter', () => {
  assert.equal(perimeter({ kind: 'rect', width: 2, height: 3 }), 10);
});
