/**
 * Red team, the planner's read-only lookups: a model that keeps calling lookup tools after they were
 * closed (tool_choice none on the last lookup turn) must not loop forever — the planner ends with a
 * structured invalid_output failure after a bounded number of calls.
 */
import { strict as assert } from 'node:assert';
import { createAnthropicModelClient } from '../../../src/node/model/anthropicClient';
import { createOpenAIModelClient } from '../../../src/node/model/openaiClient';
import type { ReadOnlyTools, ToolOutcome } from '../../../src/core/ports';
import { createRoles } from '../../../src/core/roles/createRoles';
import { startMessagesServer, type MessagesServer } from '../../support/messages-server/server';
import { startChatServer, type ChatServer } from '../../support/openai-server/server';
import { describeEachProvider } from './harness';

const ok = async (): Promise<ToolOutcome> => ({ ok: true, output: 'x', toolCallId: 'tc_1' });
const lookups: ReadOnlyTools = { view: ok, list: ok, search: ok, fetchToolResult: ok };

describeEachProvider('adversarial: a planner model that never stops looking things up', function (provider) {
  this.timeout(20_000);
  let server: MessagesServer | ChatServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('ends after the lookup turns with a structured failure instead of looping', async () => {
    const scenario = { rules: [{ match: { role: 'planner' as const }, respond: () => ({ toolUse: [{ name: 'list_files', input: { path: '.' } }] }) }] };
    const chat = provider === 'openai' ? await startChatServer({ scenario }) : undefined;
    const messages = provider === 'anthropic' ? await startMessagesServer({ scenario }) : undefined;
    server = chat ?? messages!;
    const client = chat ? createOpenAIModelClient({ baseURL: chat.url, env: {} }) : createAnthropicModelClient({ apiKey: 'k', baseURL: server.url });
    const roles = createRoles({ client, settings: { provider, model: 'some-model', maxLookupTurns: 3 } });
    const abort = new AbortController();
    const stop = setTimeout(() => abort.abort(), 10_000);
    try {
      const out = await roles.planner.plan(
        { task: 't', constraints: [], workspaceSummary: '', tools: lookups },
        { missionId: 'm', stepId: null, signal: abort.signal, record: async () => undefined },
      );
      assert.equal(out.ok, false);
      assert.equal(!out.ok && out.error.class, 'invalid_output', JSON.stringify(out));
      assert.ok(!abort.signal.aborted, 'ended on its own, not by the safety abort');
      assert.ok(server.requests.length <= 4, `bounded: ${server.requests.length} calls`);
      const last = chat ? chat.requests.at(-1)?.chat.tool_choice : messages?.requests.at(-1)?.body.tool_choice;
      assert.deepEqual(last, chat ? 'none' : { type: 'none' }, 'the last call closed the tools');
    } finally {
      clearTimeout(stop);
    }
  });
});
