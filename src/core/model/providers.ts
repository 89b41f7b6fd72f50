/**
 * The model providers a mission can use, and how a model is named across them. A model reference is
 * `provider:model` or a bare `model` (the default provider's). Only a known provider id before the first
 * colon counts as a prefix, so Ollama tags (`qwen2.5-coder:7b`) and OpenRouter ids
 * (`anthropic/claude-sonnet-4.5`) stay whole model names.
 */
import { z } from 'zod';

export const PROVIDER_IDS = ['anthropic', 'openai', 'vscode-lm'] as const;
export const ProviderIdSchema = z.enum(PROVIDER_IDS);
export type ProviderId = z.infer<typeof ProviderIdSchema>;

/** OpenAI's own API: the OpenAI-compatible adapter's endpoint when no base URL is set. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface ModelRef {
  provider: ProviderId;
  model: string;
}

/** What a person calls each provider in messages. */
export const PROVIDER_LABELS: Record<ProviderId, string> = {
  anthropic: 'Anthropic',
  openai: 'the OpenAI-compatible endpoint',
  'vscode-lm': "VS Code's language models",
};

export function isProviderId(value: string): value is ProviderId {
  return (PROVIDER_IDS as readonly string[]).includes(value);
}

/** `openai:gpt-4.1` → openai / gpt-4.1; `gpt-4.1` → the default provider's gpt-4.1. */
export function parseModelRef(text: string, defaultProvider: ProviderId): ModelRef {
  const colon = text.indexOf(':');
  if (colon > 0) {
    const head = text.slice(0, colon);
    if (isProviderId(head)) return { provider: head, model: text.slice(colon + 1) };
  }
  return { provider: defaultProvider, model: text };
}

export function formatModelRef(ref: ModelRef): string {
  return `${ref.provider}:${ref.model}`;
}

/** True for a base URL on this machine (Ollama, LM Studio, a local vLLM): such calls cost nothing. */
export function isLoopbackUrl(url: string | undefined): boolean {
  if (!url) return false;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host) || host.endsWith('.localhost');
}

/** An Anthropic-shaped endpoint needs an API key unless it is on this machine (a local server or proxy). */
export function anthropicNeedsKey(baseURL: string | undefined): boolean {
  return !isLoopbackUrl(baseURL);
}

/** Sent as the key to a server on this machine that needs none (the Anthropic SDK always sends one). */
export const NO_KEY_NEEDED = 'no-key-needed-on-this-machine';
