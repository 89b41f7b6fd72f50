/**
 * A scripted model on either provider, for tests that drive the real CLI: the scriptable Messages server
 * (Anthropic) or Chat Completions server (OpenAI-compatible) playing one scenario, and what the CLI needs to
 * reach it — the environment (key, base URL) and the flags (`--provider openai --base-url … --model …`).
 * One scenario plays the same mission on both (the servers share scenario.ts).
 */
import { startMessagesServer } from './messages-server/server';
import type { RecordedRequest, ScenarioInput } from './messages-server/scenario';
import { startChatServer } from './openai-server/server';

export type ScriptedProvider = 'anthropic' | 'openai';

export interface ScriptedModel {
  provider: ScriptedProvider;
  url: string;
  /** Every request, in the Messages shape (role, turn, rule that answered). */
  requests: readonly Pick<RecordedRequest, 'role' | 'turn' | 'rule' | 'body'>[];
  /** For the CLI's environment. */
  env: Record<string, string>;
  /** For the CLI's command line. */
  args: string[];
  close(): Promise<void>;
}

/** The model name the OpenAI-compatible server is asked for (a loopback endpoint: priced as local, no cost). */
const SCRIPTED_OPENAI_MODEL = 'scripted-coder';

export async function startScriptedModel(provider: ScriptedProvider, scenario: ScenarioInput): Promise<ScriptedModel> {
  if (provider === 'anthropic') {
    const server = await startMessagesServer({ scenario });
    return {
      provider,
      url: server.url,
      requests: server.requests,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url },
      args: [],
      close: server.close,
    };
  }
  const server = await startChatServer({ scenario });
  return {
    provider,
    url: server.url,
    requests: server.requests,
    env: {},
    args: ['--provider', 'openai', '--base-url', server.url, '--model', SCRIPTED_OPENAI_MODEL],
    close: server.close,
  };
}
