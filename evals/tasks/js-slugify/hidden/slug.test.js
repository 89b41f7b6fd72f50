'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { slugify } = require('../src/slug.js');
const { postPath } = require('../src/index.js');

test('punctuation goes, words stay', () => {
  assert.equal(slugify('Hello, World!'), 'hello-world');
  assert.equal(slugify('C++ & Rust: a comparison'), 'c-rust-a-comparison');
});

test('accents are dropped', () => {
  assert.equal(slugify('Crème brûlée'), 'creme-brulee');
  assert.equal(slugify('Ångström über Café'), 'angstrom-uber-cafe');
});

test('single hyphens, none at the ends', () => {
  assert.equal(slugify('  many   spaces  '), 'many-spaces');
  assert.equal(slugify('--a--b--'), 'a-b');
  assert.equal(slugify('Version 2.0 -- released'), 'version-2-0-released');
  assert.equal(slugify(''), '');
});

test('postPath uses the fixed slug', () => {
  assert.equal(postPath({ year: 2025, title: 'Why?! Because.' }), '/posts/2025/why-because');
});
