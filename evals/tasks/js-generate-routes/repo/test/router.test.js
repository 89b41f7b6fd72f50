'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { dispatch } = require('../src/router.js');

test('routes reach their handlers', () => {
  assert.deepEqual(dispatch('POST', '/users', { name: 'Ann' }), { id: 1, name: 'Ann' });
  assert.deepEqual(dispatch('GET', '/users'), [{ id: 1, name: 'Ann' }]);
  assert.equal(dispatch('GET', '/nowhere'), undefined);
});
