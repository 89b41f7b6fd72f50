import { strict as assert } from 'node:assert';
import { createAnthropicModelClient } from '../../../src/node/model/anthropicClient';
import type { ModelRequest, ModelWait } from '../../../src/core/model/modelClient';
import { startMessagesServer, type MessagesServer } from '../../support/messages-server/server';
import type { Reply } from '../../support/messages-server/scenario';

const request: ModelRequest = {
  role: 'executor',
  model: 'claude-sonnet-5-5',
  system: [{ type: 'text', text: 'plan-execute role: executor (prompt executor.v1)\nYou execute.' }],
  tools: [],
  messages: [{ role: 'user', content: 'Do the step.' }],
  maxTokens: 1000,
  effort: 'medium',
};

async function withServer(turn: Reply[], fn: (server: MessagesServer) => Promise<void>): Promise<void> {
  const server = await startMessagesServer({ scenario: { rules: [{ match: { role: 'executor' }, turns: [turn] }] } });
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

const client = (server: MessagesServer) => createAnthropicModelClient({ apiKey: 'test-key', baseURL: server.url, retry: { baseDelayMs: 1, maxDelayMs: 5 } });

describe('anthropic model client (real SDK against the messages server)', () => {
  it('streams a reply and reports usage, stop reason and request id', async () => {
    await withServer([{ text: 'done' }], async (server) => {
      const out = await client(server).call(request, new AbortController().signal);
      assert.ok(out.ok, JSON.stringify(out));
      assert.equal(out.value.content[0]?.type, 'text');
      assert.equal(out.value.stopReason, 'end_turn');
      assert.ok(out.value.usage.inputTokens > 0);
      assert.match(out.value.requestId ?? '', /^req_/);
      assert.equal(server.requests[0]?.stream, true);
      assert.deepEqual(server.requests[0]?.body.output_config, { effort: 'medium' });
      assert.equal('temperature' in (server.requests[0]?.body ?? {}), false);
    });
  });

  it('sends temperature instead of effort to a model that still accepts it', async () => {
    await withServer([{ text: 'ok' }], async (server) => {
      const out = await client(server).call({ ...request, model: 'claude-haiku-4-5', effort: undefined, temperature: 0 }, new AbortController().signal);
      assert.ok(out.ok);
      assert.equal(server.requests[0]?.body.temperature, 0);
      assert.equal(server.requests[0]?.body.output_config, undefined);
    });
  });

  it('streams tool_use input as JSON deltas and reassembles it', async () => {
    await withServer([{ toolUse: [{ name: 'bash', input: { command: 'npm test -- --grep "a b"' } }] }], async (server) => {
      const out = await client(server).call(request, new AbortController().signal);
      assert.ok(out.ok);
      const block = out.value.content[0];
      assert.equal(block?.type, 'tool_use');
      assert.deepEqual(block?.type === 'tool_use' ? block.input : null, { command: 'npm test -- --grep "a b"' });
      assert.equal(out.value.stopReason, 'tool_use');
    });
  });

  it('retries an overloaded_error event that arrives mid-stream after a 200', async () => {
    await withServer([{ text: 'x', fault: 'overloaded_midstream' }, { text: 'recovered' }], async (server) => {
      const out = await client(server).call(request, new AbortController().signal);
      assert.ok(out.ok, JSON.stringify(out));
      assert.equal(out.value.attempts, 2);
      assert.equal(server.requests.length, 2);
    });
  });

  it('retries a stream that is cut mid-message', async () => {
    await withServer([{ text: 'a long answer that is cut', fault: 'stream_cut' }, { text: 'whole' }], async (server) => {
      const out = await client(server).call(request, new AbortController().signal);
      assert.ok(out.ok, JSON.stringify(out));
      assert.equal(out.value.attempts, 2);
    });
  });

  it('retries a stream that ends without message_stop', async () => {
    await withServer([{ text: 'no stop', fault: 'no_message_stop' }, { text: 'ok' }], async (server) => {
      const out = await client(server).call(request, new AbortController().signal);
      assert.ok(out.ok, JSON.stringify(out));
      assert.equal(out.value.attempts, 2);
    });
  });

  it('waits out a 429 as long as retry-after-ms says, then a 529 and a 500, announcing every wait (the SDK retries nothing itself)', async () => {
    await withServer(
      [{ fault: 'rate_limit', retryAfterMs: 60 }, { fault: 'overloaded', retryAfterMs: 20 }, { fault: 'server_error' }, { text: 'fine' }],
      async (server) => {
        const waits: ModelWait[] = [];
        const out = await client(server).call(request, new AbortController().signal, { onWait: (w) => void waits.push(w) });
        assert.ok(out.ok, JSON.stringify(out));
        assert.deepEqual(
          server.requests.map((r) => r.fault),
          ['rate_limit', 'overloaded', 'server_error', null],
        );
        assert.deepEqual(
          waits.map((w) => [w.provider, w.reason, w.attempt]),
          [
            ['anthropic', 'rate_limited', 1],
            ['anthropic', 'overloaded', 2],
            ['anthropic', 'server_error', 3],
          ],
        );
        assert.deepEqual(
          waits.slice(0, 2).map((w) => w.waitMs),
          [60, 20],
          "the server's own wait, not our backoff",
        );
        assert.ok(server.requests[1]!.at - server.requests[0]!.at >= 55, 'it really waited');
        assert.equal(out.value.attempts, 4);
      },
    );
  });

  it('names auth, a missing model and a too-long prompt as causes, without retrying them', async () => {
    for (const [fault, cause] of [
      ['auth', 'auth'],
      ['model_not_found', 'model_unavailable'],
      ['context_length', 'context_too_long'],
    ] as const) {
      await withServer([{ fault }, { text: 'never' }], async (server) => {
        const out = await client(server).call(request, new AbortController().signal);
        assert.equal(!out.ok && out.error.failure.cause, cause, JSON.stringify(out));
        assert.equal(!out.ok && out.error.failure.provider, 'anthropic');
        assert.equal(server.requests.length, 1);
      });
    }
  });

  it('does not retry a spend-limit 429 and returns a budget_exceeded failure', async () => {
    await withServer([{ fault: 'spend_limit' }, { text: 'never' }], async (server) => {
      const out = await client(server).call(request, new AbortController().signal);
      assert.equal(out.ok, false);
      assert.equal(!out.ok && out.error.failure.class, 'budget_exceeded');
      assert.equal(!out.ok && out.error.failure.recoverable, false);
      assert.equal(server.requests.length, 1);
    });
  });

  it('treats a user-set usage limit (400) as budget_exceeded too', async () => {
    await withServer([{ fault: 'usage_limit' }], async (server) => {
      const out = await client(server).call(request, new AbortController().signal);
      assert.equal(!out.ok && out.error.failure.class, 'budget_exceeded');
      assert.match(!out.ok ? out.error.failure.message : '', /regain access on 2026-12-01/);
      assert.equal(server.requests.length, 1);
    });
  });

  it('gives up with a readable failure when retries are exhausted', async () => {
    await withServer([{ text: 'x', fault: 'overloaded_midstream' }], async (server) => {
      const c = createAnthropicModelClient({ apiKey: 'k', baseURL: server.url, retry: { maxAttempts: 3, baseDelayMs: 1 } });
      const out = await c.call(request, new AbortController().signal);
      assert.equal(out.ok, false);
      assert.match(!out.ok ? out.error.failure.message : '', /failed 3 times \(mid-stream overloaded_error\)/);
      assert.equal(server.requests.length, 3);
    });
  });

  it('names the fault when it gives up: a cut stream vs a stream without message_stop', async () => {
    for (const [fault, reason] of [
      ['stream_cut', /stream interrupted/],
      ['no_message_stop', /without message_stop/],
    ] as const) {
      await withServer([{ text: 'some text to cut', fault }], async (server) => {
        const c = createAnthropicModelClient({ apiKey: 'k', baseURL: server.url, retry: { maxAttempts: 2, baseDelayMs: 1 } });
        const out = await c.call(request, new AbortController().signal);
        assert.equal(out.ok, false);
        assert.match(!out.ok ? out.error.failure.message : '', reason);
        assert.equal(server.requests.length, 2);
      });
    }
  });

  it('retries a connection reset, then fails with cause "connection" naming the base URL', async () => {
    await withServer([{ fault: 'connection_reset' }], async (server) => {
      const c = createAnthropicModelClient({ apiKey: 'k', baseURL: server.url, retry: { maxAttempts: 2, baseDelayMs: 1 } });
      const out = await c.call(request, new AbortController().signal);
      assert.equal(out.ok, false);
      assert.equal(!out.ok && out.error.failure.cause, 'connection');
      assert.equal(!out.ok && out.error.failure.provider, 'anthropic');
      assert.ok(!out.ok && out.error.failure.message.includes(server.url), !out.ok ? out.error.failure.message : '');
      assert.equal(server.requests.length, 2);
    });
  });

  it('aborts the HTTP request at once when cancelled', async () => {
    await withServer([{ fault: 'hang' }], async (server) => {
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 50);
      const out = await client(server).call(request, controller.signal);
      assert.equal(out.ok, false);
      assert.equal(!out.ok && out.error.failure.class, 'cancelled');
      assert.ok(Date.now() - started < 1000, 'returned promptly');
    });
  });

  it('reports a max_tokens stop as such (the roles decide what to do)', async () => {
    await withServer([{ text: 'a sentence that will be cut in half', fault: 'max_tokens' }], async (server) => {
      const out = await client(server).call(request, new AbortController().signal);
      assert.ok(out.ok);
      assert.equal(out.value.stopReason, 'max_tokens');
    });
  });

  it('counts tokens through count_tokens', async () => {
    await withServer([{ text: 'x' }], async (server) => {
      const n = await client(server).countTokens?.(request, new AbortController().signal);
      assert.ok(typeof n === 'number' && n > 10);
      assert.equal(server.requests[0]?.path, '/v1/messages/count_tokens');
    });
  });
});
