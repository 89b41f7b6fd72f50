/**
 * Builds the `Handoff` for one step attempt. Dependencies travel as their typed results plus the raw tool
 * calls behind them (timestamps and ok flags, output capped by the context budget); constraints travel as
 * binding fields; earlier tool calls that are still valid travel as references (the executor's tools
 * reuse them through `ToolCallLog.findReusable`).
 */
import type { Handoff, ToolCallRecord } from '../contracts/handoff';
import type { Plan, Step } from '../contracts/plan';
import type { Failure, StepResult } from '../contracts/results';
import type { AppliedInstruction } from '../contracts/instructions';
import { capText, DEFAULT_CONTEXT_BUDGET, type ContextBudget } from './contextBudget';
import type { ToolCallStore } from './toolCallStore';

export interface HandoffInput {
  missionId: string;
  plan: Plan;
  step: Step;
  /** Final results of finished steps, by id (only the step's own dependencies are included). */
  results: ReadonlyMap<string, StepResult>;
  toolCalls: ToolCallStore;
  attempt: number;
  previousFailure?: Failure;
  /** Current content hash of a workspace path (null when absent); decides which calls are reusable. */
  hashOf: (path: string) => Promise<string | null>;
  budget?: ContextBudget;
  /** The project's instructions that apply to the step (instructionsForStep). */
  instructions?: AppliedInstruction[];
}

export async function buildHandoff(input: HandoffInput): Promise<Handoff> {
  const budget = input.budget ?? DEFAULT_CONTEXT_BUDGET;
  const dependencies = input.step.dependsOn.flatMap((depId) => {
    const result = input.results.get(depId);
    const depStep = input.plan.steps.find((s) => s.id === depId);
    if (!result) return [];
    const calls = result.toolCallIds
      .map((id) => input.toolCalls.get(id))
      .filter((r): r is ToolCallRecord => r !== undefined)
      .slice(-budget.toolCallsPerDependency)
      .map((r) => ({ ...r, output: capText(r.output, budget.perToolCallChars, r.id) }));
    return [{ stepId: depId, title: depStep?.title ?? depId, result, toolCalls: calls }];
  });
  // Only calls made by this step's dependencies (or this step's earlier attempts) are relevant to it.
  const reusableToolCalls = await input.toolCalls.validIds(input.hashOf, new Set([...input.step.dependsOn, input.step.id]));
  return {
    missionId: input.missionId,
    planVersion: input.plan.version,
    goal: input.plan.goal,
    constraints: [...input.plan.constraints],
    step: input.step,
    dependencies,
    binding: input.step.binding,
    authority: input.step.authority,
    reusableToolCalls,
    attempt: input.attempt,
    previousFailure: input.previousFailure,
    ...(input.instructions && input.instructions.length > 0 ? { instructions: input.instructions } : {}),
  };
}
