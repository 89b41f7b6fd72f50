'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { invoiceTotal } = require('../src/invoice.js');

test('a French invoice', () => {
  assert.deepEqual(invoiceTotal(10000, 'FR'), { net: 10000, vat: 2000, gross: 12000 });
});
