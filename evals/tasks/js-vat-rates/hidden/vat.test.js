'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { invoiceTotal } = require('../src/invoice.js');
const { quoteGross } = require('../src/quote.js');
const { vatRate } = require('../src/vat.js');

test('a German invoice', () => {
  assert.deepEqual(invoiceTotal(10000, 'DE'), { net: 10000, vat: 1900, gross: 11900 });
});

test('other countries are unchanged', () => {
  assert.deepEqual(invoiceTotal(10000, 'NL'), { net: 10000, vat: 2100, gross: 12100 });
  assert.deepEqual(invoiceTotal(999, 'AT'), { net: 999, vat: 200, gross: 1199 });
});

test('every rate is a fraction, so quotes are right too', () => {
  assert.equal(vatRate('DE'), 0.19);
  assert.equal(quoteGross(10000, 'DE'), 11900);
  for (const country of ['AT', 'BE', 'DE', 'FR', 'NL']) assert.ok(vatRate(country) > 0 && vatRate(country) < 1, country);
});
