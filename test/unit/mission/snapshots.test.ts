import assert from 'node:assert/strict';
import { SnapshotWriter } from '../../../src/core/mission/snapshots';
import { realClock } from './fakes';

describe('state snapshots', () => {
  it('coalesce a burst of transitions into few writes, the last one reflecting the latest state', async () => {
    let state = 0;
    const written: number[] = [];
    const writer = new SnapshotWriter(
      async () => {
        written.push(state);
      },
      realClock,
      30,
      (error) => assert.fail(`no write fails here: ${String(error)}`),
    );
    const waits: Promise<void>[] = [];
    for (let i = 1; i <= 50; i++) {
      state = i;
      waits.push(writer.request());
    }
    await Promise.all(waits);
    assert.ok(written.length <= 2, `wrote ${written.length} times`);
    assert.equal(written[written.length - 1], 50);
  });

  it('writes the final snapshot at once, without waiting for the interval', async () => {
    const written: boolean[] = [];
    const writer = new SnapshotWriter(
      async (final) => {
        written.push(final);
      },
      realClock,
      10_000,
      (error) => assert.fail(`no write fails here: ${String(error)}`),
    );
    await writer.request();
    const t0 = Date.now();
    void writer.request();
    await writer.request(true);
    assert.ok(Date.now() - t0 < 1000);
    assert.deepEqual(written, [false, true]);
  });

  it('hands a failed write to its reporter and keeps writing later snapshots', async () => {
    const failures: unknown[] = [];
    let calls = 0;
    const writer = new SnapshotWriter(
      async () => {
        calls++;
        if (calls === 1) throw new Error('disk full');
      },
      realClock,
      0,
      (error) => failures.push(error),
    );
    await writer.request();
    await writer.request(true);
    assert.equal(calls, 2, 'the second snapshot is still written');
    assert.deepEqual(
      failures.map((e) => (e instanceof Error ? e.message : String(e))),
      ['disk full'],
    );
  });
});
