/**
 * The caps a user can raise — the plan-size cap and the mission budgets — read from settings when a
 * mission starts, retries or continues (so a raised cap applies to the next Retry without a reload).
 * Settings are a trust boundary: each value is checked with zod, and a bad one falls back to the default
 * (logged), never to "no limit".
 */
import * as vscode from 'vscode';
import { z } from 'zod';
import { DEFAULT_BUDGETS, type CapNames, type MissionBudgets } from '../core/mission/options';
import { DEFAULT_MAX_STEPS } from '../core/plan/validate';
import { CAP_SETTINGS } from './limitNames';

export interface Limits {
  maxPlanSteps: number;
  budgets: MissionBudgets;
  capNames: CapNames;
}

const count = (max: number) => z.number().int().min(1).max(max);
const LimitsSchema = z.object({
  maxPlanSteps: count(1_000).catch(DEFAULT_MAX_STEPS),
  maxReplans: count(100).catch(DEFAULT_BUDGETS.maxReplans),
  maxCostUsd: z.number().positive().max(10_000).catch(DEFAULT_BUDGETS.maxCostUsd),
  maxTokens: count(1_000_000_000).catch(DEFAULT_BUDGETS.maxTokens),
  maxMinutes: count(24 * 60).catch(DEFAULT_BUDGETS.maxWallMs / 60_000),
  maxStepAttempts: count(10_000).catch(DEFAULT_BUDGETS.maxSteps),
});

/** The current limits; `warn` hears about every value that was out of range and replaced by its default. */
export function readLimits(warn: (message: string) => void = () => undefined): Limits {
  const section = vscode.workspace.getConfiguration('planExecute.limits');
  const raw = Object.fromEntries(Object.keys(LimitsSchema.shape).map((k) => [k, section.get<unknown>(k)]));
  const parsed = LimitsSchema.parse(raw);
  for (const [key, value] of Object.entries(raw)) {
    if (value !== undefined && value !== parsed[key as keyof typeof parsed])
      warn(`setting planExecute.limits.${key} = ${JSON.stringify(value)} is not valid; using ${parsed[key as keyof typeof parsed]}`);
  }
  return {
    maxPlanSteps: parsed.maxPlanSteps,
    budgets: {
      maxReplans: parsed.maxReplans,
      maxCostUsd: parsed.maxCostUsd,
      maxTokens: parsed.maxTokens,
      maxWallMs: parsed.maxMinutes * 60_000,
      maxSteps: parsed.maxStepAttempts,
    },
    capNames: CAP_SETTINGS,
  };
}
