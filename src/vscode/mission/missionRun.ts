/**
 * A core MissionHandle as the window's MissionRun. The handle's `done` is meant never to reject, but a
 * store that fails while the mission finishes (the last trace events, the report) makes it reject: that
 * error goes to the extension's log, not nowhere. The trace cannot hold it (the store is what failed);
 * the engine records an `engine error` line there first wherever the store still takes one.
 */
import type { MissionHandle } from '../../core/mission/start';
import type { Diagnostics } from '../../core/ports';
import type { MissionRun } from './engineBridge';
import { errorDetail } from '../../core/primitives/errorText';
import { err, ok } from '../../core/contracts/result';

/** `close` stops what the mission started beside the engine (its MCP servers), whatever the outcome. */
export function missionRunOf(handle: MissionHandle, close: () => Promise<void>, log: Diagnostics): MissionRun {
  const done = handle.done.then(
    () => undefined,
    (error: unknown) => log.error(`mission ${handle.missionId} failed while it finished (its trace may lack the end): ${errorDetail(error)}`),
  );
  // Not awaited by `done`: the window learns the mission ended without waiting for its servers to stop.
  void done.then(close).catch((error: unknown) => log.error(`mission ${handle.missionId}: could not stop its MCP servers: ${errorDetail(error)}`));
  return {
    missionId: handle.missionId,
    editPlan: async (edit) => {
      const out = await handle.editPlan(edit);
      return out.ok ? ok(undefined) : err({ reason: out.error.reason, message: out.error.message });
    },
    correct: async (stepId, message) => {
      const out = await handle.correct(stepId, message);
      return out.ok ? ok(undefined) : err({ reason: out.error.reason, message: out.error.message });
    },
    cancel: (reason) => handle.cancel(reason),
    interrupt: (reason) => handle.interrupt(reason),
    done,
  };
}
