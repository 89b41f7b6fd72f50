'use strict';

function formatCents(cents) {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/** An invoice line per item, a discount line when there is one, and the amount due. */
function invoiceText(invoice) {
  const subtotal = invoice.items.reduce((sum, i) => sum + i.cents, 0);
  const lines = invoice.items.map((i) => `${i.label.padEnd(20)}${formatCents(i.cents).padStart(12)}`);
  if (invoice.discountCents) lines.push(`${'Discount'.padEnd(20)}${formatCents(-invoice.discountCents).padStart(12)}`);
  lines.push(`${'Due'.padEnd(20)}${formatCents(subtotal - (invoice.discountCents ?? 0)).padStart(12)}`);
  return `Invoice ${invoice.number}\n${lines.join('\n')}`;
}

module.exports = { invoiceText };
