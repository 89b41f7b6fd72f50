'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { postPath, slugify } = require('../src/index.js');

test('slugify joins words with hyphens', () => {
  assert.equal(slugify('hello world'), 'hello-world');
});

test('postPath', () => {
  assert.equal(postPath({ year: 2024, title: 'first post' }), '/posts/2024/first-post');
});
