/**
 * What a plan is expected to cost before it runs: tokens and money per step and for the whole plan, as
 * `estimatePlan` (src/core/model/estimate.ts) computes them from the routed models' prices and each
 * step's size. Recorded in the trace (`plan_estimate`), written into the plan document, shown beside
 * Approve; after the run the report sets the actual figures beside it.
 */
import { z } from 'zod';

/**
 * How a money figure was reached: every model priced from the table (`priced`), every model on this
 * machine (`local`: no cost), or some model with no known price (`unknown`: the figure is not a number).
 */
export const EstimatePricingSchema = z.enum(['priced', 'local', 'unknown']);

export const StepEstimateSchema = z.object({
  stepId: z.string(),
  /** Input (cache reads and writes included) plus output tokens of the step's expected model calls. */
  tokens: z.number().int().nonnegative(),
  /** USD; null when a model the step routes to has no known price (`pricing: 'unknown'`). */
  costUsd: z.number().nonnegative().nullable(),
  pricing: EstimatePricingSchema,
  /** The models the step's calls route to (its executor tier's, and the verifier's when it reviews). */
  models: z.array(z.string()),
});

export const PlanEstimateSchema = z.object({
  /** Sum of the steps' tokens. */
  tokens: z.number().int().nonnegative(),
  /** Sum of the steps' costs; null when any step's price is unknown. */
  costUsd: z.number().nonnegative().nullable(),
  pricing: EstimatePricingSchema,
  steps: z.array(StepEstimateSchema),
});

export type EstimatePricing = z.infer<typeof EstimatePricingSchema>;
export type StepEstimate = z.infer<typeof StepEstimateSchema>;
export type PlanEstimate = z.infer<typeof PlanEstimateSchema>;

/** The plan's total from its steps: tokens and money summed, unknown if any step is unknown, local if all are. */
export function totalEstimate(steps: readonly StepEstimate[]): PlanEstimate {
  const unknown = steps.some((s) => s.pricing === 'unknown');
  const local = steps.length > 0 && steps.every((s) => s.pricing === 'local');
  return {
    tokens: steps.reduce((n, s) => n + s.tokens, 0),
    costUsd: unknown ? null : steps.reduce((n, s) => n + (s.costUsd ?? 0), 0),
    pricing: unknown ? 'unknown' : local ? 'local' : 'priced',
    steps: [...steps],
  };
}

/** Tokens and money of some model calls. */
const SpentSchema = z.object({ tokens: z.number().int().nonnegative(), costUsd: z.number().nonnegative() });

/**
 * Estimate and actual side by side, recorded when a mission ends (`cost_summary`): the estimate of the last
 * approved plan version against what its executors and verifiers spent, per step and in total. Planning
 * (planner and replanner calls) is reported apart: the estimate never covers it.
 */
export const CostSummarySchema = z.object({
  /** The plan version whose estimate this is. */
  version: z.number().int(),
  estimate: PlanEstimateSchema,
  /** Executor and verifier calls (what the estimate covers); `unpricedCalls`: calls at no known price, counted as 0. */
  actual: SpentSchema.extend({ unpricedCalls: z.number().int().nonnegative() }),
  /** Planner and replanner calls. */
  planning: SpentSchema,
  steps: z.array(
    z.object({
      stepId: z.string(),
      estimatedTokens: z.number().int().nonnegative().nullable(),
      estimatedUsd: z.number().nonnegative().nullable(),
      actualTokens: z.number().int().nonnegative(),
      actualUsd: z.number().nonnegative(),
    }),
  ),
});

export type CostSummary = z.infer<typeof CostSummarySchema>;
