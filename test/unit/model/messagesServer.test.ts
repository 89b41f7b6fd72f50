import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { startMessagesServer } from '../../support/messages-server/server';

const system = (role: string) => [{ type: 'text', text: `plan-execute role: ${role} (prompt ${role}.v1)\nbody` }];

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown>; text: string }> {
  const res = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'secret' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // SSE
  }
  return { status: res.status, json, text };
}

describe('messages server (test support)', () => {
  it('loads a scenario file and routes by role marker and turn', async () => {
    const server = await startMessagesServer({ scenario: join(__dirname, '../../support/messages-server/scenarios/hello.json') });
    try {
      const a = await post(server.url, { model: 'm', max_tokens: 10, system: system('executor'), messages: [{ role: 'user', content: 'hi' }] });
      assert.equal((a.json.content as { text: string }[])[0]!.text, 'Hello from a scenario file');
      const b = await post(server.url, { model: 'm', max_tokens: 10, system: system('planner'), messages: [{ role: 'user', content: 'hi' }] });
      assert.equal((b.json.content as { text: string }[])[0]!.text, 'one fallback answer');
      assert.deepEqual(
        server.requests.map((r) => [r.role, r.promptVersion, r.rule]),
        [
          ['executor', 'executor.v1', 'greet'],
          ['planner', 'planner.v1', 'fallback'],
        ],
      );
      assert.equal(server.requests[0]!.headers['x-api-key'], '<redacted>');
    } finally {
      await server.close();
    }
  });

  it('fails loudly when no rule matches', async () => {
    const server = await startMessagesServer({ scenario: { rules: [{ match: { role: 'planner' }, turns: [{ text: 'x' }] }] } });
    try {
      const out = await post(server.url, { model: 'm', max_tokens: 10, system: system('verifier'), messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(out.status, 400);
      assert.match(out.text, /no scenario rule matches \(role=verifier, turn=1\)/);
    } finally {
      await server.close();
    }
  });

  it('refuses a malformed scenario with the path of the problem', async () => {
    await assert.rejects(
      startMessagesServer({ scenario: { rules: [{ match: {}, turns: [{ fault: 'meteor' }] }] } as never }),
      /invalid scenario: rules\.0\.turns\.0/,
    );
  });

  it('simulates the prompt cache: a byte-identical prefix is read, a changed one is written again', async () => {
    const server = await startMessagesServer({ scenario: { rules: [{ match: {}, replies: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] }] } });
    const tools = [{ name: 't', description: 'x'.repeat(400), input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }];
    const body = (sys: string) => ({
      model: 'm',
      max_tokens: 10,
      tools,
      system: [{ type: 'text', text: sys, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'q' }],
    });
    try {
      const first = (await post(server.url, body('S'.repeat(800)))).json.usage as Record<string, number>;
      const second = (await post(server.url, body('S'.repeat(800)))).json.usage as Record<string, number>;
      const changed = (await post(server.url, body('T'.repeat(800)))).json.usage as Record<string, number>;
      assert.equal(first.cache_read_input_tokens, 0);
      assert.ok(first.cache_creation_input_tokens! > 300);
      assert.equal(second.cache_read_input_tokens, first.cache_creation_input_tokens);
      assert.equal(second.cache_creation_input_tokens, 0);
      assert.ok(
        changed.cache_read_input_tokens! > 0 && changed.cache_read_input_tokens! < first.cache_creation_input_tokens!,
        'only the tools prefix is still cached',
      );
      assert.ok(changed.cache_creation_input_tokens! > 0);
    } finally {
      await server.close();
    }
  });

  it('injects latency before the headers', async () => {
    const server = await startMessagesServer({ scenario: { rules: [{ match: {}, turns: [{ text: 'slow', latencyMs: 200 }] }] } });
    try {
      const t0 = Date.now();
      await post(server.url, { model: 'm', max_tokens: 10, system: 's', messages: [{ role: 'user', content: 'hi' }] });
      assert.ok(Date.now() - t0 >= 190);
    } finally {
      await server.close();
    }
  });

  it('streams SSE events in the order the API sends them', async () => {
    const server = await startMessagesServer({
      scenario: { rules: [{ match: {}, turns: [{ text: 'hi', toolUse: [{ name: 'bash', input: { command: 'ls' } }] }] }] },
    });
    try {
      const out = await post(server.url, { model: 'm', max_tokens: 10, stream: true, system: 's', messages: [{ role: 'user', content: 'hi' }] });
      const names = [...out.text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
      assert.deepEqual(names.slice(0, 3), ['message_start', 'ping', 'content_block_start']);
      assert.ok(names.includes('content_block_delta'));
      assert.deepEqual(names.slice(-2), ['message_delta', 'message_stop']);
      assert.match(out.text, /"type":"input_json_delta"/);
    } finally {
      await server.close();
    }
  });
});
