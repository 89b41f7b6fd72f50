'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { LruCache } = require('../src/lru.js');

test('get makes an entry the most recently used', () => {
  const cache = new LruCache(2).set('a', 1).set('b', 2);
  assert.equal(cache.get('a'), 1);
  cache.set('c', 3);
  assert.equal(cache.has('a'), true);
  assert.equal(cache.has('b'), false);
  assert.equal(cache.get('c'), 3);
});

test('updating a key makes it the most recently used and keeps the size', () => {
  const cache = new LruCache(2).set('a', 1).set('b', 2).set('a', 10);
  assert.equal(cache.size, 2);
  cache.set('c', 3);
  assert.equal(cache.get('a'), 10);
  assert.equal(cache.has('b'), false);
});

test('a missing key reads undefined and adds nothing', () => {
  const cache = new LruCache(3).set('a', 1);
  assert.equal(cache.get('zzz'), undefined);
  assert.equal(cache.size, 1);
  assert.equal(cache.has('zzz'), false);
});

test('a long sequence evicts in least-recently-used order', () => {
  const cache = new LruCache(3);
  for (const k of ['a', 'b', 'c']) cache.set(k, k);
  cache.get('a');
  cache.get('b');
  cache.set('d', 'd');
  assert.deepEqual(['a', 'b', 'c', 'd'].filter((k) => cache.has(k)), ['a', 'b', 'd']);
  cache.get('a');
  cache.set('e', 'e');
  assert.deepEqual(['a', 'b', 'd', 'e'].filter((k) => cache.has(k)), ['a', 'd', 'e']);
});

test('falsy values are cached like any other', () => {
  const cache = new LruCache(2).set('zero', 0).set('empty', '');
  assert.equal(cache.get('zero'), 0);
  cache.set('x', 1);
  assert.equal(cache.has('empty'), false);
  assert.equal(cache.get('zero'), 0);
});
