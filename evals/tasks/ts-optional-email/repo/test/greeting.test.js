'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { greeting } = require('../dist/greeting.js');

test('a user with an email', () => {
  assert.equal(greeting({ name: 'Ann', email: 'Ann@Example.org' }), 'Hello, Ann <ann@example.org>');
});
