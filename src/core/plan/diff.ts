/**
 * The diff between two plan versions: steps added, removed, and changed field by field. Shown to the user
 * with every new version (edits and replans alike), so nothing about a plan changes silently.
 */
import type { Plan, Step } from '../contracts/plan';
import type { PlanDiff } from '../contracts/traceEvents';

const STEP_FIELDS = [
  'title',
  'why',
  'required',
  'dependsOn',
  'kind',
  'instructions',
  'authority',
  'binding',
  'expectedOutput',
  'evidence',
  'risk',
  'effort',
  'modelTier',
] as const satisfies readonly (keyof Step)[];

const PLAN_FIELDS = ['goal', 'assumptions', 'constraints', 'direct', 'constraintChecks'] as const satisfies readonly (keyof Plan)[];

/** Steps and fields that differ from `a` to `b` (version bookkeeping fields are not part of the diff). */
export function diffPlans(a: Plan, b: Plan): PlanDiff {
  const before = new Map(a.steps.map((s) => [s.id, s]));
  const after = new Map(b.steps.map((s) => [s.id, s]));
  const diff: PlanDiff = {
    added: b.steps.filter((s) => !before.has(s.id)).map((s) => s.id),
    removed: a.steps.filter((s) => !after.has(s.id)).map((s) => s.id),
    changed: [],
  };
  for (const step of b.steps) {
    const old = before.get(step.id);
    if (!old) continue;
    const fields: string[] = STEP_FIELDS.filter((f) => !sameValue(old[f], step[f]));
    if (fields.length > 0) diff.changed.push({ stepId: step.id, fields });
  }
  const planFields = PLAN_FIELDS.filter((f) => !sameValue(a[f], b[f]));
  if (planFields.length > 0) diff.planFields = planFields;
  return diff;
}

/** True when the diff records no change at all. */
export function isEmptyDiff(diff: PlanDiff): boolean {
  return diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0 && (diff.planFields ?? []).length === 0;
}

/** Structural equality for plain JSON values (key order does not matter). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const key of keys) if (!sameValue(ra[key], rb[key])) return false;
  return true;
}
