/**
 * The mission as a front end sees it: a pure projection of trace events into a plain-JSON view model
 * (phase, plan versions with diffs and reasons, per-step status, attempts, results, changed files and
 * verification, pending approvals, cost and tokens, the replan timeline). `applyEvent` is incremental and
 * never mutates its input, so a UI can keep the previous view for diffing; `missionViewFromEvents` folds a
 * whole trace (a live mission, a resumed one, or a replayed file) the same way.
 */
import type { Plan, Step } from '../contracts/plan';
import type { CheckOutcome, Failure, FailureCause, FailureClass, FileChange } from '../contracts/results';
import type { MissionPhase, PlanDiff, StepRunStatus, TraceEvent } from '../contracts/traceEvents';
import { isDirect } from './direct';
import type { InstructionSet } from '../contracts/instructions';
import type { McpCatalogue } from '../contracts/mcp';
import type { CostSummary, PlanEstimate } from '../contracts/estimate';

export interface StepView {
  id: string;
  title: string;
  kind: string;
  required: boolean;
  dependsOn: string[];
  status: StepRunStatus;
  attempt: number;
  /** Why the step is in its status (failure message, "depends on s2, which failed", ...). */
  reason: string | null;
  output: string | null;
  failure: { class: FailureClass; message: string } | null;
  changedFiles: FileChange[];
  commands: { command: string; exitCode: number | null }[];
  verification: { passed: boolean; checks: CheckOutcome[] } | null;
  /** The step as the latest plan that holds it defines it (a step a replan dropped keeps its last definition). */
  definition: Step;
}

export interface PlanVersionView {
  version: number;
  parentVersion: number | null;
  author: 'planner' | 'user' | 'replanner';
  reason: string;
  diff: PlanDiff | null;
  stepCount: number;
  at: string;
  /** The plan of this version (a front end shows what changed field by field). */
  plan: Plan;
}

export interface ReplanView {
  at: string;
  trigger: string;
  stepId: string | null;
  mode: 'step' | 'rest';
  evidence: string;
  fromVersion: number;
  /** null: the proposed version was refused (the evidence says why) or the planner failed. */
  toVersion: number | null;
  invalidated: { stepId: string; reason: string }[];
  /** Why the proposed version was refused, in words for the user (absent: not refused). */
  refusedBecause?: string[];
}

/** A model call waiting before it tries again (rate limit, overload, a cut stream): shown as a countdown. */
export interface WaitView {
  role: 'planner' | 'executor' | 'verifier' | 'replanner';
  stepId: string | null;
  reason: 'rate_limited' | 'overloaded' | 'server_error' | 'connection' | 'stream_cut';
  message: string;
  attempt: number;
  /** When the wait started and when the next attempt is due (ISO). */
  at: string;
  until: string;
}

/** Files restored by one revert, newest step first. */
export interface RevertView {
  at: string;
  stepIds: string[];
  files: { stepId: string; path: string; action: 'restored' | 'deleted' }[];
  overwrote: string[];
}

export interface ApprovalView {
  requestId: string;
  stepId: string | null;
  kind: 'plan' | 'write' | 'command' | 'mcp';
  summary: string;
  actionHash: string;
  at: string;
}

export interface RoleUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface MissionView {
  missionId: string | null;
  task: string;
  phase: MissionPhase;
  phaseReason: string | null;
  direct: boolean;
  plan: Plan | null;
  versions: PlanVersionView[];
  approvedVersion: number | null;
  /** Step ids in the latest plan's order (steps replaced by a replan stay in `steps`, not here). */
  stepOrder: string[];
  steps: Record<string, StepView>;
  pendingApprovals: ApprovalView[];
  usage: { inputTokens: number; outputTokens: number; costUsd: number; byRole: Record<string, RoleUsage> };
  replans: ReplanView[];
  budgets: Record<string, { used: number; limit: number; exceeded: boolean }>;
  /**
   * How the mission ended. `summary` is what is true now: after a revert it no longer claims work that was
   * undone (`recorded` keeps the summary the mission ended with).
   */
  outcome: {
    outcome: 'succeeded' | 'failed' | 'cancelled' | 'budget_exceeded';
    summary: string;
    recorded: string;
    failureClass: FailureClass | null;
    failure: FailureView | null;
  } | null;
  /** Model calls waiting to try again, by `role:stepId` (cleared by the call's next model_call). */
  waits: Record<string, WaitView>;
  reverts: RevertView[];
  /** The project's instruction files the mission read (used and not used), as recorded at its start. */
  instructions: InstructionSet | null;
  /** The MCP servers and tools the mission could grant, as recorded at its start. */
  mcp: McpCatalogue | null;
  /** What the latest estimated plan version is expected to cost (plan_estimate), shown beside Approve. */
  estimate: { version: number; estimate: PlanEstimate } | null;
  /** The estimate beside what was spent, once the mission ended (cost_summary). */
  cost: CostSummary | null;
  lastSeq: number;
}

/** The failure that ended the mission, with what a front end needs to offer the matching action. */
export interface FailureView {
  class: FailureClass;
  message: string;
  cause: FailureCause | null;
  provider: string | null;
  detail: string | null;
}

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
    estimate: null,
    cost: null,
    lastSeq: -1,
  };
}

export function missionViewFromEvents(events: readonly TraceEvent[]): MissionView {
  return events.reduce(applyEvent, emptyMissionView());
}

