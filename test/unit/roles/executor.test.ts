import { strict as assert } from 'node:assert';
import { createAnthropicModelClient } from '../../../src/node/model/anthropicClient';
import { createRoles } from '../../../src/core/roles/createRoles';
import { startMessagesServer, type MessagesServer } from '../../support/messages-server/server';
import type { ScenarioInput } from '../../support/messages-server/scenario';
import { fakeContext, fakeTools, handoffFor } from './fakes';
import { step as fixtureStep } from '../../support/fixtures';

const step = fixtureStep('s2', {
  title: 'Rename the greeting',
  instructions: 'In src/greet.js replace "Hello" with "Hi".',
  authority: { read: ['**'], edit: ['src/greet.js'], commands: ['node --test'] },
  binding: { prerequisite: 'src/greet.js exists', fallback: '', consequence: 'greet says Hi' },
  evidence: { checks: [{ kind: 'command', command: 'node --test', expectExitCode: 0 }] },
  modelTier: 'light',
});

async function withExecutor(
  scenario: ScenarioInput,
  fn: (server: MessagesServer, roles: ReturnType<typeof createRoles>) => Promise<void>,
  settings = {},
): Promise<void> {
  const server = await startMessagesServer({ scenario });
  try {
    const client = createAnthropicModelClient({ apiKey: 'k', baseURL: server.url, retry: { baseDelayMs: 1 } });
    await fn(server, createRoles({ client, settings }));
  } finally {
    await server.close();
  }
}

const report = (status = 'succeeded', extra = {}) => ({
  toolUse: [
    { name: 'report_result', input: { status, output: 'greet now says Hi', evidence: [{ description: 'tests pass', tool_call_id: 'tc3' }], ...extra } },
  ],
});

