'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { joinPath } = require('../dist/path.js');

test('joins non-empty parts with "/"', () => {
  assert.equal(joinPath(['a', '', 'b']), 'a/b');
  assert.equal(joinPath(['a', 'b'], { trailing: true }), 'a/b/');
});
