'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { invoiceText } = require('../src/invoice.js');

test('invoice with a discount', () => {
  const text = invoiceText({ number: 'A-7', items: [{ label: 'Consulting', cents: 1234567 }, { label: 'Travel', cents: 5 }], discountCents: 2000 });
  assert.equal(text, [
    'Invoice A-7',
    'Consulting             12,345.67',
    'Travel                      0.05',
    'Discount                  -20.00',
    'Due                    12,325.72',
  ].join('\n'));
});
