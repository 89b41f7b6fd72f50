/**
 * One routed model client for a mission, from its ModelSetup: an adapter per provider some role uses
 * (Anthropic's SDK, the OpenAI-compatible endpoint, VS Code's language models), behind the one model port.
 * Loaded with the engine, so the SDKs are evaluated on the first mission, not at activation.
 */
import { createAnthropicModelClient } from '../../node/model/anthropicClient';
import type { ModelClient } from '../../core/model/modelClient';
import { createOpenAIModelClient } from '../../node/model/openaiClient';
import { createRoutedModelClient, type ProviderClients } from '../../core/model/routedClient';
import type { ModelSetup } from './modelSetup';
import { createVsCodeLmClient } from './vscodeLmClient';

export function createMissionModelClient(setup: ModelSetup): ModelClient {
  const clients: ProviderClients = {};
  if (setup.anthropic)
    clients.anthropic = createAnthropicModelClient({
      apiKey: setup.anthropic.apiKey,
      ...(setup.anthropic.baseURL ? { baseURL: setup.anthropic.baseURL } : {}),
    });
  if (setup.openai)
    clients.openai = createOpenAIModelClient({ baseURL: setup.openai.baseURL, env: {}, ...(setup.openai.apiKey ? { apiKey: setup.openai.apiKey } : {}) });
  if (setup.vscodeLm) clients['vscode-lm'] = createVsCodeLmClient();
  return createRoutedModelClient(clients);
}
