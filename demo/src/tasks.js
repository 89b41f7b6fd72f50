'use strict';

/** Returns a new list with a task added; ids are increasing integers. */
function addTask(list, title) {
  if (typeof title !== 'string' || title.trim() === '') {
    throw new Error('a task needs a title');
  }
  const id = list.reduce((max, task) => Math.max(max, task.id), 0) + 1;
  return [...list, { id, title: title.trim(), done: false }];
}

/** Returns a new list with the task marked done. */
function completeTask(list, id) {
  return list.map((task) => (task.id === id ? { ...task, done: true } : task));
}

// TODO: removeTask(list, id), so a task can be taken off the list.

/** One line per task: "[x] title" or "[ ] title". */
function formatList(list) {
  return list.map((task) => `[${task.done ? 'x' : ' '}] ${task.title}`).join('\n');
}

module.exports = { addTask, completeTask, formatList };
