/**
 * The surfaces' MissionView, derived from core's projection (src/core/mission/view.ts): that fold of the
 * trace is the only one; this file only shapes it for the webviews — step details from the plan, evidence
 * in words, field-by-field changes per plan version, replans in words, and the front end's own facts
 * (`live`, and a mission cut off by a reload shown as interrupted). Pure (no vscode).
 *
 * Direction: core view → UI view only. Nothing here feeds back into the engine.
 */
import { describeCheck, describeCost, describeCostSummary } from '../../core/plan/describe';
import type { Plan, Step } from '../../core/contracts/plan';
import type { FailureView, MissionView as CoreView, PlanVersionView as CoreVersion, ReplanView, StepView as CoreStep } from '../../core/contracts/missionView';
import type { FieldChangeView, MissionView, PlanVersionView, ReplanUiView, StepView, WaitView as WaitUiView } from '../../webview/protocol';
import { FAILURE_RESHAPED, MISSION_RESHAPED, REPLAN_RESHAPED, STEP_RESHAPED, VERSION_RESHAPED, WAIT_RESHAPED } from '../../webview/protocol';
import { missionActions } from './missionActions';
import { describeTrigger } from '../../core/mission/triggerWords';
import { instructionsView } from '../setup/instructionsView';

const TERMINAL_PHASES = new Set(['succeeded', 'failed', 'cancelled']);
const ACTIVE_STATUSES = new Set(['running', 'verifying']);
/** Longest text kept per side of a field change (the details pane shows the full current text). */
const CHANGE_CLIP = 2_000;

export interface UiMissionOptions {
  /** True while this window runs the mission; false for one read back from the store. */
  live: boolean;
}

function evidenceLines(step: Step): string[] {
  const lines = step.evidence.checks.map(describeCheck);
  if (step.evidence.description) lines.unshift(step.evidence.description);
  return lines;
}

/**
 * A core record without the fields its mask in protocol.ts names: what passes to the webview as it is (a
 * field the core's view gains included). The caller adds the reshaped fields.
 */
function passedOn<T extends object, K extends keyof T>(record: T, reshaped: Readonly<Record<K, true>>): Omit<T, K> {
  const out: Partial<T> = { ...record };
  for (const key of Object.keys(reshaped) as K[]) delete out[key];
  return out as Omit<T, K>;
}

function stepView(core: CoreStep, inPlan: boolean): StepView {
  const { reason, output, failure, changedFiles, verification, definition: d } = core;
  const statusReason = failure?.message ?? reason;
  const passed = passedOn(core, STEP_RESHAPED);
  return {
    ...passed,
    dependsOn: [...passed.dependsOn],
    why: d.why,
    instructions: d.instructions,
    authority: d.authority,
    binding: d.binding,
    evidence: evidenceLines(d),
    risk: d.risk,
    effort: d.effort,
    ...(statusReason ? { statusReason } : {}),
    ...(output !== null ? { output } : {}),
    files: changedFiles.map((f) => ({ ...f })),
    inPlan,
    verification: verification
      ? { passed: verification.passed, checks: verification.checks.map((c) => ({ check: c.check, passed: c.passed, detail: c.detail })) }
      : null,
  };
}

/** The last version whose plan holds `stepId`, and that plan's step order. */
function lastPlanWith(versions: readonly CoreVersion[], stepId: string): Plan | undefined {
  for (let i = versions.length - 1; i >= 0; i--) {
    const plan = versions[i]!.plan;
    if (plan.steps.some((s) => s.id === stepId)) return plan;
  }
  return undefined;
}

/**
 * The latest plan's steps in its order, plus the steps a replan dropped after they ran: those stay where
 * they were (right after the step that preceded them), marked replaced unless they succeeded.
 */
