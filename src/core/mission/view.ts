/**
 * The mission as a front end sees it: a pure projection of trace events into the plain-JSON view model
 * declared in contracts/missionView.ts (phase, plan versions with diffs and reasons, per-step status,
 * attempts, results, changed files and verification, pending approvals, cost and tokens, the replan
 * timeline). `applyEvent` is incremental, one handler per event type, and never mutates its input, so a UI
 * can keep the previous view for diffing; `missionViewFromEvents` folds a whole trace (a live mission, a
 * resumed one, or a replayed file) the same way.
 */
import type { Step } from '../contracts/plan';
import type { Failure, FileChange } from '../contracts/results';
import type { TraceEvent } from '../contracts/traceEvents';
import {
  HOOK_RUNS_KEPT,
  type FailureView,
  type HookRunView,
  type MissionView,
  type PlanVersionView,
  type ReplanView,
  type StepView,
  type WaitView,
} from '../contracts/missionView';
import { isDirect } from './direct';

export function waitKey(role: string, stepId: string | null): string {
  return `${role}:${stepId ?? ''}`;
}

export function emptyMissionView(): MissionView {
  return {
    missionId: null,
    task: '',
    phase: 'planning',
    phaseReason: null,
    direct: false,
    plan: null,
    versions: [],
    approvedVersion: null,
    stepOrder: [],
    steps: {},
    pendingApprovals: [],
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0, byRole: {} },
    replans: [],
    budgets: {},
    outcome: null,
    waits: {},
    reverts: [],
    instructions: null,
    mcp: null,
    hooks: { set: null, runs: [] },
    estimate: null,
    cost: null,
    lastSeq: -1,
  };
}

export function missionViewFromEvents(events: readonly TraceEvent[]): MissionView {
  return events.reduce(applyEvent, emptyMissionView());
}

type EventOf<K extends TraceEvent['type']> = Extract<TraceEvent, { type: K }>;

/**
 * How one event type changes the view: `view` already carries the event's mission id and sequence number.
 * One handler per event type (the map's type makes a new event type a compile error until it has one).
 */
type Handlers = { [K in TraceEvent['type']]: (view: MissionView, event: EventOf<K>) => MissionView };

const unchanged = (view: MissionView): MissionView => view;

const HANDLERS: Handlers = {
  mission_started: (view, e) => ({ ...view, task: e.task }),
  mission_phase: (view, e) => ({ ...view, phase: e.phase, phaseReason: e.reason ?? null }),
  plan_version: withPlanVersion,
  plan_approved: (view, e) => ({ ...view, approvedVersion: e.version }),
  plan_estimate: (view, e) => ({ ...view, estimate: { version: e.version, estimate: e.estimate } }),
  cost_summary: (view, e) => ({ ...view, cost: e.summary }),
  step_status: (view, e) => {
    const stepped = withStep(view, e.stepId, (s) => ({ ...s, status: e.status, attempt: e.attempt, reason: e.reason ?? null }));
    return e.status === 'running' || e.status === 'verifying' ? stepped : { ...stepped, waits: withoutStep(view.waits, e.stepId) };
  },
  step_result: withStepResult,
  verification: (view, e) =>
    withStep(view, e.verification.stepId, (s) => ({ ...s, verification: { passed: e.verification.passed, checks: e.verification.checks } })),
  approval_requested: (view, e) => ({
    ...view,
    pendingApprovals: [
      ...view.pendingApprovals,
      { requestId: e.requestId, stepId: e.stepId, kind: e.kind, summary: e.summary, actionHash: e.actionHash, at: e.at },
    ],
  }),
  approval_decided: (view, e) => ({ ...view, pendingApprovals: view.pendingApprovals.filter((a) => a.requestId !== e.requestId) }),
  model_call: withModelCall,
  replan: (view, e) => {
    const replan: ReplanView = {
      at: e.at,
      trigger: e.trigger,
      stepId: e.stepId,
      mode: e.mode,
      evidence: e.evidence,
      fromVersion: e.fromVersion,
      toVersion: e.toVersion,
      invalidated: e.invalidated,
    };
    if (e.refusedBecause) replan.refusedBecause = e.refusedBecause;
    return { ...view, replans: [...view.replans, replan] };
  },
  model_wait: (view, e) => {
    const until = new Date(Date.parse(e.at) + e.waitMs).toISOString();
    const wait: WaitView = { role: e.role, stepId: e.stepId, reason: e.reason, message: e.message, attempt: e.attempt, at: e.at, until };
    return { ...view, waits: { ...view.waits, [waitKey(e.role, e.stepId)]: wait } };
  },
  revert: withRevert,
  // The mission goes on: it has no outcome until it finishes again.
  mission_continued: (view) => ({ ...view, outcome: null }),
  budget: (view, e) => ({ ...view, budgets: { ...view.budgets, [e.kind]: { used: e.used, limit: e.limit, exceeded: e.exceeded } } }),
  mission_finished: (view, e) => ({
    ...view,
    outcome: {
      outcome: e.outcome,
      summary: e.summary,
      recorded: e.summary,
      failureClass: e.failure?.class ?? null,
      failure: failureView(e.failure),
    },
    pendingApprovals: [],
    waits: {},
  }),
  instructions: (view, e) => ({ ...view, instructions: e.set }),
  mcp_catalogue: (view, e) => ({ ...view, mcp: e.catalogue }),
  hooks: (view, e) => ({ ...view, hooks: { ...view.hooks, set: e.set } }),
  hook_run: withHookRun,
  tracked_secrets: unchanged,
  mcp_call: unchanged,
  handoff: unchanged,
  tool_call: unchanged,
  policy_denied: unchanged,
  command_sandbox: unchanged,
  log: unchanged,
};

