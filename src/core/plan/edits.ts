/**
 * User edits to a plan under review (or mid-mission, for steps not yet started). Every edit goes through
 * `applyPlanEdit`, which produces a new version (parent, reason, diff) or refuses with a reason — it never
 * changes a version in place. Edits arrive from a front end, so they are parsed with zod first.
 *
 * Rules: dropping a required step needs `confirmRequired: true`; a step others depend on cannot be
 * dropped (edit or drop the dependents first); "tighten authority" must provably narrow, anything else
 * is refused as widening; the result must pass `validatePlan` like any other version. A whole edited plan
 * (`replace_plan`, a saved plan document) follows ./planReplace.ts.
 */
import { z } from 'zod';
import { StepIdSchema, type Authority, type Plan } from '../contracts/plan';
import { validatePlan, type PlanError, type ValidatePlanOptions } from './validate';
import { nextPlan } from './history';
import { wideningOf } from './authorityWidening';
import { replacementOf } from './planReplace';
import { err, ok, type Result } from '../contracts/result';

/** Like AuthoritySchema but without defaults: an omitted list means "unchanged", not "empty". */
const globList = z.array(z.string().min(1)).optional();
const PartialAuthoritySchema = z.object({ read: globList, edit: globList, commands: globList, network: z.boolean().optional(), mcp: globList });

export const PlanEditSchema = z.discriminatedUnion('kind', [
  /** Replace a step's instructions. */
  z.object({ kind: z.literal('instructions'), stepId: StepIdSchema, instructions: z.string() }),
  /** Remove a step; a required one only with confirmRequired (the user said so explicitly). */
  z.object({ kind: z.literal('drop_step'), stepId: StepIdSchema, confirmRequired: z.boolean().default(false) }),
  /** Narrow a step's authority; omitted lists stay as they are. */
  z.object({ kind: z.literal('tighten_authority'), stepId: StepIdSchema, authority: PartialAuthoritySchema }),
  /** Add a constraint binding on every step. */
  z.object({ kind: z.literal('add_constraint'), text: z.string().trim().min(1) }),
  /** The whole plan as the user edited it (a saved plan document); judged by ./planReplace.ts. */
  z.object({ kind: z.literal('replace_plan'), plan: z.unknown(), reason: z.string().trim().min(1).default('edited by you') }),
]);

export type PlanEdit = z.infer<typeof PlanEditSchema>;
export type PlanEditInput = z.input<typeof PlanEditSchema>;

/** Why an edit was refused; `errors`: what the edited plan got wrong (`invalid_plan`). */
export type PlanEditRefusal = {
  reason: 'invalid_edit' | 'unknown_step' | 'required_step' | 'has_dependents' | 'widening' | 'invalid_plan' | 'no_change';
  message: string;
  errors?: PlanError[];
};

/** The new plan version, or why the edit was refused. */
export type PlanEditOutcome = Result<Plan, PlanEditRefusal>;

/** What an edit is judged against besides validation: what has started, and whether the plan already runs. */
export interface PlanEditContext extends ValidatePlanOptions {
  /** Steps that can no longer change (already started or finished). */
  locked?: ReadonlySet<string>;
  /** The edited version runs without another approval (the mission runs): nothing may widen. */
  approved?: boolean;
}

/**
 * Applies one edit to `current`, producing version `version` (usually history.nextVersion) whose parent
 * is `current`.
 */
export function applyPlanEdit(current: Plan, input: unknown, version: number, options: PlanEditContext = {}): PlanEditOutcome {
  const parsed = PlanEditSchema.safeParse(input);
  if (!parsed.success) {
    return err({ reason: 'invalid_edit', message: parsed.error.issues.map((i) => `${i.path.join('.') || 'edit'}: ${i.message}`).join('; ') });
  }
  const edit = parsed.data;
  if (edit.kind === 'replace_plan') {
    const replaced = replacementOf(current, edit.plan, options);
    return replaced.ok ? finish(replaced.value, current, version, edit.reason, options) : replaced;
  }
  if (edit.kind === 'add_constraint') {
    return finish({ ...current, constraints: [...current.constraints, edit.text] }, current, version, `user added constraint: ${edit.text}`, options);
  }
  const target = current.steps.find((s) => s.id === edit.stepId);
  if (!target) return err({ reason: 'unknown_step', message: `there is no step "${edit.stepId}" in plan version ${current.version}` });
  if (options.locked?.has(target.id)) {
    return err({ reason: 'invalid_edit', message: `step "${target.id}" has already started or finished; it can no longer be edited` });
  }
  switch (edit.kind) {
    case 'instructions': {
      const steps = current.steps.map((s) => (s.id === target.id ? { ...s, instructions: edit.instructions } : s));
      return finish({ ...current, steps }, current, version, `user edited the instructions of ${target.id}`, options);
    }
    case 'drop_step': {
      if (target.required && !edit.confirmRequired) {
        return err({
          reason: 'required_step',
          message: `step "${target.id}" is required for the goal; confirm explicitly to drop it (the goal may then not be met)`,
        });
      }
      const dependents = current.steps.filter((s) => s.dependsOn.includes(target.id)).map((s) => s.id);
      if (dependents.length > 0) {
        return err({ reason: 'has_dependents', message: `step "${target.id}" is needed by ${dependents.join(', ')}; drop or edit those first` });
      }
      const steps = current.steps.filter((s) => s.id !== target.id);
      const what = target.required ? 'required step (confirmed)' : 'optional step';
      return finish({ ...current, steps }, current, version, `user dropped ${what} ${target.id}`, options);
    }
    case 'tighten_authority': {
      const next: Authority = {
        read: edit.authority.read ?? target.authority.read,
        edit: edit.authority.edit ?? target.authority.edit,
        commands: edit.authority.commands ?? target.authority.commands,
        network: edit.authority.network ?? target.authority.network,
        mcp: edit.authority.mcp ?? target.authority.mcp,
      };
      const widened = wideningOf(target.authority, next);
      if (widened) return err({ reason: 'widening', message: `not a tightening of ${target.id}: ${widened}` });
      const steps = current.steps.map((s) => (s.id === target.id ? { ...s, authority: next } : s));
      return finish({ ...current, steps }, current, version, `user tightened the authority of ${target.id}`, options);
    }
  }
}

function finish(plan: Plan, current: Plan, version: number, reason: string, options: ValidatePlanOptions): PlanEditOutcome {
  const candidate = nextPlan(plan, current, version, reason);
  const checked = validatePlan(candidate, options);
  if (!checked.ok) {
    return err({
      reason: 'invalid_plan',
      message: `the edited plan is not valid: ${checked.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      errors: checked.errors,
    });
  }
  return ok(checked.plan);
}