export function applyEvent(view: MissionView, event: TraceEvent): MissionView {
  const next: MissionView = { ...view, missionId: event.missionId, lastSeq: event.seq };
  switch (event.type) {
    case 'mission_started':
      return { ...next, task: event.task };
    case 'mission_phase':
      return { ...next, phase: event.phase, phaseReason: event.reason ?? null };
    case 'plan_version': {
      const plan = event.plan;
      const steps = { ...view.steps };
      for (const s of plan.steps) {
        const old = steps[s.id];
        steps[s.id] = old
          ? { ...old, title: s.title, kind: s.kind, required: s.required, dependsOn: [...s.dependsOn], definition: s }
          : {
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
              definition: s,
            };
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
      return { ...next, plan, direct: isDirect(plan), versions: [...view.versions, version], stepOrder: plan.steps.map((s) => s.id), steps };
    }
    case 'plan_approved':
      return { ...next, approvedVersion: event.version };
    case 'plan_estimate':
      return { ...next, estimate: { version: event.version, estimate: event.estimate } };
    case 'cost_summary':
      return { ...next, cost: event.summary };
    case 'step_status': {
      const stepped = withStep(next, event.stepId, (s) => ({ ...s, status: event.status, attempt: event.attempt, reason: event.reason ?? null }));
      return event.status === 'running' || event.status === 'verifying' ? stepped : { ...stepped, waits: withoutStep(view.waits, event.stepId) };
    }
    case 'step_result': {
      const r = event.result;
      return withStep(next, r.stepId, (s) => ({
        ...s,
        output: r.output,
        failure: r.failure ? { class: r.failure.class, message: r.failure.message } : null,
        // The step's net effect over all its attempts, including what a failed attempt left behind.
        changedFiles: mergeFileChanges(s.changedFiles, [...r.sideEffects.files, ...(r.failure?.partialSideEffects.files ?? [])]),
        commands: r.sideEffects.commands.map((c) => ({ command: c.command, exitCode: c.exitCode })),
        verification: null,
      }));
    }
    case 'verification':
      return withStep(next, event.verification.stepId, (s) => ({
        ...s,
        verification: { passed: event.verification.passed, checks: event.verification.checks },
      }));
    case 'approval_requested':
      return {
        ...next,
        pendingApprovals: [
          ...view.pendingApprovals,
          { requestId: event.requestId, stepId: event.stepId, kind: event.kind, summary: event.summary, actionHash: event.actionHash, at: event.at },
        ],
      };
    case 'approval_decided':
      return { ...next, pendingApprovals: view.pendingApprovals.filter((a) => a.requestId !== event.requestId) };
    case 'model_call': {
      const { [waitKey(event.role, event.stepId)]: _done, ...waits } = view.waits;
      next.waits = waits;
      const role = view.usage.byRole[event.role] ?? { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
      const input = event.usage.inputTokens + event.usage.cacheReadTokens + event.usage.cacheWriteTokens;
      return {
        ...next,
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
    case 'replan': {
      const replan: ReplanView = {
        at: event.at,
        trigger: event.trigger,
        stepId: event.stepId,
        mode: event.mode,
        evidence: event.evidence,
        fromVersion: event.fromVersion,
        toVersion: event.toVersion,
        invalidated: event.invalidated,
      };
      if (event.refusedBecause) replan.refusedBecause = event.refusedBecause;
      return { ...next, replans: [...view.replans, replan] };
    }
    case 'model_wait': {
      const until = new Date(Date.parse(event.at) + event.waitMs).toISOString();
      const wait: WaitView = {
        role: event.role,
        stepId: event.stepId,
        reason: event.reason,
        message: event.message,
        attempt: event.attempt,
        at: event.at,
        until,
      };
      return { ...next, waits: { ...view.waits, [waitKey(event.role, event.stepId)]: wait } };
    }
    case 'revert': {
      const reverts = [...view.reverts, { at: event.at, stepIds: event.stepIds, files: event.files, overwrote: event.overwrote }];
      if (!view.outcome) return { ...next, reverts };
      const steps = Object.values(view.steps).map((s) => ({
        id: s.id,
        required: s.required,
        changed: s.changedFiles.length > 0,
        reverted: s.status === 'reverted' || event.stepIds.includes(s.id),
      }));
      return { ...next, reverts, outcome: { ...view.outcome, summary: undoneSummary(view.outcome.recorded, steps) } };
    }
    case 'mission_continued':
      // The mission goes on: it has no outcome until it finishes again.
      return { ...next, outcome: null };
    case 'budget':
      return { ...next, budgets: { ...view.budgets, [event.kind]: { used: event.used, limit: event.limit, exceeded: event.exceeded } } };
    case 'mission_finished':
      return {
        ...next,
        outcome: {
          outcome: event.outcome,
          summary: event.summary,
          recorded: event.summary,
          failureClass: event.failure?.class ?? null,
          failure: failureView(event.failure),
        },
        pendingApprovals: [],
        waits: {},
      };
    case 'instructions':
      return { ...next, instructions: event.set };
    case 'mcp_catalogue':
      return { ...next, mcp: event.catalogue };
    case 'mcp_call':
    case 'handoff':
    case 'tool_call':
    case 'policy_denied':
    case 'command_sandbox':
    case 'log':
      return next;
  }
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
