/**
 * The engine's public entry points, used by both front ends:
 *  - `startMission(options)` → a MissionHandle: the report promise plus the controls a UI needs while the
 *    mission runs (see the plan and its view, edit the plan — each edit a new version — send a correction,
 *    cancel). Plan approval goes through `options.approver` with `kind: 'plan'` (see planApproval.ts).
 *  - `runMission(options)` → the report, for callers that need no controls (the CLI).
 * Going on with a stopped mission (resume, retry, continue) is in resume.ts.
 */
import type { Plan } from '../contracts/plan';
import type { PlanRequest, RoleContext, RoleOutcome } from '../ports';
import { validatePlan } from '../plan/validate';
import { applyPlanEdit, type PlanEditInput, type PlanEditOutcome } from '../plan/edits';
import { PlanHistory } from '../plan/history';
import { ToolCallStore } from '../handoff/toolCallStore';
import type { TraceEvent } from '../contracts/traceEvents';
import { MissionRun } from './engine';
import { isDirect } from './direct';
import { planningSetup } from './userSetup';
import { runStartHooks } from './promptHooks';
import { blockedByHook } from '../tools/failures';
import { planLimits, recordedSettings, type MissionOptions, type MissionReport } from './options';
import { missionViewFromEvents } from './view';
import type { MissionView } from '../contracts/missionView';
import { errorText } from '../primitives/errorText';
import { err, ok, type Result } from '../contracts/result';

export interface MissionHandle {
  readonly missionId: string;
  /** Resolves with the report when the mission ends; never rejects. */
  readonly done: Promise<MissionReport>;
  /** The latest plan version (undefined while the planner works). */
  plan(): Plan | undefined;
  /** The trace so far, projected (plain JSON). */
  view(): MissionView;
  /**
   * Edits the plan (a new version with parent, reason and diff). While the plan awaits approval, the open
   * approval request is withdrawn and re-asked for the new version. While running, only steps that have
   * not started may change; no edits during planning or replanning.
   */
  editPlan(edit: PlanEditInput): Promise<PlanEditOutcome>;
  /** A user correction mid-mission: a replan trigger (rest of mission) with the user's words as evidence. */
  correct(stepId: string | null, text: string): Promise<ControlOutcome>;
  /** The kill switch: running steps are told, nothing new starts; the report lists what finished. */
  cancel(reason?: string): void;
  /**
   * Stops the run without ending the mission (the host is going away: a window reload). No outcome is
   * recorded; the mission is resumable as it was, its running steps interrupted and re-run on resume.
   */
  interrupt(reason: string): void;
}

/** Why a correction was refused. */
export type ControlRefusal = { reason: 'not_running' | 'unknown_step'; message: string };
export type ControlOutcome = Result<void, ControlRefusal>;

export function runMission(options: MissionOptions): Promise<MissionReport> {
  return startMission(options).done;
}

export function startMission(options: MissionOptions): MissionHandle {
  const missionId = options.missionId ?? newMissionId(options.clock.now());
  const run = new MissionRun(options, {
    missionId,
    history: new PlanHistory(),
    approvedVersion: null,
    steps: new Map(),
    toolCalls: new ToolCallStore(),
    nextSeq: 0,
  });
  const done = (async (): Promise<MissionReport> => {
    await run.record({
      type: 'mission_started',
      task: options.task,
      workspaceRoot: options.workspace.root,
      settings: recordedSettings(options),
      constraints: options.constraints ?? [],
    });
    // The user's setup as this mission uses it: what a replay and a resume go on with.
    if (options.instructions) await run.record({ type: 'instructions', set: options.instructions });
    if (options.mcp) await run.record({ type: 'mcp_catalogue', catalogue: options.mcp.catalogue });
    if (options.hooks) await run.record({ type: 'hooks', set: options.hooks.set });
    await run.setPhase('planning');
    // The user's SessionStart and UserPromptSubmit hooks, before any model call: a block ends the mission here.
    const started = await runStartHooks(run);
    if (!started.ok) return run.finish('failed', started.error, blockedByHook(started.error));
    run.hookContext = started.value;
    const planned = await firstPlan(run);
    if (!planned.ok)
      return run.finish(
        ...(run.budgetOutcome() ?? ([run.abort.signal.aborted ? 'cancelled' : 'failed', planned.error.message, planned.error.failure] as const)),
      );
    return run.run();
  })();
  return handleFor(run, done);
}

