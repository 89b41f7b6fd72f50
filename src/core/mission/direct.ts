/**
 * Direct mode: the planner judged the task a one- or two-step job (or the plan simply has ≤ 2 steps).
 * Planner–executor machinery is overkill for short fixed sequences, so the engine runs the steps with
 * their retries and verification but without replanning: a failure ends the mission and says so. A user
 * correction still replans — the user asked for it explicitly.
 *
 * The single-loop baseline (`eval --mode direct`) goes one further, to measure what the plan is worth:
 * no planner (the mission is given `singleLoopPlan` as its plan), no replanning (the plan is direct), no
 * verifier (`verify: false`), no retry — one executor with the whole task and the union of the authority
 * any plan could grant it.
 */
import type { Authority, Plan, PlanInput } from '../contracts/plan';

export const DIRECT_MAX_STEPS = 2;

/** The one step of the single-loop baseline. */
export const SINGLE_LOOP_STEP_ID = 'task';

export function isDirect(plan: Plan): boolean {
  return plan.direct || plan.steps.length <= DIRECT_MAX_STEPS;
}

/** The baseline's plan: one step whose instructions are the task as the user typed it. */
export function singleLoopPlan(task: string, authority: Authority): PlanInput {
  const firstLine = task.trim().split('\n')[0]?.trim() || 'the task';
  return {
    goal: task,
    direct: true,
    reason: 'single-loop baseline: one executor with the whole task, no planner, no verifier',
    steps: [
      {
        id: SINGLE_LOOP_STEP_ID,
        title: firstLine.length > 200 ? `${firstLine.slice(0, 199)}…` : firstLine,
        kind: 'edit',
        instructions: task,
        authority,
        modelTier: 'standard',
        evidence: { checks: [], description: 'none: nothing checks your work after you; finish the whole task, then report' },
      },
    ],
  };
}
