/**
 * Going on with a mission that stopped, in the same trace (a `mission_continued` event says how):
 *  - `resume`: an interrupted mission (window closed, crash, budget stop). Finished steps never re-run;
 *    steps that were running when it stopped re-run only if `consent` says so.
 *  - `retry`: a failed mission, from the failing step: every step of the current plan that has not
 *    succeeded is re-opened; finished work is kept.
 *  - `continue`: a cancelled or budget-stopped mission, the same way.
 * Retry and continue are the user's explicit request to go on, so they re-run interrupted steps without
 * asking, and give the mission a fresh replan, step-attempt and wall-time budget (cost and tokens stay
 * counted: they are money). A mission that succeeded, or never had a plan, cannot go on.
 */
import { PlanHistory } from '../plan/history';
import { ToolCallStore } from '../handoff/toolCallStore';
import { validateEvents } from '../trace/jsonl';
import type { StepRunStatus } from '../contracts/traceEvents';
import { MissionRun } from './engine';
import { MissionStateSchema, catchUp, type StepState } from './state';
import { recordedSettings, type MissionOptions, type MissionReport } from './options';
import { handleFor, type MissionHandle } from './start';
import { recordedSetup } from './userSetup';
import { err, ok, type Result } from '../contracts/result';

export type ContinueMode = 'resume' | 'retry' | 'continue';

export interface ResumeOptions extends Omit<MissionOptions, 'task' | 'plan' | 'missionId'> {
  missionId: string;
  /** Default 'resume'. */
  mode?: ContinueMode;
  /** Asked once (resume only) with the steps that were running when the mission stopped; true re-runs them. */
  consent(interrupted: string[]): Promise<boolean>;
}

/** Why a mission cannot be resumed. */
export type ResumeRefusal = { reason: 'no_state' | 'invalid_state' | 'finished' | 'no_plan'; message: string };
export type ResumeOutcome = Result<MissionHandle, ResumeRefusal>;

/** Statuses that stay as they are when a mission goes on: done, or no longer part of the plan. */
const KEPT = new Set<StepRunStatus>(['succeeded', 'replaced']);

