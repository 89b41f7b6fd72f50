'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { advance, countByStatus, isOpen, nextStatus } = require('../dist/order.js');

test('orders move new → paid → shipped', () => {
  const order = { id: 'o1', status: 'new', items: 2 };
  const paid = advance(order);
  assert.equal(paid.status, 'paid');
  assert.equal(advance(advance(paid)).status, 'shipped');
  assert.equal(order.status, 'new');
  assert.equal(nextStatus('shipped'), undefined);
});

test('counts and open orders', () => {
  const orders = [{ id: 'a', status: 'new', items: 1 }, { id: 'b', status: 'paid', items: 1 }, { id: 'c', status: 'paid', items: 3 }];
  assert.deepEqual(countByStatus(orders), { new: 1, paid: 2, shipped: 0 });
  assert.equal(isOpen('paid'), true);
  assert.equal(isOpen('shipped'), false);
});
