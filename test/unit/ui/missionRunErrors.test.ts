import { strict as assert } from 'node:assert';
import type { MissionHandle } from '../../../src/core/mission/start';
import type { MissionReport } from '../../../src/core/mission/options';
import { missionRunOf } from '../../../src/vscode/mission/missionRun';

/** Only what missionRunOf reads of a handle: its id and how it ends. */
function handleEnding(done: Promise<MissionReport>): MissionHandle {
  return { missionId: 'm-1', done } as Partial<MissionHandle> as MissionHandle;
}

function recordingLog(): { lines: string[]; error(message: string): void } {
  const lines: string[] = [];
  return { lines, error: (message) => lines.push(message) };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('a mission run in the window: errors never vanish', () => {
  it('logs a store failure while the mission finishes, and still settles done', async () => {
    const log = recordingLog();
    const run = missionRunOf(handleEnding(Promise.reject(new Error('EIO: store write failed'))), async () => undefined, log);
    await run.done;
    assert.equal(log.lines.length, 1);
    assert.match(log.lines[0]!, /mission m-1 failed while it finished.*EIO: store write failed/s);
  });

  it('stops the MCP servers after a failed finish too, and logs when stopping them fails', async () => {
    const log = recordingLog();
    let closed = 0;
    const close = async (): Promise<void> => {
      closed++;
      throw new Error('server would not stop');
    };
    const run = missionRunOf(handleEnding(Promise.reject(new Error('disk full'))), close, log);
    await run.done;
    await settle();
    assert.equal(closed, 1);
    assert.equal(log.lines.length, 2);
    assert.match(log.lines[1]!, /could not stop its MCP servers: .*server would not stop/s);
  });

  it('logs nothing when the mission ends normally', async () => {
    const log = recordingLog();
    const run = missionRunOf(handleEnding(Promise.resolve({} as MissionReport)), async () => undefined, log);
    await run.done;
    await settle();
    assert.deepEqual(log.lines, []);
  });
});
