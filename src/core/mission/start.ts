/**
 * The engine's public entry points, used by both front ends:
 *  - `startMission(options)` → a MissionHandle: the report promise plus the controls a UI needs while the
 *    mission runs (see the plan and its view, edit the plan — each edit a new version — send a correction,
 *    cancel). Plan approval goes through `options.approver` with `kind: 'plan'` (see planApproval.ts).
 *  - `runMission(options)` → the report, for callers that need no controls (the CLI).
 *  - `resumeMission(options)` → continue an interrupted mission from the store: finished steps never
 *    re-run; interrupted ones only if `consent` says so.
 */
import type { Plan } from '../contracts/plan';
import type { PlanRequest, RoleContext, RoleOutcome } from '../ports';
import { validatePlan } from '../plan/validate';
import { applyPlanEdit, type PlanEditInput, type PlanEditOutcome } from '../plan/edits';
import { PlanHistory } from '../plan/history';
import { ToolCallStore } from '../handoff/toolCallStore';
import { validateEvents } from '../trace/jsonl';
import type { TraceEvent } from '../contracts/traceEvents';
import { MissionRun } from './engine';
import { isDirect } from './direct';
import { MissionStateSchema, catchUp, type StepState } from './state';
import type { MissionOptions, MissionReport } from './options';
import { missionViewFromEvents, type MissionView } from './view';

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
}

export type ControlOutcome = { ok: true } | { ok: false; reason: 'not_running' | 'unknown_step'; message: string };

export function runMission(options: MissionOptions): Promise<MissionReport> {
  return startMission(options).done;
}

export function startMission(options: MissionOptions): MissionHandle {
  const missionId = options.missionId ?? newMissionId(options.clock.now());
  const run = new MissionRun(options, { missionId, history: new PlanHistory(), approvedVersion: null, steps: new Map(), toolCalls: new ToolCallStore(), nextSeq: 0 });
  const done = (async (): Promise<MissionReport> => {
    await run.record({
      type: 'mission_started', task: options.task, workspaceRoot: options.workspace.root,
      settings: { approve: options.approve ?? 'ask', maxParallel: options.maxParallel ?? 2, retriesPerStep: options.retriesPerStep ?? 1, maxPlanSteps: options.maxPlanSteps ?? null, budgets: options.budgets ?? {}, ...(options.models ? { models: options.models } : {}) },
    });
    await run.setPhase('planning');
    const planned = await firstPlan(run);
    if (!planned.ok) return run.finish(...(run.budgetOutcome() ?? [run.abort.signal.aborted ? 'cancelled' : 'failed', planned.message, planned.failure] as const));
    return run.run();
  })();
  return handleFor(run, done);
}

async function firstPlan(run: MissionRun): Promise<{ ok: true } | { ok: false; message: string; failure?: NonNullable<MissionReport['failure']> }> {
  const { options } = run;
  let proposed: unknown = options.plan;
  let author: 'planner' | 'user' = 'user';
  if (proposed === undefined) {
    author = 'planner';
    const request: PlanRequest = { task: options.task, constraints: options.constraints ?? [], workspaceSummary: options.workspaceSummary ?? '' };
    const ctx: RoleContext = { missionId: run.missionId, stepId: null, signal: run.abort.signal, record: (body) => run.record(body), remainingMs: () => run.budget.remainingWallMs() };
    let outcome: RoleOutcome<Plan>;
    try {
      outcome = await options.planner.plan(request, ctx);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      outcome = { ok: false, failure: { class: 'tool_error', message, partialSideEffects: { files: [], commands: [] }, recoverable: false, suggestion: '' } };
    }
    if (!outcome.ok) return { ok: false, message: `planning failed: ${outcome.failure.message}`, failure: outcome.failure };
    proposed = outcome.value;
  }
  if (run.abort.signal.aborted) return { ok: false, message: 'cancelled during planning' };
  const stamped = typeof proposed === 'object' && proposed !== null ? { ...proposed, version: 1, parentVersion: null } : proposed;
  const checked = validatePlan(stamped, { maxSteps: options.maxPlanSteps, verifierCommands: options.verifierCommands });
  if (!checked.ok) {
    const message = `the plan is not valid: ${checked.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`;
    await run.record({ type: 'log', level: 'error', message });
    return { ok: false, message, failure: { class: 'invalid_output', message, partialSideEffects: { files: [], commands: [] }, recoverable: true, suggestion: 'ask again, or narrow the task' } };
  }
  run.history.append(checked.plan, author);
  await run.record({ type: 'plan_version', plan: checked.plan, author, diff: null });
  run.direct = isDirect(checked.plan);
  if (run.direct) {
    await run.record({ type: 'log', level: 'info', message: `direct mode: ${checked.plan.direct ? 'the planner judged this a short job' : `the plan has ${checked.plan.steps.length} step(s)`}; replanning is off — a failed step ends the mission` });
  }
  void run.save();
  return { ok: true };
}

