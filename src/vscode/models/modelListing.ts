/**
 * What each provider offers, for "Choose Model": the endpoint's `GET /v1/models`, VS Code's
 * `selectChatModels`, Anthropic's model list. It needs the model SDKs, so it ships in dist/engine.js
 * (engineEntry.ts re-exports it) and the host loads it on first use.
 */
import Anthropic from '@anthropic-ai/sdk';
import { listOpenAIModels } from '../../node/model/openaiClient';
import { anthropicNeedsKey, NO_KEY_NEEDED, type ProviderId } from '../../core/model/providers';
import { listLmModels } from './vscodeLmClient';
import { listingFailure } from './listingFailure';

export type ModelList = { ok: true; models: { label: string; description?: string; ref: string }[] } | { ok: false; message: string };

export interface ListingAccess {
  anthropic: { apiKey?: string; baseURL?: string };
  openai: { apiKey?: string; baseURL?: string };
}

export async function listModels(provider: ProviderId, access: ListingAccess): Promise<ModelList> {
  if (provider === 'vscode-lm') {
    const models = await listLmModels();
    return models.length > 0
      ? { ok: true, models }
      : { ok: false, message: 'VS Code offers no language model: install and sign in to a provider such as GitHub Copilot Chat.' };
  }
  if (provider === 'openai') {
    const out = await listOpenAIModels({
      env: {},
      ...(access.openai.baseURL ? { baseURL: access.openai.baseURL } : {}),
      ...(access.openai.apiKey ? { apiKey: access.openai.apiKey } : {}),
    });
    return out.ok ? { ok: true, models: out.models.map((ref) => ({ label: ref, ref })) } : out;
  }
  // A server on this machine needs no key (the demo's scripted model, a local proxy).
  const apiKey = access.anthropic.apiKey ?? (anthropicNeedsKey(access.anthropic.baseURL) ? undefined : NO_KEY_NEEDED);
  if (!apiKey) return { ok: false, message: 'Set the Anthropic API key first to list its models.' };
  try {
    const sdk = new Anthropic({
      apiKey,
      ...(access.anthropic.baseURL ? { baseURL: access.anthropic.baseURL } : {}),
      maxRetries: 1,
      timeout: 15_000,
    });
    const models: { label: string; description?: string; ref: string }[] = [];
    for await (const m of sdk.models.list()) models.push({ label: m.id, description: m.display_name, ref: m.id });
    return { ok: true, models };
  } catch (error) {
    return { ok: false, message: listingFailure('Anthropic', access.anthropic.baseURL ?? 'https://api.anthropic.com', error) };
  }
}
