/**
 * What a mission needs to reach its models, gathered on the host when it starts: the validated provider
 * settings and the key of every provider a role uses. A missing key is refused here, before any
 * planning, with the provider named (reason `no_api_key`, so the surfaces offer "Set API key"); keys go
 * to the model clients only, never into the recorded settings.
 */
import type { DeepPartialSettings } from '../../core/model/modelSettings';
import { anthropicNeedsKey, NO_KEY_NEEDED, type ProviderId } from '../../core/model/providers';
import type { Refusal } from '../mission/engineBridge';
import { err, ok, type Result } from '../../core/contracts/result';
import { plannerDestination } from './destination';
import { openaiNeedsKey, readProviderSettings } from './providerSettings';

export interface ModelSetup {
  /** Providers and models per role and tier (recorded in the trace; no keys, no URLs). */
  models: DeepPartialSettings;
  /**
   * Where the planner's requests go, in words for the user ("claude-opus-5-5 at api.anthropic.com, the
   * default"): shown when planning starts, so a base URL that did not apply is never silent.
   */
  destination: string;
  anthropic?: { apiKey: string; baseURL?: string };
  openai?: { apiKey?: string; baseURL: string };
  vscodeLm: boolean;
}

interface KeySource {
  get(): string | undefined;
}

export type KeySources = Record<'anthropic' | 'openai', KeySource>;

const KEY_COMMAND = 'Plan & Execute: Set API Key';

/** The setup, or why there is none; `provider`: the one whose API key is missing. */
export function prepareModelSetup(keys: KeySources): Result<ModelSetup, Refusal & { provider?: ProviderId }> {
  const read = readProviderSettings();
  if (!read.ok) return err({ reason: 'model_settings', message: read.message });
  const s = read.value;
  const setup: ModelSetup = { models: s.models, vscodeLm: s.providers.includes('vscode-lm'), destination: plannerDestination(s) };
  if (s.providers.includes('anthropic')) {
    // A server on this machine (a local proxy, the demo's scripted model) needs no key.
    const apiKey = keys.anthropic.get() || (anthropicNeedsKey(s.anthropicBaseURL) ? undefined : NO_KEY_NEEDED);
    if (!apiKey) return err({ reason: 'no_api_key', provider: 'anthropic', message: `Set your Anthropic API key first ("${KEY_COMMAND}").` });
    setup.anthropic = { apiKey, ...(s.anthropicBaseURL ? { baseURL: s.anthropicBaseURL } : {}) };
  }
  if (s.providers.includes('openai')) {
    const apiKey = keys.openai.get();
    if (!apiKey && openaiNeedsKey(s.openaiBaseURL)) {
      return err({
        reason: 'no_api_key',
        provider: 'openai',
        message: `Set your API key for ${s.openaiBaseURL} first ("${KEY_COMMAND}"), or point planExecute.openai.baseUrl at a local server.`,
      });
    }
    setup.openai = { baseURL: s.openaiBaseURL, ...(apiKey ? { apiKey } : {}) };
  }
  return ok(setup);
}

/** The provider whose key is missing for the current settings, if any (for "Set API key"). */
export function providerMissingKey(keys: KeySources): ProviderId | undefined {
  const out = prepareModelSetup(keys);
  return !out.ok && out.error.reason === 'no_api_key' ? out.error.provider : undefined;
}
