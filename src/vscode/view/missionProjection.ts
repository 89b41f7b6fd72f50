/**
 * Folds a mission's trace events into the sidebar's MissionView. Pure (no vscode), so it runs the same
 * on live events and on a trace read back from the store after a window reload.
 *
 * Direction: trace → view only. The view never feeds back into the engine.
 */
import { describeCheck } from '../../core/plan/describe';
import type { Plan, Step } from '../../core/contracts/plan';
import type { TraceEvent } from '../../core/contracts/traceEvents';
import { undoneSummary } from '../../core/mission/view';
import { describeTrigger, isTriggerKind } from '../../core/mission/triggerWords';
import type { ChangedFileView, MissionView, StepView } from '../../webview/protocol';

const TERMINAL_PHASES = new Set(['succeeded', 'failed', 'cancelled']);
const ACTIVE_STATUSES = new Set(['running', 'verifying']);

function stepView(step: Step, previous: StepView | undefined): StepView {
  const evidence = step.evidence.checks.map(describeCheck);
  if (step.evidence.description) evidence.unshift(step.evidence.description);
  return {
    id: step.id,
    title: step.title,
    why: step.why,
    required: step.required,
    dependsOn: step.dependsOn,
    kind: step.kind,
    instructions: step.instructions,
    authority: step.authority,
    binding: step.binding,
    evidence,
    risk: step.risk,
    effort: step.effort,
    status: previous?.status ?? 'pending',
    attempt: previous?.attempt ?? 0,
    statusReason: previous?.statusReason,
    output: previous?.output,
    files: previous?.files ?? [],
  };
}

/** An empty view for a mission whose first event is `mission_started`. */
export function emptyMissionView(missionId: string, task: string): MissionView {
  return {
    missionId,
    task,
    phase: 'planning',
    goal: '',
    assumptions: [],
    constraints: [],
    planVersion: null,
    steps: [],
    versions: [],
    costUsd: 0,
    outcome: null,
    summary: null,
    live: true,
    failure: null,
    actions: [],
    replans: [],
    waits: [],
  };
}

function applyPlan(view: MissionView, plan: Plan): void {
  const previous = new Map(view.steps.map((s) => [s.id, s]));
  const next = plan.steps.map((s) => stepView(s, previous.get(s.id)));
  const kept = new Set(next.map((s) => s.id));
  // Steps a new version dropped stay visible (finished work is never hidden), marked replaced.
  const dropped = view.steps
    .filter((s) => !kept.has(s.id))
    .map((s): StepView => (s.status === 'succeeded' ? s : { ...s, status: 'replaced', statusReason: `not in plan v${plan.version}` }));
  // A dropped step that ran stays where it was, right after the step that preceded it before.
  const oldOrder = view.steps.map((s) => s.id);
  const result = [...next];
  for (const d of dropped.filter((s) => s.status === 'succeeded' || s.attempt > 0)) {
    let insertAt = 0;
    for (let k = oldOrder.indexOf(d.id) - 1; k >= 0; k--) {
      const j = result.findIndex((s) => s.id === oldOrder[k]);
      if (j >= 0) {
        insertAt = j + 1;
        break;
      }
    }
    result.splice(insertAt, 0, d);
  }
  view.steps = result;
  view.goal = plan.goal;
  view.assumptions = plan.assumptions;
  view.constraints = plan.constraints;
  view.planVersion = plan.version;
}

function mergeFiles(existing: ChangedFileView[], added: ChangedFileView[]): ChangedFileView[] {
  const byPath = new Map(existing.map((f) => [f.path, f]));
  for (const f of added) {
    const before = byPath.get(f.path);
    // Keep the earliest "before" so the step's diff spans its whole effect.
    byPath.set(f.path, before ? { ...f, beforeHash: before.beforeHash, change: before.change === 'created' && f.change !== 'deleted' ? 'created' : f.change } : f);
  }
  return [...byPath.values()];
}

