import { strict as assert } from 'node:assert';
import { createServer } from 'node:net';
import { createOpenAIModelClient, listOpenAIModels } from '../../../src/node/model/openaiClient';
import type { ModelRequest, ModelWait } from '../../../src/core/model/modelClient';
import { EXECUTOR_TOOLS, VERIFIER_TOOLS } from '../../../src/core/roles/toolDefs';
import { PLAN_DRAFT_JSON_SCHEMA } from '../../../src/core/roles/planDraft';
import { startChatServer, type ChatServer, type ChatServerOptions } from '../../support/openai-server/server';
import type { Reply } from '../../support/messages-server/scenario';
import { wirePlan } from '../../support/fixtures';

const request: ModelRequest = {
  role: 'executor',
  provider: 'openai',
  model: 'qwen3-coder',
  system: [
    { type: 'text', text: 'plan-execute role: executor (prompt executor.v1)\nYou execute.' },
    { type: 'text', text: '# Mission', cache_control: { type: 'ephemeral' } },
  ],
  tools: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Do the step.', cache_control: { type: 'ephemeral' } }] }],
  maxTokens: 1000,
  temperature: 0,
};

async function withServer(replies: Reply[], fn: (server: ChatServer) => Promise<void>, options: Partial<ChatServerOptions> = {}): Promise<void> {
  const server = await startChatServer({ scenario: { rules: [{ match: { role: 'executor' }, replies }] }, ...options });
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

const client = (server: ChatServer, extra: Parameters<typeof createOpenAIModelClient>[0] = {}) =>
  createOpenAIModelClient({ apiKey: 'test-key', baseURL: server.url, retry: { baseDelayMs: 1, maxDelayMs: 5 }, env: {}, ...extra });

const signal = (): AbortSignal => new AbortController().signal;

describe('openai-compatible model client (real SDK against the chat server)', () => {
  it('streams a reply with usage, cached tokens and the request id, and sends what OpenAI accepts', async () => {
    await withServer([{ text: 'done' }, { text: 'again' }], async (server) => {
      const c = client(server);
      const out = await c.call(request, signal());
      assert.ok(out.ok, JSON.stringify(out));
      assert.deepEqual(
        out.value.content.map((b) => b.type),
        ['text'],
      );
      assert.equal(out.value.stopReason, 'end_turn');
      assert.ok(out.value.usage.inputTokens > 0 && out.value.usage.outputTokens > 0);
      assert.match(out.value.requestId ?? '', /^req_/);
      assert.equal(out.value.local, true, 'a loopback endpoint costs nothing');
      const sent = server.requests[0]!;
      assert.equal(sent.rejected, null);
      assert.equal(sent.chat.stream, true);
      assert.deepEqual(sent.chat.stream_options, { include_usage: true });
      assert.equal(sent.chat.max_tokens, 1000, 'a non-OpenAI host gets max_tokens');
      assert.equal(sent.chat.temperature, 0);
      assert.equal('tools' in sent.chat, false, 'no empty tools array');
      assert.deepEqual(
        sent.chat.messages?.map((m) => m.role),
        ['system', 'user'],
      );
      assert.equal(JSON.stringify(sent.chat).includes('cache_control'), false);
      assert.equal(sent.chat.prompt_cache_key, undefined, 'only OpenAI itself gets a prompt_cache_key');
      const second = await c.call(
        { ...request, messages: [...request.messages, { role: 'assistant', content: 'done' }, { role: 'user', content: 'more' }] },
        signal(),
      );
      assert.ok(second.ok);
      assert.ok(second.value.usage.cacheReadTokens > 0, 'the stable prefix is read from the prefix cache');
    });
  });

  it('declares the executor tools as strict function tools (editor and bash too) and reassembles tool calls split across chunks', async () => {
    const input = { command: 'str_replace', path: 'src/a.js', old_str: 'const a = 1;', new_str: 'const a = 2;' };
    await withServer(
      [
        {
          toolUse: [
            { name: 'str_replace_based_edit_tool', input },
            { name: 'bash', input: { command: 'npm test -- --grep "a b"' } },
          ],
        },
      ],
      async (server) => {
        const out = await client(server).call({ ...request, tools: EXECUTOR_TOOLS }, signal());
        assert.ok(out.ok, JSON.stringify(out));
        const uses = out.value.content.filter((b) => b.type === 'tool_use');
        assert.deepEqual(
          uses.map((u) => (u.type === 'tool_use' ? [u.name, u.input] : null)),
          [
            ['str_replace_based_edit_tool', input],
            ['bash', { command: 'npm test -- --grep "a b"' }],
          ],
        );
        assert.equal(out.value.stopReason, 'tool_use');
        const tools = server.requests[0]!.chat.tools ?? [];
        assert.deepEqual(
          tools.map((t) => t.function?.name),
          EXECUTOR_TOOLS.map((t) => (t as { name: string }).name),
        );
        assert.ok(
          tools.every((t) => t.function?.strict === true),
          'every tool strict (the server checked each schema)',
        );
        const editor = tools[0]!.function!.parameters as { properties: Record<string, unknown>; required: string[] };
        assert.deepEqual(Object.keys(editor.properties).sort(), [
          'command',
          'file_text',
          'insert_line',
          'insert_text',
          'new_str',
          'old_str',
          'path',
          'view_range',
        ]);
        assert.deepEqual([...editor.required].sort(), Object.keys(editor.properties).sort());
      },
    );
  });

  it('removes the nulls strict mode forces onto optional arguments', async () => {
    const args = { status: 'succeeded', output: 'done', evidence: [{ description: 'ran it', tool_call_id: null }], observation: null, failure: null };
    await withServer([{ toolUse: [{ name: 'report_result', input: args }] }], async (server) => {
      const out = await client(server).call({ ...request, tools: EXECUTOR_TOOLS }, signal());
      assert.ok(out.ok);
      const use = out.value.content.find((b) => b.type === 'tool_use');
      assert.deepEqual(use?.type === 'tool_use' ? use.input : null, { status: 'succeeded', output: 'done', evidence: [{ description: 'ran it' }] });
    });
  });

  it('pairs every tool result with its call: results become tool messages, an unanswered call gets an error result', async () => {
    await withServer([{ text: 'ok' }], async (server) => {
      const conversation: ModelRequest['messages'] = [
        { role: 'user', content: 'Do the step.' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig' },
            { type: 'text', text: 'Reading two files.' },
            { type: 'tool_use', id: 'call_a', name: 'view_file', input: { path: 'a' } },
            { type: 'tool_use', id: 'call_b', name: 'view_file', input: { path: 'b' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_a', content: 'A' },
            { type: 'tool_result', tool_use_id: 'call_zzz', content: 'stray' },
            { type: 'text', text: 'Now finish.' },
          ],
        },
      ];
      const out = await client(server).call({ ...request, tools: VERIFIER_TOOLS, messages: conversation }, signal());
      assert.ok(out.ok, JSON.stringify(out));
      const sent = server.requests[0]!;
      assert.equal(sent.rejected, null, sent.rejected ?? '');
      const messages = sent.chat.messages ?? [];
      assert.deepEqual(
        messages.map((m) => m.role),
        ['system', 'user', 'assistant', 'tool', 'tool', 'user'],
      );
      assert.deepEqual(
        messages[2]!.tool_calls?.map((c) => [c.id, typeof c.function?.arguments]),
        [
          ['call_a', 'string'],
          ['call_b', 'string'],
        ],
      );
      assert.equal(messages[3]!.tool_call_id, 'call_a');
      assert.equal(messages[4]!.tool_call_id, 'call_b');
      assert.match(String(messages[4]!.content), /no result/);
      assert.match(String(messages[5]!.content), /result of tool call call_zzz[\s\S]*stray[\s\S]*Now finish\./);
    });
  });

  it('asks for structured output with a strict json_schema response format', async () => {
    const plan = wirePlan([], { goal: 'g', direct: true });
    await withServer([{ structured: plan }], async (server) => {
      const out = await client(server).call({ ...request, outputSchema: PLAN_DRAFT_JSON_SCHEMA }, signal());
      assert.ok(out.ok, JSON.stringify(out));
      assert.deepEqual(JSON.parse(out.value.content[0]?.type === 'text' ? out.value.content[0].text : ''), plan);
      const rf = server.requests[0]!.chat.response_format;
      assert.equal(rf?.type, 'json_schema');
      assert.equal(rf?.json_schema?.strict, true);
    });
  });

  it('falls back to a forced structured_output call where the server lacks response formats, and stays there', async () => {
    const plan = wirePlan([], { goal: 'g', direct: true });
    await withServer(
      [{ structured: plan }],
      async (server) => {
        const c = client(server);
        const out = await c.call({ ...request, outputSchema: PLAN_DRAFT_JSON_SCHEMA }, signal());
        assert.ok(out.ok, JSON.stringify(out));
        assert.equal(out.value.content.length, 1);
        assert.deepEqual(JSON.parse(out.value.content[0]?.type === 'text' ? out.value.content[0].text : ''), plan);
        assert.equal(out.value.stopReason, 'end_turn');
        assert.equal(out.value.attempts, 1, 'an adjustment is not a retry');
        assert.match(server.requests[0]!.rejected ?? '', /response_format/);
        assert.deepEqual(server.requests[1]!.chat.tool_choice, { type: 'function', function: { name: 'structured_output' } });
        assert.equal(c.compat().structuredOutput, 'tool');
        await c.call({ ...request, outputSchema: PLAN_DRAFT_JSON_SCHEMA }, signal());
        assert.equal(server.requests.length, 3, 'the next call goes straight to the function form');
      },
      { structuredOutputs: false },
    );
  });

  it('falls back to the function form and drops tool_choice on a server that takes neither response formats nor tool_choice', async () => {
    const plan = wirePlan([], { goal: 'g', direct: true });
    await withServer(
      [{ structured: plan }],
      async (server) => {
        const c = client(server);
        const out = await c.call({ ...request, outputSchema: PLAN_DRAFT_JSON_SCHEMA }, signal());
        assert.ok(out.ok, JSON.stringify(out));
        assert.deepEqual(JSON.parse(out.value.content[0]?.type === 'text' ? out.value.content[0].text : ''), plan);
        assert.deepEqual({ structuredOutput: c.compat().structuredOutput, toolChoice: c.compat().toolChoice }, { structuredOutput: 'tool', toolChoice: false });
        assert.equal(server.requests.at(-1)?.chat.tool_choice, undefined);
      },
      { structuredOutputs: false, toolChoice: false },
    );
  });

  it('gives OpenAI a prompt_cache_key per role, so the stable prefix of each role lands in one cache', async () => {
    await withServer([{ text: 'ok' }], async (server) => {
      const out = await client(server, { compat: { promptCacheKey: true } }).call(request, signal());
      assert.ok(out.ok);
      assert.equal(server.requests[0]!.chat.prompt_cache_key, 'plan-execute-executor');
    });
  });

  it('switches to max_completion_tokens when the endpoint refuses max_tokens', async () => {
    await withServer(
      [{ text: 'ok' }],
      async (server) => {
        const c = client(server);
        const out = await c.call(request, signal());
        assert.ok(out.ok, JSON.stringify(out));
        assert.equal(server.requests[1]!.chat.max_completion_tokens, 1000);
        assert.equal(server.requests[1]!.chat.max_tokens, undefined);
      },
      { maxTokensParam: 'max_completion_tokens' },
    );
  });

  it('waits as long as retry-after says on a 429, and for overload and 5xx, reporting every wait', async () => {
    await withServer([{ fault: 'rate_limit', retryAfterMs: 40 }, { fault: 'overloaded' }, { fault: 'server_error' }, { text: 'fine' }], async (server) => {
      const waits: ModelWait[] = [];
      const out = await client(server).call(request, signal(), { onWait: (w) => void waits.push(w) });
      assert.ok(out.ok, JSON.stringify(out));
      assert.equal(out.value.attempts, 4);
      assert.deepEqual(
        waits.map((w) => [w.reason, w.attempt, w.provider, w.model]),
        [
          ['rate_limited', 1, 'openai', 'qwen3-coder'],
          ['overloaded', 2, 'openai', 'qwen3-coder'],
          ['server_error', 3, 'openai', 'qwen3-coder'],
        ],
      );
      assert.equal(waits[0]!.waitMs, 40, 'retry-after-ms honoured');
      assert.ok(server.requests[1]!.at - server.requests[0]!.at >= 35, 'it really waited');
    });
  });

  it('retries a stream cut after the 200, a stream without finish_reason, and an error chunk mid-stream', async () => {
    for (const fault of ['stream_cut', 'no_finish', 'overloaded_midstream'] as const) {
      await withServer([{ text: 'a long answer that will not arrive whole', fault }, { text: 'whole' }], async (server) => {
        const waits: ModelWait[] = [];
        const out = await client(server).call(request, signal(), { onWait: (w) => void waits.push(w) });
        assert.ok(out.ok, `${fault}: ${JSON.stringify(out)}`);
        assert.equal(out.value.content[0]?.type === 'text' && out.value.content[0].text, 'whole');
        assert.equal(waits.length, 1, fault);
        assert.equal(waits[0]!.reason, fault === 'overloaded_midstream' ? 'server_error' : 'stream_cut');
      });
    }
  });

  it('names the provider, the cause and the base URL when it fails for good', async () => {
    const cases: { fault: Reply['fault']; cause: string; detail: RegExp }[] = [
      { fault: 'auth', cause: 'auth', detail: /refused the API key/ },
      { fault: 'model_not_found', cause: 'model_unavailable', detail: /"qwen3-coder" was not found/ },
      { fault: 'context_length', cause: 'context_too_long', detail: /too long/ },
      { fault: 'no_tools', cause: 'no_tool_support', detail: /cannot call tools/ },
      { fault: 'spend_limit', cause: 'spend_limit', detail: /out of quota/ },
    ];
    for (const c of cases) {
      await withServer([{ fault: c.fault }, { text: 'never' }], async (server) => {
        const out = await client(server).call({ ...request, tools: EXECUTOR_TOOLS }, signal());
        assert.equal(out.ok, false, String(c.fault));
        if (out.ok) return;
        assert.equal(out.error.failure.cause, c.cause, out.error.failure.message);
        assert.equal(out.error.failure.provider, 'openai');
        assert.match(out.error.failure.message, c.detail);
        assert.ok(out.error.failure.message.includes(server.url), out.error.failure.message);
        assert.equal(server.requests.length, 1, 'not retried');
      });
    }
  });

  it('reports an endpoint that is not running as a connection failure naming its base URL', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const baseURL = `http://127.0.0.1:${port}/v1`;
    const waits: ModelWait[] = [];
    const out = await createOpenAIModelClient({ baseURL, env: {}, retry: { maxAttempts: 2, baseDelayMs: 1 } }).call(request, signal(), {
      onWait: (w) => void waits.push(w),
    });
    assert.equal(out.ok, false);
    assert.equal(!out.ok && out.error.failure.cause, 'connection');
    assert.ok(!out.ok && out.error.failure.message.includes(baseURL), !out.ok ? out.error.failure.message : '');
    assert.deepEqual(
      waits.map((w) => w.reason),
      ['connection'],
    );
  });

  it('does not start a wait longer than the mission has left, and stops waiting when cancelled', async () => {
    await withServer([{ fault: 'rate_limit', retryAfterMs: 60_000 }, { text: 'never' }], async (server) => {
      const started = Date.now();
      const out = await client(server).call(request, signal(), { remainingMs: () => 5_000 });
      assert.equal(out.ok, false);
      assert.equal(!out.ok && out.error.failure.cause, 'rate_limit');
      assert.match(!out.ok ? out.error.failure.message : '', /asks to wait 60 s.*time budget/);
      assert.ok(Date.now() - started < 2_000);
    });
    await withServer([{ fault: 'rate_limit', retryAfterMs: 30_000 }, { text: 'never' }], async (server) => {
      const controller = new AbortController();
      const started = Date.now();
      const out = await client(server).call(request, controller.signal, { onWait: () => void setTimeout(() => controller.abort(), 50) });
      assert.equal(!out.ok && out.error.failure.class, 'cancelled');
      assert.ok(Date.now() - started < 2_000, 'the wait ended at the cancel');
    });
  });

  it('aborts a hanging request at once when cancelled', async () => {
    await withServer([{ fault: 'hang' }], async (server) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const started = Date.now();
      const out = await client(server).call(request, controller.signal);
      assert.equal(!out.ok && out.error.failure.class, 'cancelled');
      assert.ok(Date.now() - started < 1_000);
    });
  });

  it('copes with a local server\'s habits: no tool call ids, the name repeated per chunk, "stop" after tool calls, no usage', async () => {
    const input = { command: 'create', path: 'a.txt', file_text: 'x' };
    await withServer(
      [
        {
          toolUse: [
            { name: 'str_replace_based_edit_tool', input },
            { name: 'bash', input: { command: 'ls' } },
          ],
        },
      ],
      async (server) => {
        const out = await client(server).call({ ...request, tools: EXECUTOR_TOOLS }, signal());
        assert.ok(out.ok, JSON.stringify(out));
        const uses = out.value.content.filter((b) => b.type === 'tool_use');
        assert.deepEqual(
          uses.map((u) => (u.type === 'tool_use' ? u.name : '')),
          ['str_replace_based_edit_tool', 'bash'],
        );
        assert.deepEqual(uses[0]?.type === 'tool_use' ? uses[0].input : null, input);
        const ids = uses.map((u) => (u.type === 'tool_use' ? u.id : ''));
        assert.ok(ids.every(Boolean) && new Set(ids).size === 2, 'ids made up, distinct');
        assert.equal(out.value.stopReason, 'tool_use');
        assert.ok(out.value.usage.inputTokens > 0, 'usage estimated when the server sends none');
      },
      { lenient: true, usage: false, quirks: { noToolCallIds: true, repeatToolName: true, stopAfterToolCalls: true } },
    );
  });

  it('reports a length stop as max_tokens and lists the endpoint models', async () => {
    await withServer(
      [{ text: 'a sentence that will be cut', fault: 'max_tokens' }],
      async (server) => {
        const out = await client(server).call(request, signal());
        assert.ok(out.ok);
        assert.equal(out.value.stopReason, 'max_tokens');
        assert.deepEqual(await listOpenAIModels({ baseURL: server.url, env: {} }), { ok: true, value: ['llama3.2', 'qwen3-coder'] });
      },
      { models: ['qwen3-coder', 'llama3.2'] },
    );
  });
});
