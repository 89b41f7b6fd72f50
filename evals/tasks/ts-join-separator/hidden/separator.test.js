'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { joinPath } = require('../dist/path.js');

test('a custom separator', () => {
  assert.equal(joinPath(['a', 'b'], { separator: '\\' }), 'a\\b');
  assert.equal(joinPath(['x', '', 'y', 'z'], { separator: '::' }), 'x::y::z');
  assert.equal(joinPath(['a', 'b'], { separator: '-', trailing: true }), 'a-b-');
});

test('the default stays "/"', () => {
  assert.equal(joinPath(['a', 'b'], {}), 'a/b');
  assert.equal(joinPath(['a', 'b'], { trailing: true }), 'a/b/');
});
