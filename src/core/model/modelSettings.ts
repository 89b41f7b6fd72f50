/**
 * Per-role model and sampling settings, and the tier → model map the planner's `modelTier` routes
 * through. Defaults follow the models overview of November 2026 (Haiku 5.5 / Sonnet 5.5 / Opus 5.5).
 *
 * Sampling: models from Opus 4.7 / Sonnet 5 on reject `temperature` (400), so a role's temperature is
 * sent only to models known to accept it; the others get `output_config.effort` instead.
 */
import { z } from 'zod';
import { ModelTierSchema, type ModelTier, type Step } from '../contracts/plan';
import type { ModelEffort, RoleName } from './modelClient';
import { DEFAULT_PRICES, type PriceTable } from './pricing';

export const ModelEffortSchema = z.enum(['low', 'medium', 'high', 'xhigh', 'max']);

export const RoleModelSettingsSchema = z.object({
  /** Tier used when no step says otherwise (the executor follows the step's `modelTier`). */
  tier: ModelTierSchema,
  /** Pins a model id regardless of tier. */
  model: z.string().min(1).optional(),
  temperature: z.number().min(0).max(1),
  effort: ModelEffortSchema,
  maxTokens: z.number().int().positive(),
  /** Pins a prompt version (e.g. "v1"); default is the latest bundled. */
  promptVersion: z.string().optional(),
});

export const ModelSettingsSchema = z.object({
  tiers: z.object({ light: z.string().min(1), standard: z.string().min(1), heavy: z.string().min(1) }),
  planner: RoleModelSettingsSchema,
  replanner: RoleModelSettingsSchema,
  executor: RoleModelSettingsSchema,
  verifier: RoleModelSettingsSchema,
  /** Model turns one executor step may take before it fails with budget_exceeded. */
  maxExecutorTurns: z.number().int().positive(),
  /** Model turns for the planner's and verifier's read-only lookups. */
  maxLookupTurns: z.number().int().positive(),
  /** Cap on each prior step summary given to the replanner (tokens, estimated as chars/4). */
  summaryTokenCap: z.number().int().positive(),
  /** Cap on the rendered current-step context (tokens). */
  stepContextTokenCap: z.number().int().positive(),
  /** A retried step (handoff attempt > 1) runs one model tier up, before the engine turns to replanning. */
  escalateTierOnRetry: z.boolean(),
});

export type RoleModelSettings = z.infer<typeof RoleModelSettingsSchema>;
export type ModelSettings = z.infer<typeof ModelSettingsSchema> & { prices?: PriceTable };

export const DEFAULT_MODEL_SETTINGS: ModelSettings = {
  tiers: { light: 'claude-haiku-5-5', standard: 'claude-sonnet-5-5', heavy: 'claude-opus-5-5' },
  planner: { tier: 'heavy', temperature: 0.4, effort: 'high', maxTokens: 16_000 },
  replanner: { tier: 'heavy', temperature: 0.4, effort: 'high', maxTokens: 16_000 },
  executor: { tier: 'standard', temperature: 0, effort: 'medium', maxTokens: 8_000 },
  verifier: { tier: 'standard', temperature: 0, effort: 'medium', maxTokens: 4_000 },
  maxExecutorTurns: 30,
  maxLookupTurns: 6,
  summaryTokenCap: 200,
  stepContextTokenCap: 4_000,
  escalateTierOnRetry: true,
  prices: DEFAULT_PRICES,
};

/** Merges partial settings over the defaults (one level deep per role). */
export function resolveModelSettings(partial: DeepPartialSettings = {}): ModelSettings {
  const d = DEFAULT_MODEL_SETTINGS;
  return {
    ...d,
    ...partial,
    tiers: { ...d.tiers, ...partial.tiers },
    planner: { ...d.planner, ...partial.planner },
    replanner: { ...d.replanner, ...partial.replanner },
    executor: { ...d.executor, ...partial.executor },
    verifier: { ...d.verifier, ...partial.verifier },
    prices: { ...DEFAULT_PRICES, ...partial.prices },
  } as ModelSettings;
}

