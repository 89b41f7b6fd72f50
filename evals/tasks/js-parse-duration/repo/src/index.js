'use strict';
const { formatDuration } = require('./duration');

module.exports = { formatDuration };