function orderedSteps(core: CoreView): StepView[] {
  const result = core.stepOrder.flatMap((id) => (core.steps[id] ? [stepView(core.steps[id], true)] : []));
  const current = new Set(core.stepOrder);
  for (const s of Object.values(core.steps)) {
    if (current.has(s.id) || (s.status !== 'succeeded' && s.attempt === 0)) continue;
    const view = stepView(s, false);
    const lastPlan = lastPlanWith(core.versions, s.id);
    if (s.status !== 'succeeded') {
      const droppedIn = core.versions.find((v) => v.version > (lastPlan?.version ?? 0))?.version;
      view.status = 'replaced';
      view.statusReason = droppedIn !== undefined ? `not in plan v${droppedIn}` : 'not in the current plan';
    }
    const oldOrder = lastPlan?.steps.map((x) => x.id) ?? [];
    let insertAt = 0;
    for (let k = oldOrder.indexOf(s.id) - 1; k >= 0; k--) {
      const j = result.findIndex((x) => x.id === oldOrder[k]);
      if (j >= 0) {
        insertAt = j + 1;
        break;
      }
    }
    result.splice(insertAt, 0, view);
  }
  return result;
}

const clip = (text: string): string => (text.length > CHANGE_CLIP ? `${text.slice(0, CHANGE_CLIP)}…` : text);

function fieldText(step: Step, field: string): string {
  const value: unknown = (step as Record<string, unknown>)[field];
  if (field === 'evidence') return evidenceLines(step).join('\n');
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.join(', ');
  return JSON.stringify(value ?? '');
}

/** Field-by-field before/after for the steps a version changed against its parent. */
function fieldChanges(version: CoreVersion, parent: CoreVersion | undefined): FieldChangeView[] {
  if (!version.diff || !parent) return [];
  const before = new Map(parent.plan.steps.map((s) => [s.id, s]));
  const after = new Map(version.plan.steps.map((s) => [s.id, s]));
  const out: FieldChangeView[] = [];
  for (const c of version.diff.changed) {
    const b = before.get(c.stepId);
    const a = after.get(c.stepId);
    if (!b || !a) continue;
    for (const field of c.fields) out.push({ stepId: c.stepId, field, before: clip(fieldText(b, field)), after: clip(fieldText(a, field)) });
  }
  return out;
}

function versionView(version: CoreVersion, all: readonly CoreVersion[]): PlanVersionView {
  const parent = all.find((v) => v.version === version.parentVersion);
  return { ...passedOn(version, VERSION_RESHAPED), changes: fieldChanges(version, parent) };
}

function replanView(r: ReplanView): ReplanUiView {
  return { ...passedOn(r, REPLAN_RESHAPED), trigger: describeTrigger(r.trigger, r.stepId), detail: r.evidence, refusedBecause: r.refusedBecause ?? [] };
}

function failureView(f: FailureView | null): MissionView['failure'] {
  return f && passedOn(f, FAILURE_RESHAPED);
}

function waitViews(core: CoreView): WaitUiView[] {
  return Object.values(core.waits).map((w) => passedOn(w, WAIT_RESHAPED));
}

