'use strict';
const { vatRate } = require('./vat');

/** Net, VAT and gross of an invoice, in cents, for a customer in `country`. */
function invoiceTotal(netCents, country) {
  const vat = Math.round(netCents * vatRate(country));
  return { net: netCents, vat, gross: netCents + vat };
}

module.exports = { invoiceTotal };
