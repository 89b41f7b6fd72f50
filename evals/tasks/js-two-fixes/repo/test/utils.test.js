'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { capitalize, reverseWords } = require('../src/strings.js');
const { sum } = require('../src/numbers.js');

test('capitalize', () => assert.equal(capitalize('hello'), 'Hello'));
test('reverseWords', () => assert.equal(reverseWords('a b c'), 'c b a'));
test('sum', () => assert.equal(sum([1, 2, 3]), 6));
