import assert from 'node:assert/strict';
import type { Step } from '../../../src/core/contracts/plan';
import { authority, parsedStep, type StepOverrides } from '../../support/fixtures';
import { Scheduler, runSchedule, scheduleNodeOf, type ScheduleNode } from '../../../src/core/mission/scheduler';
import type { WriteRoot } from '../../../src/core/policy/writeScope';

const node = (id: string, dependsOn: string[] = [], editGlobs: string[] = [`src/${id}/**`], runsCommands = false): ScheduleNode => ({
  id,
  dependsOn,
  editGlobs,
  runsCommands,
});

describe('scheduler', () => {
  it('starts every ready step at once up to maxParallel', () => {
    const s = new Scheduler([node('a'), node('b'), node('c'), node('d', ['a'])], { maxParallel: 2 });
    const first = s.take();
    assert.equal(first.length, 2);
    assert.deepEqual(s.take(), [], 'no more while two are running');
    s.finish(first[0]!, 'succeeded');
    assert.equal(s.take().length, 1);
  });

  it('prefers the step on the longest chain', () => {
    const s = new Scheduler([node('leaf'), node('root'), node('mid', ['root']), node('end', ['mid'])], { maxParallel: 1 });
    assert.deepEqual(s.take(), ['root']);
  });

  it('never runs two steps whose edit globs may overlap at the same time', () => {
    const s = new Scheduler([node('a', [], ['src/**']), node('b', [], ['src/util.ts']), node('c', [], ['docs/**'])], { maxParallel: 4 });
    const first = s.take();
    assert.deepEqual(first.sort(), ['a', 'c']);
    s.finish('a', 'succeeded');
    assert.deepEqual(s.take(), ['b']);
  });

  it('blocks the transitive dependents of a failed step and nothing else', () => {
    const s = new Scheduler([node('a'), node('b', ['a']), node('c', ['b']), node('d')], { maxParallel: 4 });
    s.take();
    const blocked = s.finish('a', 'failed');
    assert.deepEqual(blocked.sort(), ['b', 'c']);
    assert.equal(s.state('d'), 'running');
    s.finish('d', 'succeeded');
    assert.ok(s.idle);
  });

  it('treats steps finished earlier as satisfied dependencies', () => {
    const s = new Scheduler([node('a'), node('b', ['a'])], { maxParallel: 2, succeeded: ['a'] });
    assert.deepEqual(s.take(), ['b']);
  });

  it('treats a step that runs commands as writing anywhere: never alongside a writer or another command step', () => {
    const s = new Scheduler([node('install', [], [], true), node('build', [], [], true), node('edit'), node('research', [], [])], { maxParallel: 4 });
    assert.deepEqual(s.take(), ['install', 'research'], 'a step without edits or commands runs alongside a command step');
    s.finish('install', 'succeeded');
    assert.deepEqual(s.take(), ['build'], 'the next command step, still alone among writers');
    s.finish('build', 'succeeded');
    assert.deepEqual(s.take(), ['edit']);
  });

  it('keeps a command step waiting while an edit step runs, even with disjoint globs', () => {
    const s = new Scheduler([node('edit'), node('test', [], ['coverage/**'], true)], { maxParallel: 2 });
    assert.deepEqual(s.take(), ['edit']);
    s.finish('edit', 'succeeded');
    assert.deepEqual(s.take(), ['test']);
  });

  describe('with commands confined to their write scope', () => {
    const cmd = (id: string, scope: string[], editGlobs: string[] = []): ScheduleNode => ({
      id,
      dependsOn: [],
      editGlobs,
      runsCommands: true,
      commandScope: scope.map((path): WriteRoot => ({ path, kind: 'tree' })),
    });

    it('runs command steps whose write scopes do not overlap side by side', () => {
      const s = new Scheduler([cmd('test-api', ['packages/api']), cmd('test-web', ['packages/web']), cmd('lint', [])], {
        maxParallel: 4,
        commandsConfined: true,
      });
      assert.deepEqual(s.take().sort(), ['lint', 'test-api', 'test-web']);
    });

    it('keeps command steps apart when one scope contains the other, or one may write the repository', () => {
      const s = new Scheduler([cmd('build', ['packages']), cmd('test-web', ['packages/web']), cmd('commit-a', ['.git']), cmd('commit-b', ['.git', 'docs'])], {
        maxParallel: 4,
        commandsConfined: true,
      });
      assert.deepEqual(s.take(), ['build', 'commit-a']);
      s.finish('build', 'succeeded');
      assert.deepEqual(s.take(), ['test-web']);
      s.finish('commit-a', 'succeeded');
      assert.deepEqual(s.take(), ['commit-b']);
    });

    it('keeps a command step away from an editor whose globs fall inside its scope, but not from one outside it', () => {
      const s = new Scheduler([cmd('codegen', ['src/gen']), node('edit-gen', [], ['src/gen/*.ts']), node('edit-docs', [], ['docs/**'])], {
        maxParallel: 4,
        commandsConfined: true,
      });
      assert.deepEqual(s.take().sort(), ['codegen', 'edit-docs']);
      s.finish('codegen', 'succeeded');
      assert.deepEqual(s.take(), ['edit-gen']);
    });

    it('counts a command step without a known scope as writing the whole workspace', () => {
      const legacy: ScheduleNode = { id: 'old', dependsOn: [], editGlobs: [], runsCommands: true };
      const s = new Scheduler([legacy, node('edit')], { maxParallel: 2, commandsConfined: true });
      assert.deepEqual(s.take(), ['old']);
    });

    it('derives the scope from the plan step: edit roots, plus .git for git write subcommands', () => {
      const command = (id: string, overrides: StepOverrides): Step => parsedStep(id, { title: 't', kind: 'command', evidence: { checks: [] }, ...overrides });
      const test = scheduleNodeOf(command('a', { authority: authority({ edit: ['src/api/**/*.ts'], commands: ['npm test'] }) }));
      const commit = scheduleNodeOf(command('b', { authority: authority({ edit: ['docs/CHANGELOG.md'], commands: ['git commit *'] }) }));
      const checkOnly = scheduleNodeOf(
        command('c', { authority: authority(), evidence: { checks: [{ kind: 'command', command: 'npm test', expectExitCode: 0 }], description: '' } }),
      );
      assert.deepEqual(test.commandScope, [{ path: 'src/api', kind: 'tree' }]);
      assert.deepEqual(commit.commandScope, [
        { path: '.git', kind: 'tree' },
        { path: 'docs', kind: 'folder' },
      ]);
      assert.deepEqual(checkOnly.commandScope, [], 'verification commands run read-only');
      const s = new Scheduler([test, commit, checkOnly], { maxParallel: 3, commandsConfined: true });
      assert.equal(s.take().length, 3);
    });
  });

  describe('with literal edit globs (folder roots: the command may write beside its file)', () => {
    const step = (id: string, edit: string[], commands: string[] = ['node x.js']): ScheduleNode =>
      scheduleNodeOf(
        parsedStep(id, { title: 't', kind: commands.length > 0 ? 'command' : 'edit', authority: authority({ edit, commands }), evidence: { checks: [] } }),
      );
    const started = (nodes: ScheduleNode[]): string[] => new Scheduler(nodes, { maxParallel: 8, commandsConfined: true }).take().sort();

    it("keeps command steps whose files share a folder apart: one's rollback must not undo the other's writes", () => {
      const s = new Scheduler([step('a', ['src/a.js']), step('b', ['src/b.js'])], { maxParallel: 2, commandsConfined: true });
      assert.deepEqual(s.take(), ['a']);
      s.finish('a', 'succeeded');
      assert.deepEqual(s.take(), ['b']);
    });

    it('runs command steps whose files lie in sibling folders side by side', () => {
      assert.deepEqual(started([step('a', ['src/a/x.js']), step('b', ['src/b/y.js']), step('d', ['docs/**'])]), ['a', 'b', 'd']);
    });

    it('keeps a folder away from any root or edit glob below it, at any depth, and from a tree above it', () => {
      assert.deepEqual(started([step('file', ['src/a.js']), step('deep', ['src/gen/out/**'])]), ['file'], 'the folder step may create src/gen');
      assert.deepEqual(started([step('file', ['src/a.js']), step('nested', ['src/lib/b.js'])]), ['file'], 'one folder is an ancestor of the other');
      assert.deepEqual(started([step('file', ['src/a.js']), step('editor', ['src/lib/new.ts'], [])]), ['file'], 'an editor writing below the folder');
      assert.deepEqual(started([step('tree', ['src/**']), step('file', ['src/lib/b.js'])]), ['tree']);
    });

    it('keeps a top-level literal glob (package.json) away from every writer, but not from a step that writes nothing', () => {
      assert.deepEqual(started([step('pkg', ['package.json']), step('docs', ['docs/**']), step('editor', ['src/a.ts'], []), step('lint', [])]), [
        'lint',
        'pkg',
      ]);
    });
  });

  it('runs a whole DAG to completion with runSchedule', async () => {
    const order: string[] = [];
    const s = new Scheduler([node('a'), node('b', ['a']), node('c', ['a']), node('d', ['b', 'c'])], { maxParallel: 2 });
    await runSchedule(s, async (id) => {
      order.push(id);
      await new Promise((r) => setTimeout(r, 1));
      return 'succeeded';
    });
    assert.equal(order[0], 'a');
    assert.equal(order[3], 'd');
    assert.deepEqual(s.inState('succeeded').sort(), ['a', 'b', 'c', 'd']);
  });
});
