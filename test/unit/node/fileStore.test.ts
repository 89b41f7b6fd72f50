import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileStore } from '../../../src/node/fileStore';
import type { TraceEvent } from '../../../src/core/contracts/traceEvents';

describe('FileStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-store-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stores blobs by sha256 and returns them', async () => {
    const store = new FileStore(dir);
    const hash = await store.putBlob(new TextEncoder().encode('hello'));
    assert.equal(hash, '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    assert.equal(new TextDecoder().decode(await store.getBlob(hash)), 'hello');
    assert.equal(await store.getBlob('../../etc/passwd'), undefined);
  });

  it('appends trace events in order, even when appends race', async () => {
    const store = new FileStore(dir);
    const events = Array.from({ length: 50 }, (_, i): TraceEvent => ({ missionId: 'm1', seq: i, at: 'now', type: 'log', level: 'info', message: `e${i}` }));
    await Promise.all(events.map((e) => store.appendEvent('m1', e)));
    const back = (await store.readEvents('m1')) as TraceEvent[];
    assert.deepEqual(
      back.map((e) => e.seq),
      events.map((e) => e.seq),
    );
  });

  it('skips a torn final line', async () => {
    const store = new FileStore(dir);
    await store.appendEvent('m1', { missionId: 'm1', seq: 0, at: 'now', type: 'log', level: 'info', message: 'ok' });
    fs.appendFileSync(store.tracePath('m1'), '{"missionId":"m1","se');
    assert.equal((await store.readEvents('m1')).length, 1);
  });

  it('reads a missing trace or state as none, and any other read fault as the fault it is', async () => {
    const store = new FileStore(dir);
    assert.deepEqual(await store.readEvents('m9'), []);
    assert.equal(await store.loadState('m9'), undefined);
    // A trace that cannot be read (here: a folder where the file belongs) is not "no events yet".
    fs.mkdirSync(store.tracePath('m9'), { recursive: true });
    await assert.rejects(store.readEvents('m9'), /EISDIR/);
  });

  it('saves and loads state snapshots and lists missions', async () => {
    const store = new FileStore(dir);
    await store.saveState('m2', { phase: 'running' });
    await store.saveState('m2', { phase: 'succeeded' });
    assert.deepEqual(await store.loadState('m2'), { phase: 'succeeded' });
    assert.deepEqual(await store.listMissions(), ['m2']);
  });

  it('refuses mission ids that would leave the store', async () => {
    const store = new FileStore(dir);
    await assert.rejects(store.saveState('../x', {}), /invalid mission id/);
  });
});