/** Applies one event to the view in place; returns the id of a step whose status alone changed, if so. */
export function applyEventToView(view: MissionView, event: TraceEvent): { structural: boolean; stepId?: string } {
  switch (event.type) {
    case 'mission_started':
      view.task = event.task;
      return { structural: true };
    case 'plan_version':
      applyPlan(view, event.plan);
      view.versions.push({
        version: event.plan.version,
        parentVersion: event.plan.parentVersion,
        author: event.author,
        reason: event.plan.reason,
        diff: event.diff,
        at: event.at,
      });
      return { structural: true };
    case 'step_status': {
      const step = view.steps.find((s) => s.id === event.stepId);
      if (!step) return { structural: false };
      if (event.status !== 'running' && event.status !== 'verifying' && view.waits.some((w) => w.stepId === event.stepId)) {
        view.waits = view.waits.filter((w) => w.stepId !== event.stepId);
        step.status = event.status;
        step.attempt = event.attempt;
        step.statusReason = event.reason;
        return { structural: true };
      }
      step.status = event.status;
      step.attempt = event.attempt;
      step.statusReason = event.reason;
      return { structural: false, stepId: step.id };
    }
    case 'step_result': {
      const step = view.steps.find((s) => s.id === event.result.stepId);
      if (!step) return { structural: false };
      step.output = event.result.output;
      const files = [...event.result.sideEffects.files, ...(event.result.failure?.partialSideEffects.files ?? [])];
      step.files = mergeFiles(step.files, files);
      if (event.result.failure) step.statusReason = event.result.failure.message;
      return { structural: true };
    }
    case 'model_call':
      view.costUsd += event.costUsd;
      view.waits = view.waits.filter((w) => !(w.role === event.role && w.stepId === event.stepId));
      return { structural: true };
    case 'model_wait': {
      const until = new Date(Date.parse(event.at) + event.waitMs).toISOString();
      view.waits = [...view.waits.filter((w) => !(w.role === event.role && w.stepId === event.stepId)), { role: event.role, stepId: event.stepId, reason: event.reason, until, message: event.message }];
      return { structural: true };
    }
    case 'replan':
      view.replans.push({
        at: event.at,
        trigger: isTriggerKind(event.trigger) ? describeTrigger({ kind: event.trigger, stepId: event.stepId }) : event.trigger,
        stepId: event.stepId,
        fromVersion: event.fromVersion,
        toVersion: event.toVersion,
        refusedBecause: event.refusedBecause ?? [],
      });
      return { structural: true };
    case 'mission_phase':
      view.phase = event.phase;
      return { structural: true };
    case 'mission_finished':
      view.outcome = event.outcome;
      view.summary = event.summary;
      view.waits = [];
      recordedSummary.set(view, event.summary);
      view.failure = event.failure ? { message: event.failure.message, cause: event.failure.cause ?? null, provider: event.failure.provider ?? null, detail: event.failure.detail ?? null } : null;
      if (!TERMINAL_PHASES.has(view.phase)) view.phase = event.outcome === 'succeeded' ? 'succeeded' : event.outcome === 'cancelled' ? 'cancelled' : 'failed';
      return { structural: true };
    case 'revert': {
      const recorded = recordedSummary.get(view);
      if (recorded === undefined) return { structural: true };
      const steps = view.steps.map((s) => ({ id: s.id, required: s.required, changed: s.files.length > 0, reverted: s.status === 'reverted' || event.stepIds.includes(s.id) }));
      view.summary = undoneSummary(recorded, steps);
      return { structural: true };
    }
    case 'mission_continued':
      // A Retry or Continue goes on in the same trace: no outcome until the mission ends again.
      view.outcome = null;
      view.summary = null;
      view.failure = null;
      return { structural: true };
    default:
      return { structural: false };
  }
}

/** The summary each mission ended with (the view shows what is true now, e.g. after a revert). */
const recordedSummary = new WeakMap<MissionView, string>();

/**
 * The view of a mission read back from the store. A mission that never finished was cut off (window
 * reload, crash): its active steps are shown as interrupted and the mission as resumable.
 */
export function missionViewFromTrace(missionId: string, events: TraceEvent[]): MissionView {
  const view = emptyMissionView(missionId, '');
  for (const event of events) applyEventToView(view, event);
  view.live = false;
  if (!TERMINAL_PHASES.has(view.phase) && view.outcome === null) {
    for (const step of view.steps) {
      if (ACTIVE_STATUSES.has(step.status)) {
        step.status = 'interrupted';
        step.statusReason = 'the window closed while this step ran';
      }
    }
    if (view.phase === 'running' || view.phase === 'replanning' || view.phase === 'planning') view.phase = 'interrupted';
  }
  return view;
}

export function stepCounts(view: MissionView): { done: number; total: number } {
  const counted = view.steps.filter((s) => s.status !== 'replaced' && s.status !== 'skipped');
  return { done: counted.filter((s) => s.status === 'succeeded').length, total: counted.length };
}
