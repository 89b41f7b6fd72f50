/**
 * How a mission ended, in words: the outcome and summary of its report, and the budget message that names
 * the cap that was hit and what to raise (the front end's setting or flag, from `capNames`).
 */
import type { Plan } from '../contracts/plan';
import type { Failure } from '../contracts/results';
import type { BudgetExceeded } from './budgets';
import type { CapNames, MissionOutcome } from './options';
import type { StepState } from './state';

const NO_EFFECTS = { files: [], commands: [] };

/** "the cost budget ran out: $5.02 of $5.00 (raise planExecute.limits.maxCostUsd, then continue)" */
export function budgetStop(over: BudgetExceeded, names: CapNames = {}): [MissionOutcome, string, Failure] {
  const amount = amountOf(over);
  const name = names[over.kind];
  // A front end that names its caps also offers to continue the stopped mission; the library and the CLI
  // (which cannot continue one) say only what to raise.
  const raise = name ? `raise ${name}, then continue the mission` : `raise the ${noun(over.kind)} budget to go on`;
  return [
    'budget_exceeded',
    `the ${noun(over.kind)} budget ran out: ${amount} (${raise})`,
    {
      class: 'budget_exceeded',
      message: `the ${noun(over.kind)} budget ran out: ${amount}`,
      partialSideEffects: NO_EFFECTS,
      recoverable: true,
      suggestion: raise,
      detail: `budget:${over.kind}`,
    },
  ];
}

function noun(kind: BudgetExceeded['kind']): string {
  return { replans: 'replan', tokens: 'token', cost: 'cost', wall_time: 'time', steps: 'step' }[kind];
}

function amountOf(over: BudgetExceeded): string {
  switch (over.kind) {
    case 'cost':
      return `$${over.used.toFixed(2)} of $${over.limit.toFixed(2)}`;
    case 'wall_time':
      return `${Math.round(over.used / 60_000)} of ${Math.round(over.limit / 60_000)} minutes`;
    case 'tokens':
      return `${Math.round(over.used).toLocaleString('en-US')} of ${over.limit.toLocaleString('en-US')} tokens`;
    case 'replans':
      return `${over.used} of ${over.limit} replans used`;
    case 'steps':
      return `${over.used} of ${over.limit} step attempts used`;
  }
}

/** The outcome of a loop that ended without a budget stop, a cancel or a fatal failure: did the plan get done? */
export function planOutcome(plan: Plan, steps: ReadonlyMap<string, StepState>): [MissionOutcome, string] {
  const status = (id: string): string => steps.get(id)?.status ?? 'pending';
  const missing = plan.steps.filter((s) => s.required && status(s.id) !== 'succeeded');
  if (missing.length > 0) return ['failed', `required steps not done: ${missing.map((s) => `${s.id} (${status(s.id)})`).join(', ')}`];
  const optionalMissed = plan.steps.filter((s) => !s.required && status(s.id) !== 'succeeded').map((s) => s.id);
  return ['succeeded', `all required steps verified${optionalMissed.length ? `; optional steps not done: ${optionalMissed.join(', ')}` : ''}`];
}
