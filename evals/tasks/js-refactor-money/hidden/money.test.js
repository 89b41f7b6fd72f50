'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { formatCents } = require('../src/money.js');

test('formatCents', () => {
  assert.equal(formatCents(0), '0.00');
  assert.equal(formatCents(7), '0.07');
  assert.equal(formatCents(123456), '1,234.56');
  assert.equal(formatCents(100000000), '1,000,000.00');
  assert.equal(formatCents(-5), '-0.05');
  assert.equal(formatCents(-250099), '-2,500.99');
});

test('cart.js and invoice.js use money.js and no copy of their own', () => {
  for (const file of ['cart.js', 'invoice.js']) {
    const source = readFileSync(join(__dirname, '..', 'src', file), 'utf8');
    assert.match(source, /require\(\s*['"]\.\/money(\.js)?['"]\s*\)/, `${file} requires ./money`);
    assert.doesNotMatch(source, /padStart\(2, *'0'\)|\\d\{3\}/, `${file} still formats cents itself`);
  }
});
