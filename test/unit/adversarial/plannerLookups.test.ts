/**
 * Red team, the planner's read-only lookups: a model that keeps calling lookup tools after they were
 * closed (tool_choice none on the last lookup turn) must not loop forever — the planner ends with a
 * structured invalid_output failure after a bounded number of calls.
 */
import { strict as assert } from 'node:assert';
import { createAnthropicModelClient } from '../../../src/core/model/anthropicClient';
import type { ReadOnlyTools, ToolOutcome } from '../../../src/core/ports';
import { createRoles } from '../../../src/core/roles/createRoles';
import { startMessagesServer, type MessagesServer } from '../../support/messages-server/server';

const ok = async (): Promise<ToolOutcome> => ({ ok: true, output: 'x', toolCallId: 'tc_1' });
const lookups: ReadOnlyTools = { view: ok, list: ok, search: ok, fetchToolResult: ok };

describe('adversarial: a planner model that never stops looking things up', function () {
  this.timeout(20_000);
  let server: MessagesServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('ends after the lookup turns with a structured failure instead of looping', async () => {
    server = await startMessagesServer({
      scenario: { rules: [{ match: { role: 'planner' }, respond: () => ({ toolUse: [{ name: 'list_files', input: { path: '.' } }] }) }] },
    });
    const roles = createRoles({ client: createAnthropicModelClient({ apiKey: 'k', baseURL: server.url }), settings: { maxLookupTurns: 3 } });
    const abort = new AbortController();
    const stop = setTimeout(() => abort.abort(), 10_000);
    try {
      const out = await roles.planner.plan(
        { task: 't', constraints: [], workspaceSummary: '', tools: lookups },
        { missionId: 'm', stepId: null, signal: abort.signal, record: async () => undefined },
      );
      assert.equal(out.ok, false);
      assert.equal(!out.ok && out.failure.class, 'invalid_output', JSON.stringify(out));
      assert.ok(!abort.signal.aborted, 'ended on its own, not by the safety abort');
      assert.ok(server.requests.length <= 4, `bounded: ${server.requests.length} calls`);
      assert.deepEqual(server.requests.at(-1)?.body.tool_choice, { type: 'none' }, 'the last call closed the tools');
    } finally {
      clearTimeout(stop);
    }
  });
});
