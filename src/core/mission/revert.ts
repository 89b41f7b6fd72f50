/**
 * Undo, from the trace: restore the files that steps changed to their checkpoints, and say so in the trace
 * (a `revert` event, then `step_status` 'reverted' for each step), so every front end shows the step as
 * reverted and no summary goes on claiming its verified work.
 *
 * Planning a revert (pure, from the events):
 *  1. every write a step made is known from its `step_result` side effects (partial ones of a failed or
 *     cancelled attempt included), in trace order; writes of steps reverted since are gone;
 *  2. the requested steps are closed over later writers: a step that changed one of their files after them
 *     is reverted too (newest first), so nothing is silently overwritten and no state lies about it;
 *  3. per file, the net change of the set is restored in one batch: the content before the set's earliest
 *     write, checked against the content after its latest write. A file that changed since the mission wrote
 *     it (the user edited it) is named, and overwritten only with the caller's consent for that path;
 *  4. steps of the current plan that succeeded on top of a reverted step (they depend on it, directly or
 *     through each other) no longer stand on what they were verified against: they are set back to
 *     'pending' with the reason, so no ✓ claims work that now rests on nothing, and going on re-runs them.
 */
import type { Clock, Diagnostics, EventSink, Store, Workspace } from '../ports';
import type { FileChange } from '../contracts/results';
import { validateEvents } from '../trace/jsonl';
import type { StepRunStatus, TraceEvent } from '../contracts/traceEvents';
import { TraceRecorder } from '../trace/recorder';
import { sha256Hex } from '../primitives/hash';
import { revertStep } from '../tools/checkpoints';
import { err, ok, type Result } from '../contracts/result';

interface Write {
  stepId: string;
  seq: number;
  beforeHash: string | null;
  afterHash: string | null;
}

/** What a revert would do (the confirmation shows it) and, once applied, what it did. */
export interface RevertPlan {
  /** Every step that is reverted, newest first. */
  stepIds: string[];
  /** Steps reverted because they changed the same files after a requested one. */
  alsoLater: string[];
  /** Per file: the step whose checkpoint is restored, and whether the file comes back or goes away. */
  files: { stepId: string; path: string; action: 'restored' | 'deleted' }[];
  /** Files that changed since the mission wrote them (reverting overwrites those changes). */
  changedSince: string[];
  /** Succeeded steps that depend on a reverted one: they need a re-run (set back to pending). */
  stale: string[];
}

export type RevertTarget = { steps: string[] } | { all: true };

export type RevertRefusal = {
  reason: 'unknown_step' | 'nothing_to_revert' | 'already_reverted' | 'changed' | 'conflict' | 'missing_blob';
  message: string;
};

export type RevertOutcome = Result<{ plan: RevertPlan; applied: boolean }, RevertRefusal>;

/** A planned revert: what the user is shown, and the net change per file that restores it. */
export type PlannedRevert = Result<{ plan: RevertPlan; net: FileChange[] }, RevertRefusal>;

interface Ledger {
  writes: Map<string, Write[]>;
  status: Map<string, { status: StepRunStatus; attempt: number }>;
  stepIds: Set<string>;
  /** The latest plan's steps and what each depends on. */
  dependsOn: Map<string, readonly string[]>;
}

/** The writes still in effect, per file, in trace order; and each step's latest status. */
function ledgerOf(events: readonly TraceEvent[]): Ledger {
  const writes = new Map<string, Write[]>();
  const status = new Map<string, { status: StepRunStatus; attempt: number }>();
  const stepIds = new Set<string>();
  let dependsOn = new Map<string, readonly string[]>();
  for (const e of events) {
    if (e.type === 'plan_version') {
      for (const s of e.plan.steps) stepIds.add(s.id);
      dependsOn = new Map(e.plan.steps.map((s) => [s.id, s.dependsOn]));
    } else if (e.type === 'step_status') status.set(e.stepId, { status: e.status, attempt: e.attempt });
    else if (e.type === 'step_result') {
      const files = new Map<string, FileChange>();
      for (const f of [...e.result.sideEffects.files, ...(e.result.failure?.partialSideEffects.files ?? [])]) {
        const prev = files.get(f.path);
        files.set(f.path, prev ? { ...f, beforeHash: prev.beforeHash } : f);
      }
      for (const f of files.values()) {
        const list = writes.get(f.path) ?? [];
        list.push({ stepId: e.result.stepId, seq: e.seq, beforeHash: f.beforeHash, afterHash: f.afterHash });
        writes.set(f.path, list);
      }
    } else if (e.type === 'revert') {
      const gone = new Set(e.stepIds);
      for (const [path, list] of writes)
        writes.set(
          path,
          list.filter((w) => !gone.has(w.stepId)),
        );
    }
  }
  return { writes, status, stepIds, dependsOn };
}

