/**
 * Revert with the user's eyes open: plan it (dry run), say in one modal what it will do — the files
 * restored or deleted, later steps that changed the same files and so go too (newest first), files the
 * user changed since the mission wrote them — then revert exactly what was confirmed, and tell the user
 * what was restored (a toast; the trace's `revert` event is the log line).
 */
import { describeFiles, type RevertPlan, type RevertTarget } from '../../core/mission/revert';
import type { Outcome } from './engineBridge';

export interface RevertPort {
  revert(target: RevertTarget, dryRun: boolean, confirmed?: { stepIds: string[]; changedSince: string[] }): Promise<Outcome<RevertPlan>>;
}

export interface RevertUi {
  confirm(message: string, action: string): Promise<boolean>;
  inform(message: string): void;
}

export async function confirmAndRevert(port: RevertPort, target: RevertTarget, ui: RevertUi): Promise<Outcome> {
  const dry = await port.revert(target, true);
  if (!dry.ok) return dry;
  const plan = dry.value;
  const whole = 'all' in target;
  if (!(await ui.confirm(revertQuestion(plan, whole), whole ? 'Revert mission' : 'Revert step'))) return { ok: true, value: undefined };
  const done = await port.revert(target, false, { stepIds: plan.stepIds, changedSince: plan.changedSince });
  if (!done.ok) return done;
  ui.inform(revertDone(done.value));
  return { ok: true, value: undefined };
}

/** The confirmation: what goes, what comes back, what is overwritten. */
function revertQuestion(plan: RevertPlan, whole: boolean): string {
  const requested = plan.stepIds.filter((id) => !plan.alsoLater.includes(id));
  const head = whole
    ? `Revert the whole mission — steps ${plan.stepIds.join(', ')}, newest first?`
    : `Revert step${requested.length > 1 ? 's' : ''} ${requested.join(', ')}?`;
  const files = filesWords(plan.files);
  const parts = [head, files ? `This ${files}.` : 'Its files are already as they were before it.'];
  if (!whole && plan.alsoLater.length > 0) {
    parts.push(
      `Later step${plan.alsoLater.length > 1 ? 's' : ''} ${plan.alsoLater.join(', ')} changed the same files after it, so ${plan.alsoLater.length > 1 ? 'they are' : 'it is'} reverted too (newest first: ${plan.stepIds.join(', ')}).`,
    );
  }
  if (plan.changedSince.length > 0) {
    parts.push(
      `${plan.changedSince.join(', ')} changed since the mission wrote ${plan.changedSince.length > 1 ? 'them' : 'it'}: reverting overwrites those changes.`,
    );
  }
  return parts.join(' ');
}

/** The toast after a revert: "Reverted s2, s1: restored src/a.js; deleted src/new.js." */
function revertDone(plan: RevertPlan): string {
  const files = describeFiles(plan.files);
  return `Reverted ${plan.stepIds.join(', ')}${files ? `: ${files}` : ''}.`;
}

function filesWords(files: RevertPlan['files']): string {
  const restored = files.filter((f) => f.action === 'restored').map((f) => f.path);
  const deleted = files.filter((f) => f.action === 'deleted').map((f) => f.path);
  return [restored.length ? `restores ${restored.join(', ')}` : '', deleted.length ? `deletes ${deleted.join(', ')}` : ''].filter(Boolean).join(' and ');
}
