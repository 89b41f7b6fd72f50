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
import { err, ok, type Result } from '../../core/contracts/result';

/** One model a provider offers, as the picker lists it. */
type ModelChoice = { label: string; description?: string; ref: string };

/**
 * A listing in the extension API's shape (api.ts `listModels`: other extensions call it, so it keeps its
 * fields — docs/architecture.md, "Results, not exceptions"). Made in one place, `asModelList`.
 */
export type ModelList = { ok: true; models: ModelChoice[] } | { ok: false; message: string };

export interface ListingAccess {
  anthropic: { apiKey?: string; baseURL?: string };
  openai: { apiKey?: string; baseURL?: string };
}

export async function listModels(provider: ProviderId, access: ListingAccess): Promise<ModelList> {
  const listed = await providerModels(provider, access);
  return listed.ok ? { ok: true, models: listed.value } : { ok: false, message: listed.error };
}

/** What the provider offers, or why it cannot be listed (a message for the user). */
async function providerModels(provider: ProviderId, access: ListingAccess): Promise<Result<ModelChoice[], string>> {
  if (provider === 'vscode-lm') {
    const models = await listLmModels();
    return models.length > 0 ? ok(models) : err('VS Code offers no language model: install and sign in to a provider such as GitHub Copilot Chat.');
  }
  if (provider === 'openai') {
    const out = await listOpenAIModels({
      env: {},
      ...(access.openai.baseURL ? { baseURL: access.openai.baseURL } : {}),
      ...(access.openai.apiKey ? { apiKey: access.openai.apiKey } : {}),
    });
    return out.ok ? ok(out.value.map((ref) => ({ label: ref, ref }))) : out;
  }
  // A server on this machine needs no key (the demo's scripted model, a local proxy).
  const apiKey = access.anthropic.apiKey ?? (anthropicNeedsKey(access.anthropic.baseURL) ? undefined : NO_KEY_NEEDED);
  if (!apiKey) return err('Set the Anthropic API key first to list its models.');
  try {
    const sdk = new Anthropic({
      apiKey,
      ...(access.anthropic.baseURL ? { baseURL: access.anthropic.baseURL } : {}),
      maxRetries: 1,
      timeout: 15_000,
    });
    const models: ModelChoice[] = [];
    for await (const m of sdk.models.list()) models.push({ label: m.id, description: m.display_name, ref: m.id });
    return ok(models);
  } catch (error) {
    return err(listingFailure('Anthropic', access.anthropic.baseURL ?? 'https://api.anthropic.com', error));
  }
}