/** Succeeded steps of the latest plan that depend, directly or transitively, on one of `reverted`. */
function staleDependents(ledger: Ledger, reverted: ReadonlySet<string>): string[] {
  const gone = new Set(reverted);
  const stale: string[] = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const [id, deps] of ledger.dependsOn) {
      if (gone.has(id) || !deps.some((d) => gone.has(d))) continue;
      gone.add(id);
      grew = true;
      if (ledger.status.get(id)?.status === 'succeeded') stale.push(id);
    }
  }
  return stale;
}

function stepsWithWrites(ledger: Ledger): Set<string> {
  const out = new Set<string>();
  for (const list of ledger.writes.values()) for (const w of list) out.add(w.stepId);
  return out;
}

/** The requested steps plus every step that wrote one of their files after them, to a fixpoint. */
function closeOverLaterWriters(ledger: Ledger, requested: ReadonlySet<string>): Set<string> {
  const set = new Set(requested);
  for (let grew = true; grew;) {
    grew = false;
    for (const list of ledger.writes.values()) {
      const first = list.findIndex((w) => set.has(w.stepId));
      if (first < 0) continue;
      for (const w of list.slice(first + 1)) {
        if (!set.has(w.stepId)) {
          set.add(w.stepId);
          grew = true;
        }
      }
    }
  }
  return set;
}

/** Plans a revert from the trace and the workspace's current content; changes nothing. */
export async function planRevert(events: readonly TraceEvent[], target: RevertTarget, workspace: Workspace): Promise<PlannedRevert> {
  const ledger = ledgerOf(events);
  const changed = stepsWithWrites(ledger);
  let requested: Set<string>;
  if ('all' in target) {
    requested = changed;
    if (requested.size === 0) return err({ reason: 'nothing_to_revert', message: 'No step of this mission has changes left to revert.' });
  } else {
    for (const id of target.steps) {
      if (!ledger.stepIds.has(id)) return err({ reason: 'unknown_step', message: `There is no step ${id} in this mission.` });
      if (!changed.has(id)) {
        return ledger.status.get(id)?.status === 'reverted'
          ? err({ reason: 'already_reverted', message: `Step ${id} is already reverted.` })
          : err({ reason: 'nothing_to_revert', message: `Step ${id} changed no files.` });
      }
    }
    requested = new Set(target.steps);
  }
  const set = closeOverLaterWriters(ledger, requested);
  const latestSeq = new Map<string, number>();
  const net: FileChange[] = [];
  const files: RevertPlan['files'] = [];
  const changedSince: string[] = [];
  for (const [path, list] of ledger.writes) {
    const mine = list.filter((w) => set.has(w.stepId));
    if (mine.length === 0) continue;
    for (const w of mine) latestSeq.set(w.stepId, Math.max(latestSeq.get(w.stepId) ?? -1, w.seq));
    const first = mine[0]!;
    const last = mine[mine.length - 1]!;
    const now = await currentHash(workspace, path);
    if (now === first.beforeHash) continue; // already as before
    if (now !== last.afterHash) changedSince.push(path);
    net.push({
      path,
      change: first.beforeHash === null ? 'created' : last.afterHash === null ? 'deleted' : 'modified',
      beforeHash: first.beforeHash,
      afterHash: last.afterHash,
    });
    files.push({ stepId: first.stepId, path, action: first.beforeHash === null ? 'deleted' : 'restored' });
  }
  const stepIds = [...set].sort((a, b) => (latestSeq.get(b) ?? -1) - (latestSeq.get(a) ?? -1));
  const alsoLater = stepIds.filter((id) => !requested.has(id));
  return ok({ plan: { stepIds, alsoLater, files, changedSince, stale: staleDependents(ledger, set) }, net });
}

async function currentHash(workspace: Workspace, path: string): Promise<string | null> {
  const stat = await workspace.stat(path);
  if (!stat || stat.kind !== 'file') return null;
  return sha256Hex(await workspace.readFile(path));
}

