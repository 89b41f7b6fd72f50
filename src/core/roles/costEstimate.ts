/**
 * What a plan is expected to cost before it runs (docs/plans.md, "The estimate"): per step, the executor's
 * calls on the model its tier routes to and one verifier call per `review` check, in tokens and money.
 *
 * How, for one step (the constants are ESTIMATE_RULES):
 *  1. handoff = (title, why, instructions, expected output, binding, evidence, authority, the plan's goal and
 *     constraints: characters ÷ 4) + 600 tokens per dependency (their results reach the step);
 *  2. base = the executor's system prompt and tool definitions (characters ÷ 4) + handoff;
 *  3. the executor makes `turns[effort]` calls; call t (from 0) sends base + t × growth[effort] tokens and
 *     answers output[effort] tokens. Call 0 writes its prompt to the cache; call t > 0 reads call t−1's
 *     prompt from the cache and writes the growth — as the rolling cache breakpoint (roles/modelCall.ts)
 *     makes the provider bill it;
 *  4. each review check is one verifier call: its system prompt and tools + handoff + the step's changes
 *     (reviewChanges[effort]) in, reviewOutput out, all at the input price;
 *  5. each call is priced with `costOf` (model/pricing.ts) on the model the router resolves (modelFor);
 *     a provider on this machine costs nothing; a model with no price makes the step's money unknown.
 * Not included: the planning already spent, retries, replans and the verifier's own lookups.
 */
import type { Plan, Step } from '../contracts/plan';
import { totalEstimate, type EstimatePricing, type PlanEstimate, type StepEstimate } from '../contracts/estimate';
import type { Usage } from '../contracts/traceEvents';
import { costOf, priceFor } from '../model/pricing';
import { modelFor, type ModelSettings, type ResolvedRoleModel } from '../model/modelSettings';
import type { ProviderId } from '../model/providers';
import { describeCheck } from '../plan/describe';
import { promptFor } from './prompts/registry';
import { EXECUTOR_TOOLS, VERIFIER_TOOLS } from './toolDefs';

/** The rule of thumb's constants, by the step's effort where they vary (docs/plans.md names each). */
export const ESTIMATE_RULES = {
  charsPerToken: 4,
  tokensPerDependency: 600,
  turns: { small: 4, medium: 8, large: 14 },
  growth: { small: 700, medium: 1_000, large: 1_400 },
  output: { small: 250, medium: 350, large: 450 },
  reviewChanges: { small: 1_500, medium: 4_000, large: 8_000 },
  reviewOutput: 400,
} as const;

export interface EstimateOptions {
  /** Providers served on this machine (a loopback endpoint): their calls cost nothing. */
  localProviders?: readonly ProviderId[];
}

const tokensOf = (text: string): number => Math.ceil(text.length / ESTIMATE_RULES.charsPerToken);

/** Every plan step's estimate and their total. */
export function estimatePlan(plan: Plan, settings: ModelSettings, options: EstimateOptions = {}): PlanEstimate {
  const executorFixed = tokensOf(promptText('executor', settings.executor.promptVersion) + JSON.stringify(EXECUTOR_TOOLS));
  const verifierFixed = tokensOf(promptText('verifier', settings.verifier.promptVersion) + JSON.stringify(VERIFIER_TOOLS));
  const shared = `${plan.goal}\n${plan.constraints.join('\n')}`;
  return totalEstimate(plan.steps.map((step) => estimateStep(step, shared, { executorFixed, verifierFixed }, settings, options)));
}

function promptText(role: 'executor' | 'verifier', version: string | undefined): string {
  const prompt = promptFor(role, version);
  return prompt.ok ? prompt.value.text : '';
}

/** The text about a step that reaches its executor, besides the prompt. */
function stepText(step: Step): string {
  const a = step.authority;
  return [
    step.title,
    step.why,
    step.instructions,
    step.expectedOutput,
    step.binding.prerequisite,
    step.binding.fallback,
    step.binding.consequence,
    step.evidence.description,
    ...step.evidence.checks.map(describeCheck),
    ...a.read,
    ...a.edit,
    ...a.commands,
    ...a.mcp,
  ].join('\n');
}

interface Priced {
  tokens: number;
  costUsd: number;
  pricing: EstimatePricing;
}

function estimateStep(
  step: Step,
  shared: string,
  fixed: { executorFixed: number; verifierFixed: number },
  settings: ModelSettings,
  options: EstimateOptions,
): StepEstimate {
  const r = ESTIMATE_RULES;
  const handoff = tokensOf(`${stepText(step)}\n${shared}`) + r.tokensPerDependency * step.dependsOn.length;
  const base = fixed.executorFixed + handoff;
  const growth = r.growth[step.effort];
  const output = r.output[step.effort];
  const executorCalls: Usage[] = Array.from({ length: r.turns[step.effort] }, (_, t) =>
    t === 0
      ? { inputTokens: 0, cacheWriteTokens: base, cacheReadTokens: 0, outputTokens: output }
      : { inputTokens: 0, cacheWriteTokens: growth, cacheReadTokens: base + (t - 1) * growth, outputTokens: output },
  );
  const reviews = step.evidence.checks.filter((c) => c.kind === 'review').length;
  const review: Usage = {
    inputTokens: fixed.verifierFixed + handoff + r.reviewChanges[step.effort],
    cacheWriteTokens: 0,
    cacheReadTokens: 0,
    outputTokens: r.reviewOutput,
  };
  const executor = modelFor(settings, 'executor', step.modelTier);
  const verifier = modelFor(settings, 'verifier');
  const parts = [
    priceCalls(executor, executorCalls, settings, options),
    ...(reviews > 0 ? [priceCalls(verifier, Array<Usage>(reviews).fill(review), settings, options)] : []),
  ];
  const unknown = parts.some((p) => p.pricing === 'unknown');
  const pricing: EstimatePricing = unknown ? 'unknown' : parts.every((p) => p.pricing === 'local') ? 'local' : 'priced';
  return {
    stepId: step.id,
    tokens: parts.reduce((n, p) => n + p.tokens, 0),
    costUsd: unknown ? null : parts.reduce((n, p) => n + p.costUsd, 0),
    pricing,
    models: [...new Set([modelName(executor), ...(reviews > 0 ? [modelName(verifier)] : [])])],
  };
}

function priceCalls(m: ResolvedRoleModel, calls: readonly Usage[], settings: ModelSettings, options: EstimateOptions): Priced {
  const tokens = calls.reduce((n, u) => n + u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens + u.outputTokens, 0);
  if (options.localProviders?.includes(m.provider)) return { tokens, costUsd: 0, pricing: 'local' };
  if (!m.model || !priceFor(m.model, settings.prices, m.provider)) return { tokens, costUsd: 0, pricing: 'unknown' };
  return { tokens, costUsd: calls.reduce((usd, u) => usd + costOf(m.model, u, settings.prices, m.provider).costUsd, 0), pricing: 'priced' };
}

/** The model as a person configures it: bare for Anthropic, `provider:model` otherwise. */
function modelName(m: ResolvedRoleModel): string {
  const name = m.model || '(no model set)';
  return m.provider === 'anthropic' ? name : `${m.provider}:${name}`;
}
