/**
 * Replanning rules. A replan happens on a recorded trigger (never "just because"), in a mode chosen per
 * trigger, and its result is accepted only when
 *  1. it passes `validatePlan` (so a cycle introduced by a replan is refused like any other cycle);
 *  2. every finished step is still there, unchanged — unless the new version names it in `invalidated`
 *     with a reason (then it re-runs, and the user sees why);
 *  3. in step mode, it touches only the failed step and what depends on it (unfinished steps elsewhere
 *     stay as they were; a wider change needs a rest-of-mission replan).
 * The depth cap (maxReplans) is enforced by the engine through the budget tracker.
 */
import { validatePlan, type PlanError, type ValidatePlanOptions } from '../plan/validate';
import { diffPlans } from '../plan/diff';
import type { Plan } from '../contracts/plan';
import type { TriggerKind } from './triggerWords';
import { err, ok, type Result } from '../contracts/result';

export interface ReplanTrigger {
  kind: TriggerKind;
  stepId: string | null;
  message: string;
  /** What backs the trigger (failure detail, failed checks, the user's words, the observation). */
  evidence: string;
}

/**
 * Step-level for problems local to one step (its failure, its verification, its escalation); rest of
 * mission when what we believed about the world changed (a user correction, a surprising observation)
 * or when there is no step to anchor on.
 */
export function replanModeFor(trigger: ReplanTrigger): 'step' | 'rest' {
  if (trigger.stepId === null) return 'rest';
  switch (trigger.kind) {
    case 'step_failed':
    case 'step_blocked':
    case 'verification_failed':
    case 'escalation':
      return 'step';
    case 'user_correction':
    case 'observation':
      return 'rest';
  }
}

export interface ReplanCheckInput {
  current: Plan;
  proposed: unknown;
  version: number;
  reason: string;
  mode: 'step' | 'rest';
  /** The step the trigger is about (step mode's anchor). */
  stepId: string | null;
  /** Steps that finished successfully (verified). */
  finished: ReadonlySet<string>;
  /** Steps that are running or done in some way and so may not be rewritten silently (besides finished). */
  validate?: ValidatePlanOptions;
}

/** `errors` are worded for the replanner (what to fix); `reasons` for the user (what was wrong). */
export type ReplanRejection = { errors: PlanError[]; reasons: string[] };
export type ReplanCheck = Result<{ plan: Plan; invalidated: { stepId: string; reason: string }[] }, ReplanRejection>;

export function checkReplan(input: ReplanCheckInput): ReplanCheck {
  const stamped = isRecord(input.proposed)
    ? { ...input.proposed, version: input.version, parentVersion: input.current.version, reason: input.reason }
    : input.proposed;
  const validated = validatePlan(stamped, input.validate);
  if (!validated.ok) {
    const shown = validated.errors.slice(0, 3).map((e) => `${e.path || 'the plan'}: ${e.message}`);
    const more = validated.errors.length > 3 ? ` (and ${validated.errors.length - 3} more problems)` : '';
    return err({ errors: validated.errors, reasons: [`the new plan was not valid — ${shown.join('; ')}${more}`] });
  }
  const plan = validated.plan;
  const errors: PlanError[] = [];
  const reasons: string[] = [];
  const invalidated = plan.invalidated ?? [];
  const named = new Map(invalidated.map((i) => [i.stepId, i.reason]));
  invalidated.forEach((entry, i) => {
    if (!input.finished.has(entry.stepId)) {
      errors.push({
        path: `invalidated[${i}].stepId`,
        message: `"${entry.stepId}" has not finished, so there is nothing to invalidate; remove it from invalidated`,
      });
      reasons.push(`the new plan asked to redo step ${entry.stepId}, which has not finished`);
    }
  });
  const diff = diffPlans(input.current, plan);
  const changedFields = new Map(diff.changed.map((c) => [c.stepId, c.fields]));
  for (const id of input.finished) {
    if (named.has(id)) continue;
    if (diff.removed.includes(id)) {
      errors.push({
        path: 'steps',
        message: `finished step "${id}" was dropped; finished steps stay finished — keep it, or name it in invalidated with the reason it must be redone`,
      });
      reasons.push(`the new plan dropped finished step ${id} without saying why`);
    } else if (changedFields.has(id)) {
      errors.push({
        path: `steps[${plan.steps.findIndex((s) => s.id === id)}]`,
        message: `finished step "${id}" was changed (${changedFields.get(id)!.join(', ')}) without saying why; keep it as it was, or name it in invalidated with a reason`,
      });
      reasons.push(`the new plan changed finished step ${id} (${changedFields.get(id)!.join(', ')}) without saying why`);
    }
  }
  if (input.mode === 'step' && input.stepId) {
    const scope = downstreamOf(input.current, input.stepId);
    for (const id of [...diff.removed, ...changedFields.keys()]) {
      if (!scope.has(id) && !input.finished.has(id)) {
        errors.push({
          path: 'steps',
          message: `a step-level replan of "${input.stepId}" may only change it and its dependents, but it changes "${id}"; keep "${id}" as it was`,
        });
        reasons.push(`the new plan changed step ${id}, which neither is ${input.stepId} nor depends on it`);
      }
    }
  }
  return errors.length > 0 ? err({ errors, reasons }) : ok({ plan, invalidated });
}

/** The step and everything that depends on it, transitively. */
export function downstreamOf(plan: Plan, stepId: string): Set<string> {
  const scope = new Set([stepId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const step of plan.steps) {
      if (!scope.has(step.id) && step.dependsOn.some((d) => scope.has(d))) {
        scope.add(step.id);
        grew = true;
      }
    }
  }
  return scope;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
