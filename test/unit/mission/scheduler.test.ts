import assert from 'node:assert/strict';
import { Scheduler, runSchedule, type ScheduleNode } from '../../../src/core/mission/scheduler';

const node = (id: string, dependsOn: string[] = [], editGlobs: string[] = [`src/${id}/**`], runsCommands = false): ScheduleNode => ({ id, dependsOn, editGlobs, runsCommands });

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
