/**
 * Direct mode: the planner judged the task a one- or two-step job (or the plan simply has ≤ 2 steps).
 * Planner–executor machinery is overkill for short fixed sequences, so the engine runs the steps with
 * their retries and verification but without replanning: a failure ends the mission and says so. A user
 * correction still replans — the user asked for it explicitly.
 */
import type { Plan } from '../contracts/plan';

export const DIRECT_MAX_STEPS = 2;

export function isDirect(plan: Plan): boolean {
  return plan.direct || plan.steps.length <= DIRECT_MAX_STEPS;
}
