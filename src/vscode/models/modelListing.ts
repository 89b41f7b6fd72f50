/**
 * What each provider offers, for "Choose Model": the endpoint's `GET /v1/models`, VS Code's
 * `selectChatModels`, Anthropic's model list. It needs the model SDKs, so it ships in dist/engine.js
 * (engineEntry.ts re-exports it) and the host loads it on first use.
 */
import Anthropic from '@anthropic-ai/sdk';
import { listOpenAIModels } from '../../core/model/openaiClient';
import type { ProviderId } from '../../core/model/providers';
import { listLmModels } from './vscodeLmClient';

export type ModelList = { ok: true; models: { label: string; description?: string; ref: string }[] } | { ok: false; message: string };

export interface ListingAccess {
  anthropic: { apiKey?: string; baseURL?: string };
  openai: { apiKey?: string; baseURL?: string };
}

export async function listModels(provider: ProviderId, access: ListingAccess): Promise<ModelList> {
  if (provider === 'vscode-lm') {
    const models = await listLmModels();
    return models.length > 0 ? { ok: true, models } : { ok: false, message: 'VS Code offers no language model: install and sign in to a provider such as GitHub Copilot Chat.' };
  }
  if (provider === 'openai') {
    const out = await listOpenAIModels({ env: {}, ...(access.openai.baseURL ? { baseURL: access.openai.baseURL } : {}), ...(access.openai.apiKey ? { apiKey: access.openai.apiKey } : {}) });
    return out.ok ? { ok: true, models: out.models.map((ref) => ({ label: ref, ref })) } : out;
  }
  if (!access.anthropic.apiKey) return { ok: false, message: 'Set the Anthropic API key first to list its models.' };
  try {
    const sdk = new Anthropic({ apiKey: access.anthropic.apiKey, ...(access.anthropic.baseURL ? { baseURL: access.anthropic.baseURL } : {}), maxRetries: 1, timeout: 15_000 });
    const models: { label: string; description?: string; ref: string }[] = [];
    for await (const m of sdk.models.list()) models.push({ label: m.id, description: m.display_name, ref: m.id });
    return { ok: true, models };
  } catch (error) {
    return { ok: false, message: listingFailure('Anthropic', access.anthropic.baseURL ?? 'https://api.anthropic.com', error) };
  }
}

/**
 * Why a model list could not be had, in words — never the raw response body (`404 {"type":"error",…}`):
 * the endpoint, what it answered, and that a model name can still be typed in.
 */
export function listingFailure(provider: string, baseURL: string, error: unknown): string {
  const where = hostOf(baseURL);
  const status = typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : undefined;
  const typeIn = 'Type a model name instead.';
  if (status === 404) return `${where} does not list its models (it has no model list). ${typeIn}`;
  if (status === 401 || status === 403) return `${where} refused the key when asked for ${provider}'s models (${status}). Set the key with "Plan & Execute: Set API Key", or type a model name.`;
  if (status !== undefined) return `${where} answered ${status} when asked for ${provider}'s models. ${typeIn}`;
  return `Could not reach ${where} to list ${provider}'s models. ${typeIn}`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
