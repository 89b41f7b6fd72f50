import { strict as assert } from 'node:assert';
import { createAnthropicModelClient } from '../../../src/node/model/anthropicClient';
import { createOpenAIModelClient } from '../../../src/node/model/openaiClient';
import { startChatServer } from '../../support/openai-server/server';
import { createRoles } from '../../../src/core/roles/createRoles';
import type { StepResult } from '../../../src/core/contracts/results';
import { startMessagesServer } from '../../support/messages-server/server';
import type { ScenarioInput } from '../../support/messages-server/scenario';
import { fakeContext, fakeTools, handoffFor } from './fakes';
import { step as fixtureStep } from '../../support/fixtures';

const step = fixtureStep('r1', {
  title: 'Document the API',
  kind: 'research',
  authority: undefined,
  evidence: { checks: [{ kind: 'review', criterion: 'README explains greet()' }] },
});
const result: StepResult = {
  stepId: 'r1',
  status: 'succeeded',
  output: 'README updated',
  evidence: [{ description: 'README section', toolCallId: 'tc9' }],
  sideEffects: { files: [], commands: [] },
  toolCallIds: ['tc9'],
};

async function review(scenario: ScenarioInput, provider: 'anthropic' | 'openai' = 'anthropic') {
  const server = provider === 'openai' ? await startChatServer({ scenario }) : await startMessagesServer({ scenario });
  try {
    const client =
      provider === 'openai' ? createOpenAIModelClient({ baseURL: server.url, env: {} }) : createAnthropicModelClient({ apiKey: 'k', baseURL: server.url });
    const roles = createRoles({ client, settings: provider === 'openai' ? { provider, model: 'local' } : {} });
    const tools = fakeTools({ 'README.md': '## greet(name)\nReturns a greeting.' });
    const outcome = await roles.verifier.review(handoffFor(step), result, 'README explains greet()', tools, fakeContext('r1'));
    return { outcome, requests: [...server.requests], tools };
  } finally {
    await server.close();
  }
}

describe('verifier role', () => {
  it('reviews with read-only tools and returns the structured verdict', async () => {
    const { outcome, requests, tools } = await review({
      rules: [
        {
          match: { role: 'verifier' },
          turns: [
            { toolUse: [{ name: 'view_file', input: { path: 'README.md' } }] },
            { toolUse: [{ name: 'report_verdict', input: { passed: true, detail: 'README.md documents greet(name)', tool_call_id: 'tc1' } }] },
          ],
        },
      ],
    });
    assert.deepEqual(outcome, { check: 'review: README explains greet()', passed: true, detail: 'README.md documents greet(name)', toolCallId: 'tc1' });
    assert.deepEqual(
      tools.calls.map((c) => c.tool),
      ['view'],
    );
    for (const r of requests) {
      const names = (r.body.tools ?? []).map((t) => t.name);
      assert.deepEqual(names, ['view_file', 'list_files', 'search_files', 'fetch_tool_result', 'report_verdict']);
      assert.ok(!(r.body.tools ?? []).some((t) => String(t.type ?? '').startsWith('text_editor') || String(t.type ?? '').startsWith('bash')));
    }
  });

  it('refuses an edit-tool call as an unknown tool and never writes', async () => {
    const { outcome, requests, tools } = await review({
      rules: [
        {
          match: { role: 'verifier' },
          turns: [
            { toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'README.md', file_text: 'fixed' } }] },
            { toolUse: [{ name: 'report_verdict', input: { passed: false, detail: 'README lacks the section' } }] },
          ],
        },
      ],
    });
    assert.equal(outcome.passed, false);
    assert.equal(tools.calls.length, 0);
    assert.match(JSON.stringify(requests[1]!.body.messages!.at(-1)), /the verifier can only read/);
  });

  it('counts a review without a verdict as not passed', async () => {
    const { outcome } = await review({
      rules: [
        {
          match: { role: 'verifier' },
          turns: [{ toolUse: [{ name: 'list_files', input: { path: '.' } }] }, { text: 'Looks fine to me.' }, { text: 'Really fine.' }],
        },
      ],
    });
    assert.equal(outcome.passed, false);
    assert.match(outcome.detail, /no verdict/);
    assert.equal(outcome.failure, undefined);
  });

  it("names a reviewer that never calls a tool as a model without tool calling (the provider's failure, not the step's)", async () => {
    const { outcome } = await review({ rules: [{ match: { role: 'verifier' }, turns: [{ text: 'Looks fine to me.' }, { text: 'Really fine.' }] }] }, 'openai');
    assert.equal(outcome.passed, false);
    assert.equal(outcome.failure?.cause, 'no_tool_support');
    assert.match(outcome.detail, /does not seem to support tool calling/);
  });
});
