/**
 * Per-role model and sampling settings, and the tier → model map the planner's `modelTier` routes
 * through. Every model is a model reference (`provider:model`, or a bare model of `provider`), so roles
 * and tiers may mix providers: a strong planner on one, a cheap or local executor on another.
 *
 * Resolution for one call of a role (at a step's tier for the executor): the role's pinned `model`, else
 * the tier's model. Tiers default to the one `model` when it is set, else to the provider's defaults —
 * Anthropic's follow the models overview of November 2026 (Haiku 5.5 / Sonnet 5.5 / Opus 5.5); the other
 * providers have none, so `model` (or every tier) must be set: `routingProblems` says what is missing.
 *
 * Sampling: Claude models from Opus 4.7 / Sonnet 5 on reject `temperature` (400), so a role's temperature
 * is sent only to models known to accept it; the others get `output_config.effort` instead. OpenAI's
 * reasoning models (o-series, gpt-5) take `reasoning_effort` instead of temperature; VS Code's language
 * models take neither.
 */
import { z } from 'zod';
import { ModelTierSchema, type ModelTier, type Step } from '../contracts/plan';
import type { ModelEffort, RoleName } from './modelClient';
import { DEFAULT_PRICES, type PriceTable } from './pricing';
import { parseModelRef, ProviderIdSchema, type ProviderId } from './providers';
import { err, ok, type Result } from '../contracts/result';

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
  /** The provider of every bare model name below. */
  provider: ProviderIdSchema,
  /** Model reference per tier; '' when the provider has no default and none was set. */
  tiers: z.object({ light: z.string(), standard: z.string(), heavy: z.string() }),
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

export const ANTHROPIC_TIERS: ModelSettings['tiers'] = { light: 'claude-haiku-5-5', standard: 'claude-sonnet-5-5', heavy: 'claude-opus-5-5' };

export const DEFAULT_MODEL_SETTINGS: ModelSettings = {
  provider: 'anthropic',
  tiers: ANTHROPIC_TIERS,
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

function defaultTiers(provider: ProviderId, model: string | undefined): ModelSettings['tiers'] {
  if (model) return { light: model, standard: model, heavy: model };
  return provider === 'anthropic' ? ANTHROPIC_TIERS : { light: '', standard: '', heavy: '' };
}

/** Merges partial settings over the defaults (one level deep per role). `model` sets every tier at once. */
export function resolveModelSettings(partial: DeepPartialSettings = {}): ModelSettings {
  const d = DEFAULT_MODEL_SETTINGS;
  const { model, ...rest } = partial;
  const provider = partial.provider ?? d.provider;
  return {
    ...d,
    ...rest,
    provider,
    tiers: { ...defaultTiers(provider, model), ...partial.tiers },
    planner: { ...d.planner, ...partial.planner },
    replanner: { ...d.replanner, ...partial.replanner },
    executor: { ...d.executor, ...partial.executor },
    verifier: { ...d.verifier, ...partial.verifier },
    prices: { ...DEFAULT_PRICES, ...partial.prices },
  } as ModelSettings;
}

export type DeepPartialSettings = Partial<Omit<ModelSettings, 'tiers' | RoleName>> & {
  tiers?: Partial<ModelSettings['tiers']>;
  /** One model (reference) for every role and tier; a tier or role set explicitly still wins. */
  model?: string;
} & { [K in RoleName]?: Partial<RoleModelSettings> };

const PriceBandSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
});

