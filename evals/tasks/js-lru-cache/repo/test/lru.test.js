'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { LruCache } = require('../src/lru.js');

test('keeps at most capacity entries, dropping the oldest', () => {
  const cache = new LruCache(2).set('a', 1).set('b', 2).set('c', 3);
  assert.equal(cache.size, 2);
  assert.equal(cache.has('a'), false);
  assert.equal(cache.get('c'), 3);
});

test('refuses a capacity below one', () => {
  assert.throws(() => new LruCache(0), RangeError);
});