export type DeepPartialSettings = Partial<Omit<ModelSettings, 'tiers' | RoleName>> & {
  tiers?: Partial<ModelSettings['tiers']>;
} & { [K in RoleName]?: Partial<RoleModelSettings> };

const PriceBandSchema = z.object({ input: z.number().nonnegative(), output: z.number().nonnegative(), cacheWrite: z.number().nonnegative(), cacheRead: z.number().nonnegative() });

/** What a user may configure (every field optional); validated before it reaches resolveModelSettings. */
export const ModelSettingsInputSchema = z
  .object({
    tiers: ModelSettingsSchema.shape.tiers.partial(),
    planner: RoleModelSettingsSchema.partial(),
    replanner: RoleModelSettingsSchema.partial(),
    executor: RoleModelSettingsSchema.partial(),
    verifier: RoleModelSettingsSchema.partial(),
    maxExecutorTurns: ModelSettingsSchema.shape.maxExecutorTurns,
    maxLookupTurns: ModelSettingsSchema.shape.maxLookupTurns,
    summaryTokenCap: ModelSettingsSchema.shape.summaryTokenCap,
    stepContextTokenCap: ModelSettingsSchema.shape.stepContextTokenCap,
    escalateTierOnRetry: ModelSettingsSchema.shape.escalateTierOnRetry,
    prices: z.record(z.string().min(1), PriceBandSchema.extend({ longPrompt: PriceBandSchema.extend({ aboveInputTokens: z.number().int().positive() }).optional() })),
  })
  .partial()
  .strict();

export type ModelSettingsParse = { ok: true; settings: ModelSettings } | { ok: false; errors: { path: string; message: string }[] };

/** Validates user-supplied settings (e.g. from VS Code configuration) and resolves them over the defaults. */
export function parseModelSettings(input: unknown): ModelSettingsParse {
  const parsed = ModelSettingsInputSchema.safeParse(input ?? {});
  if (!parsed.success) return { ok: false, errors: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
  return { ok: true, settings: resolveModelSettings(parsed.data as DeepPartialSettings) };
}

/** Model prefixes that still accept `temperature`. */
const SAMPLING_MODELS = ['claude-3', 'claude-haiku-4-5', 'claude-sonnet-4-5', 'claude-opus-4-5', 'claude-sonnet-4-6', 'claude-opus-4-6', 'claude-sonnet-4-', 'claude-opus-4-1', 'claude-opus-4-0'];

export function acceptsTemperature(model: string): boolean {
  return SAMPLING_MODELS.some((p) => model.startsWith(p));
}

export interface ResolvedRoleModel {
  model: string;
  temperature?: number;
  effort?: ModelEffort;
  maxTokens: number;
}

/** The concrete model and sampling for one call of `role`, optionally for a step's tier. */
export function modelFor(settings: ModelSettings, role: RoleName, tier?: ModelTier): ResolvedRoleModel {
  const r = settings[role];
  const model = r.model ?? settings.tiers[tier ?? r.tier];
  return acceptsTemperature(model)
    ? { model, temperature: r.temperature, maxTokens: r.maxTokens }
    : { model, effort: r.effort, maxTokens: r.maxTokens };
}

const TIER_ORDER: ModelTier[] = ['light', 'standard', 'heavy'];

/** The next tier up, or undefined at the top. */
export function nextTier(tier: ModelTier): ModelTier | undefined {
  return TIER_ORDER[TIER_ORDER.indexOf(tier) + 1];
}

/** The tier an executor attempt runs on: the step's own, or one up for a retry when the settings say so. */
export function tierForAttempt(settings: ModelSettings, tier: ModelTier, attempt: number): ModelTier {
  return attempt > 1 && settings.escalateTierOnRetry ? (nextTier(tier) ?? tier) : tier;
}

/**
 * For the engine: the same step one tier up, to retry a failed step before replanning; undefined when the
 * step already runs on the top tier.
 */
export function withNextTier(step: Step): Step | undefined {
  const up = nextTier(step.modelTier);
  return up === undefined ? undefined : { ...step, modelTier: up };
}