export function applyEvent(view: MissionView, event: TraceEvent): MissionView {
  // The map pairs each type with its handler; TypeScript cannot follow that pairing through an index.
  const handle = HANDLERS[event.type] as (v: MissionView, e: TraceEvent) => MissionView;
  return handle({ ...view, missionId: event.missionId, lastSeq: event.seq }, event);
}

/** A hook run: on its step's view, or (before any step) on the mission's. */
function withHookRun(view: MissionView, e: EventOf<'hook_run'>): MissionView {
  const { stepId, ...run } = e.run;
  const shown: HookRunView = { ...run, at: e.at };
  if (stepId === null) return { ...view, hooks: { ...view.hooks, runs: [...view.hooks.runs, shown] } };
  return withStep(view, stepId, (s) => ({ ...s, hooks: [...s.hooks, shown].slice(-HOOK_RUNS_KEPT) }));
}

function newStepView(s: Step): StepView {
  return {
    id: s.id,
    title: s.title,
    kind: s.kind,
    required: s.required,
    dependsOn: [...s.dependsOn],
    status: 'pending',
    attempt: 0,
    reason: null,
    output: null,
    failure: null,
    changedFiles: [],
    commands: [],
    verification: null,
    hooks: [],
    definition: s,
  };
}

function withPlanVersion(view: MissionView, event: EventOf<'plan_version'>): MissionView {
  const plan = event.plan;
  const steps = { ...view.steps };
  for (const s of plan.steps) {
    const old = steps[s.id];
    steps[s.id] = old ? { ...old, title: s.title, kind: s.kind, required: s.required, dependsOn: [...s.dependsOn], definition: s } : newStepView(s);
  }
  const version: PlanVersionView = {
    version: plan.version,
    parentVersion: plan.parentVersion,
    author: event.author,
    reason: plan.reason,
    diff: event.diff,
    stepCount: plan.steps.length,
    at: event.at,
    plan,
  };
  return { ...view, plan, direct: isDirect(plan), versions: [...view.versions, version], stepOrder: plan.steps.map((s) => s.id), steps };
}

function withStepResult(view: MissionView, event: EventOf<'step_result'>): MissionView {
  const r = event.result;
  return withStep(view, r.stepId, (s) => ({
    ...s,
    output: r.output,
    failure: r.failure ? { class: r.failure.class, message: r.failure.message } : null,
    // The step's net effect over all its attempts, including what a failed attempt left behind.
    changedFiles: mergeFileChanges(s.changedFiles, [...r.sideEffects.files, ...(r.failure?.partialSideEffects.files ?? [])]),
    commands: r.sideEffects.commands.map((c) => ({ command: c.command, exitCode: c.exitCode })),
    verification: null,
  }));
}

