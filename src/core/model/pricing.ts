/**
 * Prices per million tokens, and the cost of one call from its `usage`. The table is data: settings may
 * replace or extend it (prices change; a stale table should be a settings edit, not a release).
 *
 * Keys: a bare model id (or id prefix) is an Anthropic model; `provider:model` names another provider's
 * (`openai:gpt-4.1`). A gateway serving a model under another name is priced only when the user adds its
 * name: a guess would be worse than "unknown price".
 *
 * Anthropic figures as published on the models pages in November 2026 (USD per MTok): cache reads are
 * billed at 10% of input, 5-minute cache writes at 125%; Haiku 5.5 is priced in two bands by prompt size.
 * OpenAI figures as published on its pricing page in 2025: cached input as listed, no cache-write charge.
 */
import type { Usage } from '../contracts/traceEvents';
import type { ProviderId } from './providers';

export interface PriceBand {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

export interface ModelPrice extends PriceBand {
  /** A second band for prompts above `aboveInputTokens` (total input incl. cache), if the model has one. */
  longPrompt?: PriceBand & { aboveInputTokens: number };
}

/** Keys are model ids or id prefixes; the longest matching key wins (dated snapshots match their alias). */
export type PriceTable = Record<string, ModelPrice>;

const band = (input: number, output: number): PriceBand => ({
  input,
  output,
  cacheWrite: input * 1.25,
  cacheRead: input * 0.1,
});

/** OpenAI bills no cache writes; cached input has its own price. */
const openai = (input: number, cachedInput: number, output: number): PriceBand => ({ input, output, cacheWrite: input, cacheRead: cachedInput });

export const DEFAULT_PRICES: PriceTable = {
  'openai:gpt-5': openai(1.25, 0.125, 10),
  'openai:gpt-5-mini': openai(0.25, 0.025, 2),
  'openai:gpt-5-nano': openai(0.05, 0.005, 0.4),
  'openai:gpt-4.1': openai(2, 0.5, 8),
  'openai:gpt-4.1-mini': openai(0.4, 0.1, 1.6),
  'openai:gpt-4.1-nano': openai(0.1, 0.025, 0.4),
  'openai:gpt-4o': openai(2.5, 1.25, 10),
  'openai:gpt-4o-mini': openai(0.15, 0.075, 0.6),
  'openai:o3': openai(2, 0.5, 8),
  'openai:o4-mini': openai(1.1, 0.275, 4.4),
  'claude-haiku-5-5': { ...band(0.1, 0.5), longPrompt: { ...band(0.5, 2.5), aboveInputTokens: 100_000 } },
  'claude-sonnet-5-5': band(2, 10),
  'claude-opus-5-5': band(4, 20),
  'claude-fable-5-2': band(8, 40),
  'claude-fable-5-1': band(10, 50),
  'claude-sonnet-5': band(2, 10),
  'claude-opus-5': band(5, 25),
  'claude-opus-4-8': band(5, 25),
  'claude-opus-4-7': band(5, 25),
  'claude-opus-4-6': band(5, 25),
  'claude-sonnet-4-6': band(3, 15),
  'claude-opus-4-5': band(5, 25),
  'claude-sonnet-4-5': band(3, 15),
  'claude-haiku-4-5': band(1, 5),
};

/** The longest key that names `model` (exactly, or as a prefix before a "-suffix") for `provider`. */
export function priceFor(model: string, table: PriceTable = DEFAULT_PRICES, provider: ProviderId = 'anthropic'): ModelPrice | undefined {
  let best: string | undefined;
  let bestLength = -1;
  for (const key of Object.keys(table)) {
    const colon = key.indexOf(':');
    const keyProvider = colon > 0 && /^[a-z-]+$/.test(key.slice(0, colon)) ? key.slice(0, colon) : 'anthropic';
    const id = keyProvider === 'anthropic' && colon <= 0 ? key : key.slice(colon + 1);
    if (keyProvider !== provider) continue;
    if ((model === id || model.startsWith(`${id}-`)) && id.length > bestLength) {
      best = key;
      bestLength = id.length;
    }
  }
  return best === undefined ? undefined : table[best];
}

export interface CallCost {
  costUsd: number;
  /** false when the model is not in the table (cost reported as 0 — say so, never guess). */
  priced: boolean;
}

export function costOf(model: string, usage: Usage, table: PriceTable = DEFAULT_PRICES, provider: ProviderId = 'anthropic'): CallCost {
  const price = priceFor(model, table, provider);
  if (!price) return { costUsd: 0, priced: false };
  const promptTokens = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const b: PriceBand = price.longPrompt && promptTokens > price.longPrompt.aboveInputTokens ? price.longPrompt : price;
  const micro = usage.inputTokens * b.input + usage.outputTokens * b.output + usage.cacheWriteTokens * b.cacheWrite + usage.cacheReadTokens * b.cacheRead;
  return { costUsd: micro / 1_000_000, priced: true };
}

/** Sums usage; used for per-role, per-step and per-mission totals. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
