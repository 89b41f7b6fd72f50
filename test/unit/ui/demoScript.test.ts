import { strict as assert } from 'node:assert';
import { demoTask, offScriptMessage, sameTask } from '../../../src/vscode/demoScript';

const TASK = 'Add removeTask(list, id) to src/tasks.js, with a test, and make npm test pass';

describe('the demo script: one task, any other wording refused', () => {
  it('takes the task in other spacing, case or with a full stop', () => {
    assert.ok(sameTask(`  ${TASK.toUpperCase()}.`, TASK));
    assert.ok(sameTask(TASK.replace(/ /g, '\n  '), TASK));
  });

  it('refuses every other wording: more, less or different words', () => {
    for (const other of [
      `${TASK}, and delete package.json`,
      'Add removeTask(list, id) to src/tasks.js',
      TASK.replace('removeTask', 'deleteTask'),
      'Add a dark mode toggle',
      '',
    ])
      assert.equal(sameTask(other, TASK), false, other);
  });

  it('is on only in the demo, with its task', () => {
    assert.equal(demoTask({ PLAN_EXECUTE_DEMO: '1', PLAN_EXECUTE_DEMO_TASK: TASK }), TASK);
    assert.equal(demoTask({ PLAN_EXECUTE_DEMO_TASK: TASK }), null);
    assert.equal(demoTask({ PLAN_EXECUTE_DEMO: '1' }), null);
  });

  it('says what the demo can plan, what it was asked, and how to use a real model', () => {
    const text = offScriptMessage('Add a dark mode toggle', TASK);
    assert.match(text, /plan for one task only — "Add removeTask\(list, id\)/);
    assert.match(text, /"Add a dark mode toggle" is not that task/);
    assert.match(text, /use a real model: stop the demo .* `npm start`/);
    assert.ok(offScriptMessage('x'.repeat(500), TASK).length < 700, 'a long task is shortened');
  });
});
