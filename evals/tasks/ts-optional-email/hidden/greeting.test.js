'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { greeting } = require('../dist/greeting.js');

test('a user without an email', () => {
  assert.equal(greeting({ name: 'Ann' }), 'Hello, Ann');
  assert.equal(greeting({ name: 'Bo', email: undefined }), 'Hello, Bo');
});

test('a user with an email, as before', () => {
  assert.equal(greeting({ name: 'Ann', email: 'ANN@example.org' }), 'Hello, Ann <ann@example.org>');
});
