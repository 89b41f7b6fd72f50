'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { parseCsv } = require('../src/csv.js');

test('a quoted field keeps its commas', () => {
  assert.deepEqual(parseCsv('a,"b,c",d'), [['a', 'b,c', 'd']]);
  assert.deepEqual(parseCsv('"x, y, z"'), [['x, y, z']]);
});

test('a doubled quote inside quotes is one quote', () => {
  assert.deepEqual(parseCsv('"say ""hi""",2'), [['say "hi"', '2']]);
  assert.deepEqual(parseCsv('""""'), [['"']]);
});

test('empty fields stay', () => {
  assert.deepEqual(parseCsv('a,,b'), [['a', '', 'b']]);
  assert.deepEqual(parseCsv(',,'), [['', '', '']]);
  assert.deepEqual(parseCsv('"",x'), [['', 'x']]);
});

test('CRLF records and a trailing newline', () => {
  assert.deepEqual(parseCsv('h1,h2\r\n"1,5",2\r\n'), [['h1', 'h2'], ['1,5', '2']]);
});