describe('executor role', () => {
  it('edits through the text editor and runs bash, then returns the structured result', async () => {
    const scenario: ScenarioInput = {
      rules: [
        {
          match: { role: 'executor' },
          turns: [
            { toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'view', path: 'src/greet.js' } }] },
            { toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: './src/greet.js', old_str: 'Hello', new_str: 'Hi' } }] },
            { toolUse: [{ name: 'bash', input: { command: 'node --test' } }] },
            report(),
          ],
        },
      ],
    };
    await withExecutor(scenario, async (server, roles) => {
      const tools = fakeTools({ 'src/greet.js': 'export const greet = (n) => `Hello ${n}`;' });
      const ctx = fakeContext('s2');
      const result = await roles.executor.execute(handoffFor(step), tools, ctx);
      assert.equal(result.status, 'succeeded', JSON.stringify(result));
      assert.equal(tools.files.get('src/greet.js'), 'export const greet = (n) => `Hi ${n}`;');
      assert.deepEqual(
        tools.calls.map((c) => c.tool),
        ['view', 'strReplace', 'bash'],
      );
      assert.deepEqual(result.toolCallIds, ['tc1', 'tc2', 'tc3']);
      assert.equal(result.evidence[0]?.toolCallId, 'tc3');
      assert.equal(result.sideEffects.files[0]?.path, 'src/greet.js');
      const tools0 = server.requests[0]!.body.tools!;
      assert.deepEqual(
        tools0.slice(0, 2).map((t) => [t.type, t.name]),
        [
          ['text_editor_20250728', 'str_replace_based_edit_tool'],
          ['bash_20250124', 'bash'],
        ],
      );
      assert.equal(server.requests[0]!.body.model, 'claude-haiku-5-5', 'light tier routes to the light model');
      const first = JSON.stringify(server.requests[0]!.body.messages);
      assert.match(first, /prerequisite: src\/greet.js exists/);
      assert.match(first, /node --test/);
      assert.equal(ctx.events.filter((e) => e.type === 'model_call').length, 4);
    });
  });

  it('returns a tool failure to the model as an is_error tool_result it can retry from', async () => {
    const scenario: ScenarioInput = {
      rules: [
        {
          match: { role: 'executor' },
          turns: [
            { toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/greet.js', old_str: 'Howdy', new_str: 'Hi' } }] },
            { toolUse: [{ name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/greet.js', old_str: 'Hello', new_str: 'Hi' } }] },
            report(),
          ],
        },
      ],
    };
    await withExecutor(scenario, async (server, roles) => {
      const tools = fakeTools({ 'src/greet.js': 'Hello' });
      const result = await roles.executor.execute(handoffFor(step), tools, fakeContext('s2'));
      assert.equal(result.status, 'succeeded');
      const toolResult = (server.requests[1]!.body.messages!.at(-1)!.content as Record<string, unknown>[])[0]!;
      assert.equal(toolResult.type, 'tool_result');
      assert.equal(toolResult.is_error, true);
      assert.match(String(toolResult.content), /error \(tool_error\): old_str not found exactly once/);
      assert.match(String(toolResult.content), /suggestion: view the file/);
      assert.equal(tools.files.get('src/greet.js'), 'Hi');
    });
  });

  it('hands thinking blocks back with their signatures in the tool loop', async () => {
    const scenario: ScenarioInput = {
      rules: [
        { match: { role: 'executor' }, turns: [{ thinking: 'I should look first.', toolUse: [{ name: 'list_files', input: { path: '.' } }] }, report()] },
      ],
    };
    await withExecutor(scenario, async (server, roles) => {
      const result = await roles.executor.execute(handoffFor(step), fakeTools(), fakeContext('s2'));
      assert.equal(result.status, 'succeeded');
      const assistant = server.requests[1]!.body.messages!.find((m) => m.role === 'assistant')!;
      const first = (assistant.content as Record<string, unknown>[])[0]!;
      assert.deepEqual(
        { type: first.type, thinking: first.thinking, signature: first.signature },
        { type: 'thinking', thinking: 'I should look first.', signature: 'sig_msg_1' },
      );
    });
  });

  it('runs a retried step one model tier up', async () => {
    const scenario: ScenarioInput = { rules: [{ match: { role: 'executor' }, turns: [report()] }] };
    await withExecutor(scenario, async (server, roles) => {
      const previousFailure = {
        class: 'tool_error' as const,
        message: 'tests red',
        recoverable: true,
        suggestion: '',
        partialSideEffects: { files: [], commands: [] },
      };
      await roles.executor.execute(handoffFor(step, { attempt: 2, previousFailure }), fakeTools(), fakeContext('s2'));
      assert.equal(server.requests[0]!.body.model, 'claude-sonnet-5-5');
      assert.match(JSON.stringify(server.requests[0]!.body.messages), /The previous attempt failed/);
    });
  });

  it('turns escalate into a blocked result that names the missing authority', async () => {
    const scenario: ScenarioInput = {
      rules: [
        {
          match: { role: 'executor' },
          turns: [{ toolUse: [{ name: 'escalate', input: { reason: 'missing_authority', message: 'needs to edit package.json' } }] }],
        },
      ],
    };
    await withExecutor(scenario, async (_server, roles) => {
      const result = await roles.executor.execute(handoffFor(step), fakeTools(), fakeContext('s2'));
      assert.equal(result.status, 'blocked');
      assert.equal(result.failure?.class, 'permission_denied');
      assert.match(result.output, /package.json/);
    });
  });

  it('rejects a malformed report_result and lets the model correct it', async () => {
    const scenario: ScenarioInput = {
      rules: [{ match: { role: 'executor' }, turns: [{ toolUse: [{ name: 'report_result', input: { status: 'done' } }] }, report()] }],
    };
    await withExecutor(scenario, async (server, roles) => {
      const result = await roles.executor.execute(handoffFor(step), fakeTools(), fakeContext('s2'));
      assert.equal(result.status, 'succeeded');
      assert.match(JSON.stringify(server.requests[1]!.body.messages!.at(-1)), /invalid report_result input/);
    });
  });

  it('stops at the turn limit with a budget_exceeded failure', async () => {
    const scenario: ScenarioInput = {
      rules: [{ match: { role: 'executor' }, replies: Array.from({ length: 5 }, () => ({ toolUse: [{ name: 'list_files', input: { path: '.' } }] })) }],
    };
    await withExecutor(
      scenario,
      async (server, roles) => {
        const result = await roles.executor.execute(handoffFor(step), fakeTools(), fakeContext('s2'));
        assert.equal(result.status, 'failed');
        assert.equal(result.failure?.class, 'budget_exceeded');
        assert.equal(server.requests.length, 3);
      },
      { maxExecutorTurns: 3 },
    );
  });

  it('retries once with a larger budget at max_tokens, then fails with a readable message', async () => {
    const scenario: ScenarioInput = { rules: [{ match: { role: 'executor' }, turns: [[{ text: 'thinking out loud', fault: 'max_tokens' }]] }] };
    await withExecutor(scenario, async (server, roles) => {
      const result = await roles.executor.execute(handoffFor(step), fakeTools(), fakeContext('s2'));
      assert.equal(result.status, 'failed');
      assert.equal(result.failure?.detail, 'max_tokens');
      assert.deepEqual(
        server.requests.map((r) => r.body.max_tokens),
        [8000, 16000],
      );
    });
  });

  it('keeps tools and system byte-identical across steps and puts cache breakpoints after them', async () => {
    const scenario: ScenarioInput = { rules: [{ match: { role: 'executor' }, turns: [report()] }] };
    await withExecutor(scenario, async (server, roles) => {
      const ctxA = fakeContext('s2');
      const ctxB = fakeContext('s3');
      await roles.executor.execute(handoffFor(step), fakeTools(), ctxA);
      await roles.executor.execute(handoffFor({ ...step, id: 's3', title: 'Another step', instructions: 'Something else.' }), fakeTools(), ctxB);
      const [a, b] = server.requests;
      assert.equal(JSON.stringify(a!.body.tools), JSON.stringify(b!.body.tools));
      assert.equal(JSON.stringify(a!.body.system), JSON.stringify(b!.body.system));
      assert.notEqual(JSON.stringify(a!.body.messages), JSON.stringify(b!.body.messages));
      assert.deepEqual(a!.body.tools!.at(-1)!.cache_control, { type: 'ephemeral' });
      const system = a!.body.system as { cache_control?: unknown }[];
      assert.deepEqual(system.at(-1)!.cache_control, { type: 'ephemeral' });
      const usageB = ctxB.events.find((e) => e.type === 'model_call');
      assert.ok(usageB?.type === 'model_call' && usageB.usage.cacheReadTokens > 0, 'second step reads the cached prefix');
    });
  });

  it('stops at once when cancelled', async () => {
    const scenario: ScenarioInput = { rules: [{ match: { role: 'executor' }, turns: [{ fault: 'hang' }] }] };
    await withExecutor(scenario, async (_server, roles) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 30);
      const result = await roles.executor.execute(handoffFor(step), fakeTools(), fakeContext('s2', controller.signal));
      assert.equal(result.failure?.class, 'cancelled');
    });
  });
});
