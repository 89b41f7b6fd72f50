/**
 * A whole edited plan as the next version (a plan document saved in the editor): what may change depends
 * on where the mission is. Checked in this order:
 *  1. the edited plan passes validatePlan (every error with its path, as the document shows them by line);
 *  2. it changes something (an unchanged save makes no version);
 *  3. steps that started or finished are exactly as they were (their work is done under that definition);
 *  4. once the plan runs (it was approved and an edit is not approved again): no new step, no step's
 *     authority wider than it was, no constraint or constraint check removed — anything more must be
 *     approved, so it waits for the next plan approval (before approval, the user approves the edit itself).
 * The version fields of the edited plan are ignored: the engine numbers the new version.
 */
import type { Plan } from '../contracts/plan';
import { err, ok, type Result } from '../contracts/result';
import { wideningOf } from './authorityWidening';
import { diffPlans, isEmptyDiff, sameValue } from './diff';
import type { PlanEditContext, PlanEditRefusal } from './edits';
import { validatePlan } from './validate';

export function replacementOf(current: Plan, proposed: unknown, options: PlanEditContext): Result<Plan, PlanEditRefusal> {
  const stamped =
    typeof proposed === 'object' && proposed !== null ? { ...proposed, version: current.version, parentVersion: current.parentVersion } : proposed;
  const checked = validatePlan(stamped, options);
  if (!checked.ok) {
    return err({
      reason: 'invalid_plan',
      message: `the edited plan is not valid: ${checked.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      errors: checked.errors,
    });
  }
  const next = checked.plan;
  if (isEmptyDiff(diffPlans(current, next))) return err({ reason: 'no_change', message: 'the edited plan is the same as the current version' });
  const after = new Map(next.steps.map((s) => [s.id, s]));
  for (const id of options.locked ?? []) {
    const before = current.steps.find((s) => s.id === id);
    const now = after.get(id);
    if (before && (!now || !sameValue(before, now))) {
      return err({ reason: 'invalid_edit', message: `step "${id}" has already started or finished; it can no longer ${now ? 'change' : 'be removed'}` });
    }
  }
  if (!options.approved) return ok(next);
  const refusal = (message: string): Result<Plan, PlanEditRefusal> =>
    err({ reason: 'widening', message: `${message} while the approved plan runs; cancel the mission and run the edited plan to approve it first` });
  const before = new Map(current.steps.map((s) => [s.id, s]));
  for (const step of next.steps) {
    const old = before.get(step.id);
    if (!old) return refusal(`step "${step.id}" cannot be added`);
    const widened = wideningOf(old.authority, step.authority);
    if (widened) return refusal(`step "${step.id}" cannot be given more authority (${widened})`);
  }
  const dropped = current.constraints.filter((c) => !next.constraints.includes(c));
  if (dropped.length > 0) return refusal(`the constraint "${dropped[0]}" cannot be removed`);
  const checks = next.constraintChecks ?? [];
  if ((current.constraintChecks ?? []).some((c) => !checks.some((n) => sameValue(c, n)))) return refusal('a constraint check cannot be removed or changed');
  return ok(next);
}
