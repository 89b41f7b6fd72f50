import { strict as assert } from 'node:assert';
import { createReplayModelClient } from '../../../src/core/model/replayClient';
import { requestHash } from '../../../src/core/model/requestHash';
import type { ModelRequest } from '../../../src/core/model/modelClient';

const req = (text: string, role: ModelRequest['role'] = 'executor'): ModelRequest => ({
  role,
  model: 'claude-sonnet-5-5',
  system: [{ type: 'text', text: 'system' }],
  tools: [],
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  maxTokens: 100,
});

const recorded = (request: ModelRequest, stepId: string, text: string, seq: number) => ({
  missionId: 'm',
  seq,
  at: '2026-11-29T08:00:00.000Z',
  type: 'model_call',
  role: request.role,
  stepId,
  model: request.model,
  promptVersion: `${request.role}.v1`,
  usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: 0,
  durationMs: 5,
  stopReason: 'end_turn',
  requestId: 'req_1',
  requestHash: requestHash(request),
  response: { content: [{ type: 'text', text }], stopReason: 'end_turn' },
});

describe('replay model client', () => {
  it('answers each call with the recorded response, in any interleaving of steps', async () => {
    const a = req('# Step s1: a');
    const b = req('# Step s2: b');
    const client = createReplayModelClient([recorded(a, 's1', 'answer a', 0), recorded(b, 's2', 'answer b', 1)]);
    const rb = await client.call(b, new AbortController().signal);
    const ra = await client.call(a, new AbortController().signal);
    assert.ok(ra.ok && rb.ok);
    assert.deepEqual(ra.value.content, [{ type: 'text', text: 'answer a' }]);
    assert.deepEqual(rb.value.content, [{ type: 'text', text: 'answer b' }]);
    assert.equal(client.remaining(), 0);
    assert.equal(client.divergence(), undefined);
  });

  it('fails loudly when the mission asks something the recording does not have', async () => {
    const client = createReplayModelClient([recorded(req('# Step s1: a'), 's1', 'x', 0)]);
    const out = await client.call(req('# Step s1: something else'), new AbortController().signal);
    assert.equal(out.ok, false);
    assert.equal(!out.ok && out.error.failure.detail, 'replay_diverged');
    assert.match(client.divergence() ?? '', /executor call differs/);
    const extra = await client.call(req('x', 'verifier'), new AbortController().signal);
    assert.equal(extra.ok, false);
  });

  it('ignores tool_call ids and timestamps the sandbox generates, but not the words', () => {
    const one = requestHash(req('[tool_call_id: tc_s1_abc_1] at 2026-11-29T08:00:00.000Z'));
    const two = requestHash(req('[tool_call_id: tc_s1_def_1] at 2026-11-30T09:10:11.123Z'));
    assert.equal(one, two);
    assert.notEqual(requestHash(req('view a.ts')), requestHash(req('view b.ts')));
  });
});