/** What a user may configure (every field optional); validated before it reaches resolveModelSettings. */
export const ModelSettingsInputSchema = z
  .object({
    provider: ProviderIdSchema,
    model: z.string().min(1),
    tiers: z.object({ light: z.string().min(1), standard: z.string().min(1), heavy: z.string().min(1) }).partial(),
    planner: RoleModelSettingsSchema.partial(),
    replanner: RoleModelSettingsSchema.partial(),
    executor: RoleModelSettingsSchema.partial(),
    verifier: RoleModelSettingsSchema.partial(),
    maxExecutorTurns: ModelSettingsSchema.shape.maxExecutorTurns,
    maxLookupTurns: ModelSettingsSchema.shape.maxLookupTurns,
    summaryTokenCap: ModelSettingsSchema.shape.summaryTokenCap,
    stepContextTokenCap: ModelSettingsSchema.shape.stepContextTokenCap,
    escalateTierOnRetry: ModelSettingsSchema.shape.escalateTierOnRetry,
    prices: z.record(
      z.string().min(1),
      PriceBandSchema.extend({ longPrompt: PriceBandSchema.extend({ aboveInputTokens: z.number().int().positive() }).optional() }),
    ),
  })
  .partial()
  .strict();

export type ModelSettingsParse = Result<ModelSettings, { path: string; message: string }[]>;

/** Validates user-supplied settings (e.g. from VS Code configuration) and resolves them over the defaults. */
export function parseModelSettings(input: unknown): ModelSettingsParse {
  const parsed = ModelSettingsInputSchema.safeParse(input ?? {});
  if (!parsed.success) return err(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  return ok(resolveModelSettings(parsed.data as DeepPartialSettings));
}

/** Model prefixes that still accept `temperature`. */
const SAMPLING_MODELS = [
  'claude-3',
  'claude-haiku-4-5',
  'claude-sonnet-4-5',
  'claude-opus-4-5',
  'claude-sonnet-4-6',
  'claude-opus-4-6',
  'claude-sonnet-4-',
  'claude-opus-4-1',
  'claude-opus-4-0',
];

export function acceptsTemperature(model: string): boolean {
  return SAMPLING_MODELS.some((p) => model.startsWith(p));
}

/** OpenAI models that reason (and reject temperature): the o-series and gpt-5. */
export function isOpenAIReasoningModel(model: string): boolean {
  return /^(o\d|gpt-5)/.test(model.replace(/^.*\//, ''));
}

export interface ResolvedRoleModel {
  provider: ProviderId;
  /** '' when nothing names a model for this role and tier (see routingProblems). */
  model: string;
  temperature?: number;
  effort?: ModelEffort;
  maxTokens: number;
}

/** The concrete provider, model and sampling for one call of `role`, optionally for a step's tier. */
export function modelFor(settings: ModelSettings, role: RoleName, tier?: ModelTier): ResolvedRoleModel {
  const r = settings[role];
  const { provider, model } = parseModelRef(r.model ?? settings.tiers[tier ?? r.tier], settings.provider);
  const base = { provider, model, maxTokens: r.maxTokens };
  if (provider === 'vscode-lm') return base;
  if (provider === 'openai') return isOpenAIReasoningModel(model) ? { ...base, effort: r.effort } : { ...base, temperature: r.temperature };
  return acceptsTemperature(model) ? { ...base, temperature: r.temperature } : { ...base, effort: r.effort };
}

/** Every provider some role or tier routes to (so a front end knows which keys and endpoints it needs). */
export function providersInUse(settings: ModelSettings): ProviderId[] {
  const used = new Set<ProviderId>();
  for (const role of ['planner', 'replanner', 'executor', 'verifier'] as const) {
    for (const tier of ModelTierSchema.options) used.add(modelFor(settings, role, tier).provider);
  }
  return [...used];
}

/** What is missing before a mission can run: roles or tiers that name no model. Empty when every call resolves. */
export function routingProblems(settings: ModelSettings): string[] {
  const problems: string[] = [];
  for (const tier of ModelTierSchema.options) {
    const m = modelFor(settings, 'executor', tier);
    if (!m.model) problems.push(`no model for the ${tier} tier on ${m.provider}`);
  }
  for (const role of ['planner', 'replanner', 'verifier'] as const) {
    const m = modelFor(settings, role);
    if (!m.model && !problems.some((p) => p.includes(`${settings[role].tier} tier`))) problems.push(`no model for the ${role} on ${m.provider}`);
  }
  return problems;
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
