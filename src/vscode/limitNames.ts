/** The setting behind each cap (pure: the projection names them too). See ./limits.ts for reading them. */
import type { CapNames } from '../core/mission/options';

export const CAP_SETTINGS = {
  planSteps: 'planExecute.limits.maxPlanSteps',
  replans: 'planExecute.limits.maxReplans',
  cost: 'planExecute.limits.maxCostUsd',
  tokens: 'planExecute.limits.maxTokens',
  wall_time: 'planExecute.limits.maxMinutes',
  steps: 'planExecute.limits.maxStepAttempts',
} as const satisfies Required<CapNames>;
