/**
 * `continue`: which stopped mission of the workspace's store to go on with, and how. The saved state says
 * how the mission stopped: failed → Retry from the failing step; cancelled or stopped by a cap → Continue;
 * interrupted (the process died) → Resume. A mission that succeeded, or is unknown, is refused with a
 * message; the engine (resume.ts) re-checks everything when it loads the state.
 */
import { MissionStateSchema } from '../core/mission/state';
import type { ContinueMode } from '../core/mission/resume';
import type { Store } from '../core/ports';
import { err, ok, type Result } from '../core/contracts/result';

export type ContinueChoice = Result<{ missionId: string; mode: ContinueMode; task: string }, string>;

export async function chooseContinuation(store: Store, requested: string | undefined): Promise<ContinueChoice> {
  const missions = await store.listMissions();
  // Mission ids start with their creation time in base 36, so the last in order is the newest.
  const missionId = requested ?? missions.at(-1);
  if (missionId === undefined) return err('this workspace has no mission to continue (the CLI keeps them in .plan-execute/)');
  if (!missions.includes(missionId)) return err(`no mission ${missionId} in this workspace (known: ${missions.join(', ') || 'none'})`);
  const parsed = MissionStateSchema.safeParse(await store.loadState(missionId));
  if (!parsed.success) return err(`mission ${missionId} has no readable saved state`);
  const state = parsed.data;
  if (state.phase === 'succeeded') return err(`mission ${missionId} already succeeded; there is nothing to continue`);
  const mode: ContinueMode = state.phase === 'failed' && state.finished ? 'retry' : state.phase === 'interrupted' ? 'resume' : 'continue';
  return ok({ missionId, mode, task: state.task });
}
