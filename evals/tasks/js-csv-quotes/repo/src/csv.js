'use strict';

/** One CSV record (a line) as its fields. */
function parseLine(line) {
  return line.split(',');
}

/** CSV text as rows of fields; a trailing newline adds no empty row. */
function parseCsv(text) {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines.map(parseLine);
}

module.exports = { parseCsv };