export function toUiMission(core: CoreView, options: UiMissionOptions): MissionView {
  const plan = core.plan;
  const view: MissionView = {
    ...passedOn(core, MISSION_RESHAPED),
    missionId: core.missionId ?? 'unknown',
    phaseLabel: null,
    goal: plan?.goal ?? '',
    assumptions: plan?.assumptions ?? [],
    constraints: plan?.constraints ?? [],
    planVersion: plan?.version ?? null,
    steps: orderedSteps(core),
    versions: core.versions.map((v) => versionView(v, core.versions)),
    replans: core.replans.map(replanView),
    costUsd: core.usage.costUsd,
    outcome: core.outcome?.outcome ?? null,
    summary: core.outcome?.summary ?? null,
    live: options.live,
    failure: failureView(core.outcome?.failure ?? null),
    actions: [],
    waits: options.live ? waitViews(core) : [],
    ...(core.instructions ? { instructions: instructionsView(core.instructions, 'mission') } : {}),
    ...(core.mcp
      ? {
          mcpServers: core.mcp.servers.map((s) => ({
            name: s.name,
            transport: s.transport,
            source: s.source,
            confinement: s.confinement,
            status: s.status,
            ...(s.reason ? { reason: s.reason } : {}),
            tools: s.tools.map((t) => ({ name: t.name, readOnly: t.readOnly })),
          })),
        }
      : {}),
  };
  const estimate = costEstimateView(core);
  if (estimate) view.costEstimate = estimate;
  if (core.cost) view.costReport = describeCostSummary(core.cost);
  if (core.outcome && !TERMINAL_PHASES.has(view.phase)) {
    view.phase = core.outcome.outcome === 'succeeded' ? 'succeeded' : core.outcome.outcome === 'cancelled' ? 'cancelled' : 'failed';
  }
  // A mission read back that never finished was cut off (window reload, crash): whatever phase its trace
  // stopped in, nothing runs it now — it is interrupted, its active steps too, and the reason says what was
  // cut off and what going on will do.
  if (!options.live && !TERMINAL_PHASES.has(view.phase) && core.outcome === null) {
    const wasPhase = view.phase;
    for (const step of view.steps) {
      if (ACTIVE_STATUSES.has(step.status)) {
        step.status = 'interrupted';
        step.statusReason = 'the window closed while this step ran';
      }
    }
    view.phase = 'interrupted';
    view.phaseReason = interruption(view, wasPhase);
  }
  view.phaseLabel = phaseLabel(view);
  view.actions = missionActions(view);
  return view;
}

/** The latest plan version's estimate in words: the total, and each step's tokens and money on its models. */
function costEstimateView(core: CoreView): MissionView['costEstimate'] {
  const e = core.estimate;
  if (!e || e.version !== core.plan?.version) return undefined;
  const n = e.estimate.steps.length;
  return {
    version: e.version,
    total: `${describeCost(e.estimate)} for ${n} step${n === 1 ? '' : 's'}`,
    steps: Object.fromEntries(e.estimate.steps.map((s) => [s.stepId, `${describeCost(s)} on ${s.models.join(', ')}`])),
  };
}

/** What an interruption cut off, and what going on does about it, in one sentence. */
function interruption(view: MissionView, wasPhase: MissionView['phase']): string {
  const cut = view.steps.filter((s) => s.inPlan && s.status === 'interrupted').map((s) => s.id);
  if (view.planVersion === null) return 'The mission stopped while its plan was being made (the window closed). Plan again plans the task once more.';
  if (cut.length > 0) {
    const list = cut.join(', ');
    const them = cut.length > 1 ? 'them' : 'it';
    return `The mission stopped while ${list} ran (the window closed). Resume runs ${them} again from the start; finished steps are kept.`;
  }
  if (view.approvedVersion !== view.planVersion || wasPhase === 'awaiting_approval') {
    return `The mission stopped while plan v${view.planVersion} waited for your approval (the window closed). Resume shows it for approval again.`;
  }
  return 'The mission stopped before it finished (the window closed). Resume goes on with the steps not done yet; finished steps are kept.';
}

/** What the phase badge says when the phase alone would mislead (after a revert, after a budget stop). */
function phaseLabel(view: MissionView): string | null {
  if (view.outcome === 'budget_exceeded' && !view.live) return 'stopped: budget';
  const changed = view.steps.filter((s) => s.files.length > 0);
  const reverted = changed.filter((s) => s.status === 'reverted');
  if (reverted.length === 0 || view.outcome === null) return null;
  return reverted.length === changed.length ? 'reverted' : 'partly reverted';
}

/** Steps done and counted (replaced and skipped steps are not counted). */
export function stepCounts(view: MissionView): { done: number; total: number } {
  const counted = view.steps.filter((s) => s.status !== 'replaced' && s.status !== 'skipped');
  return { done: counted.filter((s) => s.status === 'succeeded').length, total: counted.length };
}
