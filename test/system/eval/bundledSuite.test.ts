/**
 * The bundled suite (evals/tasks) is real: every task loads, its hidden check fails on the starting tree,
 * and passes once its reference solution (solutions/<id>.patch, kept here, out of the agent's reach) is
 * applied — without touching a file the task says must stay untouched.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { discoverTasks, loadTask, type Task } from '../../../src/node/eval/taskSpec';
import { validateTask } from '../../../src/node/eval/validateSuite';

const SUITE = resolve(__dirname, '../../../evals/tasks');
const SOLUTIONS = join(__dirname, 'solutions');

describe('the bundled eval suite', function () {
  const dirs = discoverTasks(SUITE);
  const tasks = dirs.map(loadTask).flatMap((l) => (l.ok ? [l.value] : []));

  it('holds about twenty well-formed tasks across JavaScript, TypeScript and Python, of every kind', () => {
    const broken = dirs.map(loadTask).filter((l) => !l.ok);
    assert.deepEqual(broken, [], 'every task loads');
    assert.ok(tasks.length >= 18 && tasks.length <= 30, `${tasks.length} tasks`);
    const count = (key: keyof Pick<Task['meta'], 'language' | 'kind'>, value: string): number => tasks.filter((t) => t.meta[key] === value).length;
    for (const language of ['javascript', 'typescript', 'python']) assert.ok(count('language', language) >= 3, `${language} tasks`);
    for (const kind of ['bugfix', 'feature', 'refactor', 'command', 'parallel', 'replan']) assert.ok(count('kind', kind) >= 1, `a ${kind} task`);
    for (const t of tasks) assert.ok(t.untouched.length > 0, `${t.id} protects its tests with untouched globs`);
  });

  it('keeps a reference solution for every task and for nothing else, outside the suite', () => {
    const patches = readdirSync(SOLUTIONS)
      .filter((f) => f.endsWith('.patch'))
      .map((f) => f.replace(/\.patch$/, ''))
      .sort();
    assert.deepEqual(patches, tasks.map((t) => t.id).sort());
    for (const t of tasks) assert.ok(!existsSync(join(t.dir, 'solution.patch')) && !existsSync(join(t.repo, 'solution.patch')), t.id);
  });

  for (const dir of dirs) {
    const id = dir.split('/').pop()!;
    it(`${id}: the check fails on the starting tree and passes with the reference solution`, async function () {
      this.timeout(300_000);
      const v = await validateTask(dir, SOLUTIONS);
      assert.ok(v.ok, v.problems.join('\n'));
      assert.equal(v.before?.passed, false);
      assert.equal(v.after?.passed, true);
    });
  }
});
