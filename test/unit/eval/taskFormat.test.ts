import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverTasks, loadTask, shardOf } from '../../../src/node/eval/taskSpec';
import { runHiddenCheck } from '../../../src/node/eval/hiddenCheck';
import { changedFiles, fingerprint } from '../../../src/node/eval/taskWorkspace';
import { removeTrees, tempDir, writeTree } from './builders';

after(removeTrees);

const GOOD = { 'task.md': 'Fix it.\n', 'repo/a.txt': 'a\n', check: '#!/bin/sh\nexit 0\n' };

describe('eval task format', () => {
  it('loads a task with only task.md, repo/ and check, with defaults for the rest', () => {
    const dir = writeTree(GOOD, join(tempDir(), 'fix-it'));
    const load = loadTask(dir);
    assert.ok(load.ok, !load.ok ? load.error.message : '');
    assert.equal(load.value.id, 'fix-it');
    assert.equal(load.value.text, 'Fix it.');
    assert.deepEqual(load.value.untouched, []);
    assert.deepEqual(load.value.meta, {
      language: 'unknown',
      kind: 'unknown',
      difficulty: 'unknown',
      commands: [],
      packages: [],
      checkTimeoutSeconds: 300,
    });
  });

  it('names every problem of a malformed task at once, as a value', () => {
    const dir = writeTree(
      { 'task.md': '  \n', 'meta.json': '{ "language": ["js"], "packages": ["Not A Name"] }', untouched: 'src/**\n../outside\n/abs\n# fine\n' },
      join(tempDir(), 'bad'),
    );
    const load = loadTask(dir);
    assert.ok(!load.ok);
    assert.equal(load.error.id, 'bad');
    for (const problem of [
      /task\.md is empty/,
      /repo\/ is missing/,
      /check is missing/,
      /untouched line 2: "\.\.\/outside"/,
      /untouched line 3/,
      /meta\.json language/,
      /meta\.json packages\.0: an npm package name/,
    ]) {
      assert.match(load.error.message, problem);
    }
    writeFileSync(join(dir, 'meta.json'), '{ nope');
    const again = loadTask(dir);
    assert.ok(!again.ok && /meta\.json is not JSON/.test(again.error.message));
  });

  it('reads meta.json leniently where it can (a numbered difficulty, notes of its own) and folders in untouched whole', () => {
    const dir = writeTree(
      { ...GOOD, 'meta.json': '{ "difficulty": 2, "author": "someone", "language": "go" }', untouched: './tests\nfixtures/\nsrc/*.js\n' },
      join(tempDir(), 'lenient'),
    );
    const load = loadTask(dir);
    assert.ok(load.ok, !load.ok ? load.error.message : '');
    assert.equal(load.value.meta.difficulty, '2');
    assert.equal(load.value.meta.language, 'go');
    assert.deepEqual(load.value.untouched, ['tests', 'tests/**', 'fixtures/**', 'src/*.js', 'src/*.js/**']);
  });

  it('refuses a folder name that cannot be a task id', () => {
    const load = loadTask(writeTree(GOOD, join(tempDir(), 'has space')));
    assert.ok(!load.ok && /not a usable task id/.test(load.error.message));
  });

  it('finds the tasks of a suite by id, and a task folder is a suite of one', () => {
    const suite = writeTree({ 'b/task.md': 'x', 'a/check': 'x', '.hidden/task.md': 'x', 'notes/readme.txt': 'x', 'c/repo/': '' });
    assert.deepEqual(
      discoverTasks(suite).map((d) => d.split('/').pop()),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(discoverTasks(join(suite, 'b')), [join(suite, 'b')]);
  });
});

describe('eval shards', () => {
  it('deals every task to exactly one of N shards, balanced, whatever the order given', () => {
    const tasks = ['k', 'b', 'z', 'a', 'm', 'c', 'q'].map((id) => ({ id }));
    const shards = [1, 2, 3].map((i) => shardOf(tasks, i, 3).map((t) => t.id));
    assert.deepEqual(shards.flat().sort(), tasks.map((t) => t.id).sort());
    assert.ok(shards.every((s) => s.length === 2 || s.length === 3));
    assert.deepEqual(
      [1, 2, 3].map((i) => shardOf([...tasks].reverse(), i, 3).map((t) => t.id)),
      shards,
    );
    assert.deepEqual(
      shardOf(tasks, 1, 1).map((t) => t.id),
      ['a', 'b', 'c', 'k', 'm', 'q', 'z'],
    );
  });
});

describe('eval hidden check', () => {
  const task = (dir: string, checkTimeoutSeconds = 30) => {
    const load = loadTask(dir);
    assert.ok(load.ok, !load.ok ? load.error.message : '');
    return { ...load.value, meta: { ...load.value.meta, checkTimeoutSeconds } };
  };

  it('runs in the workspace with the task folder named, and no key in its environment', async () => {
    const dir = writeTree({ ...GOOD, check: '#!/bin/sh\npwd\necho "task=$EVAL_TASK_DIR arg=$1"\nenv | grep -c API_KEY || true\ntest -f a.txt\n' });
    const ws = writeTree({ 'a.txt': 'x' });
    process.env.ANTHROPIC_API_KEY = 'sk-canary';
    try {
      const r = await runHiddenCheck(task(dir), ws, tempDir());
      assert.equal(r.passed, true, r.outputTail);
      assert.match(r.outputTail, new RegExp(`${ws}\\ntask=${dir} arg=${ws}\\n0\\n`));
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
  });

  it('starts a check without the executable bit by its #! line, or with sh', async () => {
    const dir = writeTree({ ...GOOD, check: '#!/usr/bin/env node\nprocess.exit(require("node:fs").existsSync("a.txt") ? 3 : 0);\n' });
    const checkPath = join(dir, 'check');
    writeFileSync(checkPath, readFileSync(checkPath));
    chmodSync(checkPath, 0o644);
    const ws = writeTree({ 'a.txt': 'x' });
    const r = await runHiddenCheck(task(dir), ws, tempDir());
    assert.equal(r.exitCode, 3);
    writeFileSync(checkPath, 'test -f a.txt\n');
    assert.equal((await runHiddenCheck(task(dir), ws, tempDir())).passed, true);
  });

  it('fails a check past its time limit and ends what it started', async () => {
    const ws = tempDir();
    const dir = writeTree({ ...GOOD, check: `#!/bin/sh\nsleep 30 &\necho $! > ${ws}/child.pid\nsleep 30\n` });
    const r = await runHiddenCheck(task(dir, 1), ws, tempDir());
    assert.equal(r.passed, false);
    assert.equal(r.timedOut, true);
    assert.match(r.outputTail, /exceeded 1 s/);
    const pid = readFileSync(join(ws, 'child.pid'), 'utf8').trim();
    await new Promise((done) => setTimeout(done, 200));
    assert.ok(!existsSync(`/proc/${pid}`) || /\bZ\b/.test(readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2] ?? ''), 'the background child is gone');
  });
});

describe('eval untouched files', () => {
  it('sees a changed, an added and a removed file under the globs, and nothing else', () => {
    const root = writeTree({ 'test/a.test.js': '1', 'test/b.test.js': '2', 'src/x.js': 'x', '.git/HEAD': 'ref' });
    const globs = ['test/**'];
    const before = fingerprint(root, globs);
    writeFileSync(join(root, 'test/a.test.js'), '1 changed');
    rmSync(join(root, 'test/b.test.js'));
    writeFileSync(join(root, 'test/new.test.js'), 'new');
    writeFileSync(join(root, 'src/x.js'), 'changed, but not untouched');
    mkdirSync(join(root, 'test/__pycache__'));
    writeFileSync(join(root, 'test/__pycache__/a.pyc'), 'cache');
    assert.deepEqual(changedFiles(before, fingerprint(root, globs)), ['test/a.test.js', 'test/b.test.js', 'test/new.test.js']);
    assert.equal(fingerprint(root, []).size, 0);
  });
});
