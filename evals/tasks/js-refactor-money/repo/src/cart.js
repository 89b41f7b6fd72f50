'use strict';

function formatCents(cents) {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/** The cart's lines and total, as text. */
function cartSummary(items) {
  const lines = items.map((i) => `${i.qty} × ${i.name}: ${formatCents(i.qty * i.unitCents)}`);
  const total = items.reduce((sum, i) => sum + i.qty * i.unitCents, 0);
  return [...lines, `Total: ${formatCents(total)}`].join('\n');
}

module.exports = { cartSummary };
