/**
 * The CLI's model setup: from `--provider/--base-url/--model/--<role>-model` and the environment to the
 * model settings the roles are built with and one routed client over the providers they use. Errors are
 * values (a missing key or model is a usage error naming what to set), never a stack trace.
 *
 * Endpoints: `--base-url` is the chosen provider's; otherwise ANTHROPIC_BASE_URL / OPENAI_BASE_URL, else the
 * public APIs. Keys (KEY_NOTES in cliArgs.ts says the same to the user): ANTHROPIC_API_KEY when a role uses
 * Anthropic, unless its endpoint is on this machine (a local server or proxy: a placeholder is sent);
 * OPENAI_API_KEY only for OpenAI's own API (local servers and gateways may need none).
 */
import { createAnthropicModelClient } from './model/anthropicClient';
import type { ModelClient } from '../core/model/modelClient';
import { parseModelSettings, providersInUse, routingProblems, type DeepPartialSettings } from '../core/model/modelSettings';
import { createOpenAIModelClient } from './model/openaiClient';
import { anthropicNeedsKey, isLoopbackUrl, NO_KEY_NEEDED, OPENAI_DEFAULT_BASE_URL, type ProviderId } from '../core/model/providers';
import { createRoutedModelClient, type ProviderClients } from '../core/model/routedClient';
import type { CliModels } from './cliArgs';
import { err, ok, type Result } from '../core/contracts/result';

/** `localProviders`: providers served on this machine (a loopback OpenAI-compatible endpoint, or Anthropic's without a key): no cost. */
export type CliModelSetup = Result<{ client: ModelClient; models: DeepPartialSettings; localProviders: ProviderId[] }, string>;

/** The model settings the flags ask for (only what was given; the rest are the defaults). */
export function modelSettingsFromFlags(flags: CliModels): DeepPartialSettings {
  const role = (model: string | undefined): { model: string } | undefined => (model ? { model } : undefined);
  const planner = role(flags.plannerModel);
  const executor = role(flags.executorModel);
  const verifier = role(flags.verifierModel);
  return {
    ...(flags.provider ? { provider: flags.provider } : {}),
    ...(flags.model ? { model: flags.model } : {}),
    ...(planner ? { planner, replanner: planner } : {}),
    ...(executor ? { executor } : {}),
    ...(verifier ? { verifier } : {}),
  };
}

export function cliModelSetup(flags: CliModels, env: Record<string, string | undefined>): CliModelSetup {
  const models = modelSettingsFromFlags(flags);
  const parsed = parseModelSettings(models);
  if (!parsed.ok) return err(`bad model settings: ${parsed.error.map((e) => `${e.path || '(settings)'}: ${e.message}`).join('; ')}`);
  const problems = routingProblems(parsed.value);
  if (problems.length > 0) return err(`${problems.join('; ')}: pass --model NAME (one model for every role) or a model per role`);
  const clients: ProviderClients = {};
  const localProviders: ProviderId[] = [];
  for (const provider of providersInUse(parsed.value)) {
    if (provider === 'vscode-lm') return err("vscode-lm models work only inside VS Code (VS Code's language models are not reachable from a terminal)");
    if (provider === 'anthropic') {
      const baseURL = (flags.provider ?? 'anthropic') === 'anthropic' && flags.baseUrl ? flags.baseUrl : env.ANTHROPIC_BASE_URL;
      const apiKey = env.ANTHROPIC_API_KEY || (anthropicNeedsKey(baseURL) ? undefined : NO_KEY_NEEDED);
      if (!apiKey) {
        return err(
          `set ANTHROPIC_API_KEY: a role uses Anthropic at ${baseURL ?? 'the public API'} (a server on this machine needs none: --base-url http://127.0.0.1:PORT)`,
        );
      }
      // A server on this machine used without a key is a local model, whatever name the router gives it: no cost.
      if (apiKey === NO_KEY_NEEDED) localProviders.push('anthropic');
      clients.anthropic = createAnthropicModelClient({ apiKey, ...(baseURL ? { baseURL } : {}) });
    }
    if (provider === 'openai') {
      const baseURL = (flags.provider === 'openai' && flags.baseUrl) || env.OPENAI_BASE_URL || OPENAI_DEFAULT_BASE_URL;
      if (!URL.canParse(baseURL)) return err(`the OpenAI-compatible base URL is not a URL: "${baseURL}"`);
      if (!env.OPENAI_API_KEY && /(^|\.)openai\.com$/.test(new URL(baseURL).hostname)) {
        return err(`set OPENAI_API_KEY for ${baseURL} (a local server such as Ollama needs none: pass --base-url http://localhost:11434/v1)`);
      }
      if (isLoopbackUrl(baseURL)) localProviders.push('openai');
      clients.openai = createOpenAIModelClient({ baseURL, env, ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}) });
    }
  }
  return ok({ client: createRoutedModelClient(clients), models, localProviders });
}
