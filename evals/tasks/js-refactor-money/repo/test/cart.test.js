'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { cartSummary } = require('../src/cart.js');

test('cart summary', () => {
  const text = cartSummary([{ name: 'pen', qty: 3, unitCents: 150 }, { name: 'desk', qty: 1, unitCents: 125000 }]);
  assert.equal(text, '3 × pen: 4.50\n1 × desk: 1,250.00\nTotal: 1,254.50');
});
