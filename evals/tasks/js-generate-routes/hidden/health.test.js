'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const routes = require('../src/routes.generated.js');
const { dispatch } = require('../src/router.js');

test('GET /health answers ok', () => {
  assert.deepEqual(dispatch('GET', '/health'), { status: 'ok' });
});

test('the generated table holds the new route and the old ones', () => {
  assert.deepEqual(routes.map((r) => `${r.method} ${r.path} ${r.handler}`).sort(), ['GET /health health', 'GET /users listUsers', 'POST /users createUser']);
});
