'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { area, perimeter } = require('../dist/shapes.js');

test('rectangle area', () => {
  assert.equal(area({ kind: 'rect', width: 2, height: 3 }), 6);
  assert.equal(area({ kind: 'rect', width: 0.5, height: 10 }), 5);
});

test('triangles', () => {
  const t = { kind: 'triangle', base: 4, height: 3, sides: [4, 3, 5] };
  assert.equal(area(t), 6);
  assert.equal(perimeter(t), 12);
  assert.equal(area({ kind: 'triangle', base: 10, height: 1, sides: [10, 5.5, 5.5] }), 5);
});

test('circles unchanged', () => {
  assert.equal(area({ kind: 'circle', radius: 2 }), 4 * Math.PI);
});
