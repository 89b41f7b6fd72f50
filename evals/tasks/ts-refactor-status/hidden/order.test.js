'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { advance, countByStatus, isOpen, nextStatus } = require('../dist/order.js');

test('behaviour is unchanged', () => {
  assert.equal(nextStatus('new'), 'paid');
  assert.equal(nextStatus('paid'), 'shipped');
  assert.equal(nextStatus('shipped'), undefined);
  const shipped = { id: 's', status: 'shipped', items: 1 };
  assert.equal(advance(shipped), shipped);
  assert.deepEqual(countByStatus([]), { new: 0, paid: 0, shipped: 0 });
  assert.equal(isOpen('new'), true);
});