function handleFor(run: MissionRun, done: Promise<MissionReport>, earlier: readonly TraceEvent[] = []): MissionHandle {
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
        return { ok: false, reason: 'invalid_edit', message: `the plan cannot be edited while the mission is ${run.phase}` };
      }
      const locked = new Set([...run.steps].filter(([, s]) => ['running', 'verifying', 'succeeded'].includes(s.status)).map(([id]) => id));
      const out = applyPlanEdit(current, edit, run.history.nextVersion, { maxSteps: run.options.maxPlanSteps, verifierCommands: run.options.verifierCommands, locked });
      if (!out.ok) return out;
      const entry = run.history.append(out.plan, 'user');
      await run.record({ type: 'plan_version', plan: out.plan, author: 'user', diff: entry.diff });
      if (run.phase === 'awaiting_approval') {
        run.approvalAbort?.abort();
      } else {
        for (const id of entry.diff?.removed ?? []) {
          const state = run.steps.get(id);
          if (state) await run.setStatus(id, 'replaced', state.attempt, `dropped by the user in plan v${out.plan.version}`);
        }
        run.planChanged();
      }
      void run.save();
      return out;
    },
    correct: async (stepId, text) => {
      if (!['running', 'replanning'].includes(run.phase)) return { ok: false, reason: 'not_running', message: `corrections apply to a running mission; it is ${run.phase} (edit the plan instead)` };
      if (stepId !== null && !run.plan.steps.some((s) => s.id === stepId)) return { ok: false, reason: 'unknown_step', message: `there is no step "${stepId}" in plan v${run.plan.version}` };
      await run.record({ type: 'log', level: 'info', message: `user correction${stepId ? ` on ${stepId}` : ''}: ${text}` });
      run.addTrigger({ kind: 'user_correction', stepId, message: text, evidence: `the user said: ${text}` });
      return { ok: true };
    },
    cancel: (reason = 'cancelled by the user') => run.cancel(reason),
  };
}

export interface ResumeOptions extends Omit<MissionOptions, 'task' | 'plan' | 'missionId'> {
  missionId: string;
  /** Asked once with the steps that were running when the mission stopped; true re-runs them. */
  consent(interrupted: string[]): Promise<boolean>;
}

export type ResumeOutcome = { ok: true; handle: MissionHandle } | { ok: false; reason: 'no_state' | 'invalid_state' | 'finished'; message: string };

export async function resumeMission(options: ResumeOptions): Promise<ResumeOutcome> {
  const raw = await options.store.loadState(options.missionId);
  if (raw === undefined) return { ok: false, reason: 'no_state', message: `no saved state for mission ${options.missionId}` };
  const parsed = MissionStateSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: 'invalid_state', message: `the saved state is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
  const rawEvents = await options.store.readEvents(options.missionId);
  const { events } = validateEvents(rawEvents);
  const state = catchUp(parsed.data, events);
  if (state.finished) return { ok: false, reason: 'finished', message: `mission ${state.missionId} already finished (${state.phase})` };
  if (state.versions.length === 0) return { ok: false, reason: 'invalid_state', message: 'the mission stopped before it had a plan; start it again' };

  const toolCalls = new ToolCallStore(events.flatMap((e) => (e.type === 'tool_call' ? [e.record] : [])));
  const nextSeq = Math.max(rawEvents.length, ...events.map((e) => e.seq + 1));
  const steps = new Map<string, StepState>(Object.entries(state.steps));
  const interrupted = [...steps].filter(([, s]) => ['running', 'verifying', 'interrupted'].includes(s.status)).map(([id]) => id);
  const history = PlanHistory.from(state.versions);
  const run = new MissionRun(
    { ...options, task: state.task, constraints: state.constraints, workspaceSummary: state.workspaceSummary, missionId: state.missionId },
    { missionId: state.missionId, history, approvedVersion: state.approvedVersion, steps, toolCalls, nextSeq, usage: state.usage, direct: state.direct },
  );
  const done = (async (): Promise<MissionReport> => {
    await run.record({ type: 'log', level: 'info', message: `resuming mission at plan v${run.plan.version}; interrupted steps: ${interrupted.join(', ') || 'none'}` });
    const rerun = interrupted.length === 0 ? true : await options.consent(interrupted);
    const inPlan = new Set(run.plan.steps.map((s) => s.id));
    for (const [id, s] of steps) {
      if (!inPlan.has(id) || s.status === 'succeeded') continue;
      if (interrupted.includes(id)) {
        await run.setStatus(id, rerun ? 'pending' : 'skipped', s.attempt, rerun ? 're-run after resume (the user agreed)' : 'interrupted; the user chose not to re-run it');
      } else if (s.status !== 'pending') {
        await run.setStatus(id, 'pending', s.attempt, 're-opened on resume');
      }
    }
    return run.run();
  })();
  return { ok: true, handle: handleFor(run, done, events) };
}

function newMissionId(now: number): string {
  return `m-${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
