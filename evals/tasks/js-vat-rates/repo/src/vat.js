'use strict';
const rates = require('./rates.json');

/** The VAT rate of a country, as a fraction (0.2 for 20 %). */
function vatRate(country) {
  const rate = rates[country];
  if (rate === undefined) throw new Error(`no VAT rate for ${country}`);
  return rate;
}

module.exports = { vatRate };