function withModelCall(view: MissionView, event: EventOf<'model_call'>): MissionView {
  // The call's next attempt ran: its wait is over.
  const { [waitKey(event.role, event.stepId)]: _done, ...waits } = view.waits;
  const role = view.usage.byRole[event.role] ?? { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const input = event.usage.inputTokens + event.usage.cacheReadTokens + event.usage.cacheWriteTokens;
  return {
    ...view,
    waits,
    usage: {
      inputTokens: view.usage.inputTokens + input,
      outputTokens: view.usage.outputTokens + event.usage.outputTokens,
      costUsd: view.usage.costUsd + event.costUsd,
      byRole: {
        ...view.usage.byRole,
        [event.role]: {
          calls: role.calls + 1,
          inputTokens: role.inputTokens + input,
          outputTokens: role.outputTokens + event.usage.outputTokens,
          costUsd: role.costUsd + event.costUsd,
        },
      },
    },
  };
}

function withRevert(view: MissionView, event: EventOf<'revert'>): MissionView {
  const reverts = [...view.reverts, { at: event.at, stepIds: event.stepIds, files: event.files, overwrote: event.overwrote }];
  if (!view.outcome) return { ...view, reverts };
  const steps = Object.values(view.steps).map((s) => ({
    id: s.id,
    required: s.required,
    changed: s.changedFiles.length > 0,
    reverted: s.status === 'reverted' || event.stepIds.includes(s.id),
  }));
  return { ...view, reverts, outcome: { ...view.outcome, summary: undoneSummary(view.outcome.recorded, steps) } };
}

/**
 * The mission's summary once steps were reverted: it never goes on claiming verified work that was undone.
 * `steps`: every step of the mission, whether it changed files and whether it is reverted now.
 */
export function undoneSummary(recorded: string, steps: readonly { id: string; required: boolean; changed: boolean; reverted: boolean }[]): string {
  const reverted = steps.filter((s) => s.reverted).map((s) => s.id);
  if (reverted.length === 0) return recorded;
  const list = reverted.join(', ');
  if (steps.every((s) => !s.changed || s.reverted)) return `every change of this mission was reverted (${list}): the workspace is as it was before the mission`;
  const required = steps.filter((s) => s.reverted && s.required).map((s) => s.id);
  if (required.length > 0)
    return `reverted ${list}: the work of required step${required.length > 1 ? 's' : ''} ${required.join(', ')} is undone, so the mission's result no longer holds`;
  return `${recorded}; reverted ${list}`;
}

function failureView(f: Failure | undefined): FailureView | null {
  if (!f) return null;
  return { class: f.class, message: f.message, cause: f.cause ?? null, provider: f.provider ?? null, detail: f.detail ?? null };
}

function withoutStep(waits: Record<string, WaitView>, stepId: string): Record<string, WaitView> {
  return Object.fromEntries(Object.entries(waits).filter(([, w]) => w.stepId !== stepId));
}

/** Per path: the earliest `before`, the latest `after`; the change kind follows from the two. */
export function mergeFileChanges(existing: readonly FileChange[], added: readonly FileChange[]): FileChange[] {
  const byPath = new Map(existing.map((f) => [f.path, f]));
  for (const f of added) {
    const first = byPath.get(f.path);
    const beforeHash = first ? first.beforeHash : f.beforeHash;
    const change: FileChange['change'] = f.afterHash === null ? 'deleted' : beforeHash === null ? 'created' : 'modified';
    byPath.set(f.path, { ...f, beforeHash, change });
  }
  return [...byPath.values()];
}

function withStep(view: MissionView, stepId: string, change: (s: StepView) => StepView): MissionView {
  const current = view.steps[stepId];
  if (!current) return view;
  return { ...view, steps: { ...view.steps, [stepId]: change(current) } };
}
