/**
 * The workspace lock as a specification: staged commands over a workspace run side by side, a write to the
 * workspace waits for every one of them, and a command that comes after a waiting write waits for it.
 */
import { strict as assert } from 'node:assert';
import { whileReading, whileWriting } from '../../../src/core/tools/workspaceLock';

/** A task that runs until `done()` is called, recording when it started and ended in `log`. */
function task(log: string[], name: string): { run: () => Promise<void>; done: () => void; started: Promise<void> } {
  let finish = (): void => undefined;
  let began = (): void => undefined;
  const started = new Promise<void>((r) => (began = r));
  const finished = new Promise<void>((r) => (finish = r));
  return {
    run: async () => {
      log.push(`${name} start`);
      began();
      await finished;
      log.push(`${name} end`);
    },
    done: () => finish(),
    started,
  };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('workspace lock', () => {
  it('runs commands side by side; a write waits for all of them, and a later command waits for the write', async () => {
    const log: string[] = [];
    const a = task(log, 'command a');
    const b = task(log, 'command b');
    const w = task(log, 'apply');
    const c = task(log, 'command c');
    const running = [whileReading('/ws', a.run), whileReading('/ws', b.run)];
    await Promise.all([a.started, b.started]);
    const writing = whileWriting('/ws', w.run);
    await tick();
    const later = whileReading('/ws', c.run);
    await tick();
    assert.deepEqual(log, ['command a start', 'command b start'], 'the apply and the later command wait');
    a.done();
    await running[0];
    await tick();
    assert.ok(!log.includes('apply start'), 'the apply waits for every running command');
    b.done();
    await w.started;
    assert.ok(!log.includes('command c start'), 'a command that came after the waiting apply waits for it');
    w.done();
    await writing;
    await c.started;
    c.done();
    await Promise.all([...running, later]);
    assert.deepEqual(log, [
      'command a start',
      'command b start',
      'command a end',
      'command b end',
      'apply start',
      'apply end',
      'command c start',
      'command c end',
    ]);
  });

  it('keeps workspaces apart, and lets the next write go when one throws', async () => {
    const log: string[] = [];
    const a = task(log, 'command in /one');
    const running = whileReading('/one', a.run);
    await a.started;
    await whileWriting('/two', async () => void log.push('apply in /two'));
    assert.deepEqual(log, ['command in /one start', 'apply in /two']);
    a.done();
    await running;
    await assert.rejects(
      whileWriting('/one', () => Promise.reject(new Error('disk full'))),
      /disk full/,
    );
    await whileWriting('/one', async () => void log.push('next apply'));
    assert.equal(log[log.length - 1], 'next apply');
  });
});