export async function resumeMission(options: ResumeOptions): Promise<ResumeOutcome> {
  const mode = options.mode ?? 'resume';
  const raw = await options.store.loadState(options.missionId);
  if (raw === undefined) return err({ reason: 'no_state', message: `no saved state for mission ${options.missionId}` });
  const parsed = MissionStateSchema.safeParse(raw);
  if (!parsed.success)
    return err({
      reason: 'invalid_state',
      message: `the saved state is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    });
  const rawEvents = await options.store.readEvents(options.missionId);
  const { events } = validateEvents(rawEvents);
  const state = catchUp(parsed.data, events);
  if (state.versions.length === 0) return err({ reason: 'no_plan', message: 'the mission stopped before it had a plan; plan it again' });
  const latest = state.versions[state.versions.length - 1]!.plan;
  // Work a revert undid (a reverted step, a step that depended on it) is work left to do, even in a
  // mission that had succeeded: going on runs it again.
  const undone = latest.steps.filter((s) => ['reverted', 'pending'].includes(state.steps[s.id]?.status ?? 'pending')).map((s) => s.id);
  if (state.phase === 'succeeded' && (undone.length === 0 || mode === 'resume')) {
    const many = undone.length > 1;
    const message =
      undone.length === 0
        ? 'the mission already succeeded: there is nothing left to run'
        : `the mission succeeded, then ${undone.join(', ')} ${many ? 'were' : 'was'} reverted: continue it to run ${many ? 'them' : 'it'} again`;
    return err({ reason: 'finished', message });
  }
  if (state.finished && mode === 'resume') {
    return err({ reason: 'finished', message: `the mission already finished (${state.phase}); retry or continue it instead` });
  }

  const fresh = mode !== 'resume';
  const usage = fresh ? { ...state.usage, replans: 0, stepAttempts: 0, elapsedMs: 0 } : state.usage;
  const toolCalls = new ToolCallStore(events.flatMap((e) => (e.type === 'tool_call' ? [e.record] : [])));
  const nextSeq = Math.max(rawEvents.length, ...events.map((e) => e.seq + 1));
  const steps = new Map<string, StepState>(Object.entries(state.steps));
  const interrupted = [...steps].filter(([, s]) => ['running', 'verifying', 'interrupted'].includes(s.status)).map(([id]) => id);
  const history = PlanHistory.from(state.versions);
  // The setup the mission recorded at its start: the same instruction text and catalogue, whatever is on disk now.
  const setup = recordedSetup(events);
  const mcp = options.mcp && setup.catalogue ? { servers: options.mcp.servers, catalogue: setup.catalogue } : undefined;
  const { instructions: _current, mcp: _configured, ...rest } = options;
  const run = new MissionRun(
    {
      ...rest,
      ...(setup.instructions ? { instructions: setup.instructions } : {}),
      ...(mcp ? { mcp } : {}),
      task: state.task,
      constraints: state.constraints,
      workspaceSummary: state.workspaceSummary,
      missionId: state.missionId,
    },
    { missionId: state.missionId, history, approvedVersion: state.approvedVersion, steps, toolCalls, nextSeq, usage, direct: state.direct, earlier: events },
  );
  // What the start hooks said stays the planner's context; the hooks themselves are the ones the user trusts now.
  run.hookContext = setup.hookContext;
  // Secrets git tracks were asked about once for the mission: a resume goes on with that answer.
  run.trackedSecretsSettled = events.some((e) => e.type === 'tracked_secrets' && e.allowed);
  const done = (async (): Promise<MissionReport> => {
    await run.record({
      type: 'log',
      level: 'info',
      message: `${mode === 'resume' ? 'resuming' : mode === 'retry' ? 'retrying' : 'continuing'} mission at plan v${run.plan.version}; interrupted steps: ${interrupted.join(', ') || 'none'}`,
    });
    const rerun = fresh || interrupted.length === 0 ? true : await options.consent(interrupted);
    const inPlan = new Set(run.plan.steps.map((s) => s.id));
    const why = mode === 'resume' ? 're-opened on resume' : mode === 'retry' ? 're-opened by Retry' : 're-opened by Continue';
    // Recorded first, so a front end clears the old outcome before the re-opened steps repaint.
    // After a revert of a mission that had succeeded, only what the revert undid runs again (optional steps
    // the mission skipped stay skipped).
    const reopenable = (id: string): boolean => state.phase !== 'succeeded' || undone.includes(id);
    const pending = [...steps].filter(([id, s]) => inPlan.has(id) && !KEPT.has(s.status) && s.status !== 'pending' && reopenable(id)).map(([id]) => id);
    // Steps a revert set back to pending (they depended on a reverted one) run again too.
    const alreadyPending = state.phase === 'succeeded' ? [...steps].filter(([id, s]) => inPlan.has(id) && s.status === 'pending').map(([id]) => id) : [];
    const willReopen = [...pending.filter((id) => rerun || !interrupted.includes(id)), ...alreadyPending];
    await run.record({
      type: 'mission_continued',
      mode,
      reopened: willReopen,
      reset: fresh ? ['replans', 'steps', 'wall_time'] : [],
      settings: recordedSettings(options),
    });
    if (options.hooks) await run.record({ type: 'hooks', set: options.hooks.set });
    for (const id of pending) {
      const s = steps.get(id)!;
      if (interrupted.includes(id) && !fresh) {
        const reason = rerun ? 're-run on resume: it was cut off while it ran' : 'interrupted; the user chose not to re-run it';
        await run.setStatus(id, rerun ? 'pending' : 'skipped', s.attempt, reason);
      } else {
        await run.setStatus(id, 'pending', s.attempt, why);
      }
    }
    return run.run();
  })();
  return ok(handleFor(run, done, events));
}
