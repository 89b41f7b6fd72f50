'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { addTask, completeTask, formatList } = require('../src/tasks');

test('addTask gives each task the next id', () => {
  const list = addTask(addTask([], 'write docs'), 'ship it');
  assert.deepEqual(list.map((task) => task.id), [1, 2]);
});

test('addTask refuses an empty title', () => {
  assert.throws(() => addTask([], '  '), /title/);
});

test('completeTask marks only the given task', () => {
  const list = completeTask(addTask(addTask([], 'a'), 'b'), 2);
  assert.deepEqual(list.map((task) => task.done), [false, true]);
});

test('formatList shows a checkbox per task', () => {
  const list = completeTask(addTask(addTask([], 'a'), 'b'), 1);
  assert.equal(formatList(list), '[x] a\n[ ] b');
});