async function firstPlan(run: MissionRun): Promise<Result<void, { message: string; failure?: NonNullable<MissionReport['failure']> }>> {
  const { options } = run;
  let proposed: unknown = options.plan;
  let author: 'planner' | 'user' = 'user';
  if (proposed === undefined) {
    author = 'planner';
    const request: PlanRequest = {
      task: options.task,
      constraints: options.constraints ?? [],
      workspaceSummary: options.workspaceSummary ?? '',
      ...planningSetup(options, run.hookContext),
    };
    const ctx: RoleContext = {
      missionId: run.missionId,
      stepId: null,
      signal: run.abort.signal,
      record: (body) => run.record(body),
      remainingMs: () => run.budget.remainingWallMs(),
    };
    let outcome: RoleOutcome<Plan>;
    try {
      outcome = await options.planner.plan(request, ctx);
    } catch (error) {
      const message = errorText(error);
      outcome = err({ class: 'tool_error', message, partialSideEffects: { files: [], commands: [] }, recoverable: false, suggestion: '' });
    }
    // A cancel reads as a cancel, not as the model call that it cut short.
    if (run.abort.signal.aborted) return err({ message: 'planning was cancelled' });
    if (!outcome.ok) return err({ message: `planning failed: ${outcome.error.message}`, failure: outcome.error });
    proposed = outcome.value;
  }
  if (run.abort.signal.aborted) return err({ message: 'planning was cancelled' });
  const stamped = typeof proposed === 'object' && proposed !== null ? { ...proposed, version: 1, parentVersion: null } : proposed;
  const checked = validatePlan(stamped, planLimits(options));
  if (!checked.ok) {
    const message = `the plan is not valid: ${checked.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`;
    await run.record({ type: 'log', level: 'error', message });
    return err({
      message,
      failure: {
        class: 'invalid_output',
        message,
        partialSideEffects: { files: [], commands: [] },
        recoverable: true,
        suggestion: 'ask again, or narrow the task',
      },
    });
  }
  run.history.append(checked.plan, author);
  await run.record({ type: 'plan_version', plan: checked.plan, author, diff: null });
  run.direct = isDirect(checked.plan);
  if (run.direct) {
    await run.record({
      type: 'log',
      level: 'info',
      message: `direct mode: ${checked.plan.direct ? 'the planner judged this a short job' : `the plan has ${checked.plan.steps.length} step(s)`}; replanning is off — a failed step ends the mission`,
    });
  }
  void run.save();
  return ok();
}

export function handleFor(run: MissionRun, done: Promise<MissionReport>, earlier: readonly TraceEvent[] = []): MissionHandle {
  const events: TraceEvent[] = [...earlier];
  run.recorder.onEvent((event) => events.push(event));
  let cached: { seq: number; view: MissionView } | null = null;
  return {
    missionId: run.missionId,
    done,
    plan: () => run.history.latest?.plan,
    view: () => {
      const seq = events.length;
      if (!cached || cached.seq !== seq) cached = { seq, view: missionViewFromEvents(events) };
      return cached.view;
    },
    editPlan: async (edit) => {
      const current = run.history.latest?.plan;
      if (!current || !['awaiting_approval', 'running'].includes(run.phase)) {
        return err({ reason: 'invalid_edit', message: `the plan cannot be edited while the mission is ${run.phase}` });
      }
      const locked = new Set([...run.steps].filter(([, s]) => ['running', 'verifying', 'succeeded'].includes(s.status)).map(([id]) => id));
      const out = applyPlanEdit(current, edit, run.history.nextVersion, { ...planLimits(run.options), locked, approved: run.phase === 'running' });
      if (!out.ok) return out;
      const entry = run.history.append(out.value, 'user');
      await run.record({ type: 'plan_version', plan: out.value, author: 'user', diff: entry.diff });
      if (run.phase === 'awaiting_approval') {
        run.approvalAbort?.abort();
      } else {
        for (const id of entry.diff?.removed ?? []) {
          const state = run.steps.get(id);
          if (state) await run.setStatus(id, 'replaced', state.attempt, `dropped by the user in plan v${out.value.version}`);
        }
        run.planChanged();
      }
      void run.save();
      return out;
    },
    correct: async (stepId, text) => {
      if (!['running', 'replanning'].includes(run.phase))
        return err({ reason: 'not_running', message: `corrections apply to a running mission; it is ${run.phase} (edit the plan instead)` });
      if (stepId !== null && !run.plan.steps.some((s) => s.id === stepId))
        return err({ reason: 'unknown_step', message: `there is no step "${stepId}" in plan v${run.plan.version}` });
      await run.record({ type: 'log', level: 'info', message: `user correction${stepId ? ` on ${stepId}` : ''}: ${text}` });
      run.addTrigger({ kind: 'user_correction', stepId, message: text, evidence: `the user said: ${text}` });
      return ok();
    },
    cancel: (reason = 'cancelled by the user') => run.cancel(reason),
    interrupt: (reason) => run.interrupt(reason),
  };
}

function newMissionId(now: number): string {
  return `m-${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
