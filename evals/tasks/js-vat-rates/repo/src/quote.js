'use strict';
const { vatRate } = require('./vat');

/** A price quote: the gross price, in cents, of `netCents` for a customer in `country`. */
function quoteGross(netCents, country) {
  return Math.round(netCents * (1 + vatRate(country)));
}

module.exports = { quoteGross };