export interface RevertOptions {
  missionId: string;
  store: Store;
  workspace: Workspace;
  clock: Clock;
  /** Receives the recorded events (the front end's live view). */
  events?: EventSink;
  /** Told when the live view's sink throws (the trace holds the events either way). */
  diagnostics?: Diagnostics;
  target: RevertTarget;
  /** Only plan (the confirmation); nothing changes and nothing is recorded. */
  dryRun: boolean;
  /**
   * What the user confirmed: the steps and the changed-since files they agreed to. The revert is refused
   * when the plan grew since (another step, another changed file) — the user never agreed to that.
   */
  confirmed?: { stepIds: readonly string[]; changedSince: readonly string[] };
}

/**
 * Reverts the target steps of a mission that is not running (the caller makes sure of that: the trace is
 * appended from here, after its last event).
 */
export async function revertMissionSteps(options: RevertOptions): Promise<RevertOutcome> {
  const raw = await options.store.readEvents(options.missionId);
  const { events } = validateEvents(raw);
  const planned = await planRevert(events, options.target, options.workspace);
  if (!planned.ok) return planned;
  const { plan, net } = planned.value;
  if (options.dryRun) return ok({ plan, applied: false });
  const confirmed = options.confirmed;
  if (confirmed) {
    const newSteps = plan.stepIds.filter((id) => !confirmed.stepIds.includes(id));
    const newChanges = plan.changedSince.filter((p) => !confirmed.changedSince.includes(p));
    if (newSteps.length > 0 || newChanges.length > 0) {
      return err({
        reason: 'changed',
        message: `Nothing was reverted: since you confirmed, ${[newSteps.length ? `steps ${newSteps.join(', ')} joined the revert` : '', newChanges.length ? `${newChanges.join(', ')} changed` : ''].filter(Boolean).join(' and ')}. Review and revert again.`,
      });
    }
  } else if (plan.changedSince.length > 0) {
    return err({ reason: 'conflict', message: `Changed since the mission wrote them: ${plan.changedSince.join(', ')}. Nothing was reverted.` });
  }
  const label = `Revert ${plan.stepIds.length === 1 ? `step ${plan.stepIds[0]}` : `steps ${plan.stepIds.join(', ')}`}`;
  const out = await revertStep(options.workspace, options.store, net, { force: plan.changedSince.length > 0, label });
  if (!out.ok) return err({ reason: out.error.reason, message: `Nothing was reverted: ${out.error.message}` });

  const ledger = ledgerOf(events);
  const nextSeq = Math.max(raw.length, ...events.map((e) => e.seq + 1));
  const recorder = new TraceRecorder(options.missionId, options.store, options.events, options.clock, nextSeq, options.diagnostics);
  await recorder.record({ type: 'revert', stepIds: plan.stepIds, files: plan.files, overwrote: plan.changedSince });
  for (const id of plan.stepIds) {
    const mine = plan.files.filter((f) => f.stepId === id);
    const what = describeFiles(mine);
    const reason = plan.alsoLater.includes(id)
      ? `reverted with ${plan.stepIds.filter((s) => !plan.alsoLater.includes(s)).join(', ')}: it changed the same files later${what ? `; ${what}` : ''}`
      : `reverted by the user${what ? `: ${what}` : ''}`;
    await recorder.record({ type: 'step_status', stepId: id, status: 'reverted', attempt: ledger.status.get(id)?.attempt ?? 0, reason });
  }
  for (const id of plan.stale) {
    const on = (ledger.dependsOn.get(id) ?? []).filter((d) => plan.stepIds.includes(d) || plan.stale.includes(d));
    const what = on.every((d) => plan.stepIds.includes(d)) ? 'reverted' : 'reverted or needs a re-run';
    const reason = `needs a re-run: it depends on ${on.join(', ')}, which ${on.length > 1 ? 'were' : 'was'} ${what}`;
    await recorder.record({ type: 'step_status', stepId: id, status: 'pending', attempt: ledger.status.get(id)?.attempt ?? 0, reason });
  }
  await recorder.flush();
  return ok({ plan, applied: true });
}

/** "restored src/a.js; deleted src/new.js" */
export function describeFiles(files: readonly { path: string; action: 'restored' | 'deleted' }[]): string {
  const restored = files.filter((f) => f.action === 'restored').map((f) => f.path);
  const deleted = files.filter((f) => f.action === 'deleted').map((f) => f.path);
  return [restored.length ? `restored ${restored.join(', ')}` : '', deleted.length ? `deleted ${deleted.join(', ')}` : ''].filter(Boolean).join('; ');
}
