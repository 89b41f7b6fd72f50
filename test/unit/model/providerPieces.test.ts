import { strict as assert } from 'node:assert';
import { parseDuration, retryAfterMs } from '../../../src/core/model/retryAfter';
import { stripAddedNulls, toStrictSchema } from '../../../src/core/model/strictSchema';
import { pairedTurns, UNANSWERED_CALL } from '../../../src/core/model/pairedTurns';
import { costOf } from '../../../src/core/model/pricing';
import { modelFor, parseModelSettings, providersInUse, resolveModelSettings, routingProblems } from '../../../src/core/model/modelSettings';
import { isLoopbackUrl, parseModelRef } from '../../../src/core/model/providers';
import { createRoutedModelClient } from '../../../src/core/model/routedClient';
import { runWithRetries, type AttemptFault } from '../../../src/core/model/retryLoop';
import type { ModelRequest, ModelWait } from '../../../src/core/model/modelClient';
import { functionToolOf } from '../../../src/core/model/functionTools';
import { EXECUTOR_TOOLS, ReportResultInput, TextEditorInput } from '../../../src/core/roles/toolDefs';
import { parseDraft } from '../../../src/core/roles/planDraft';
import { wirePlan } from '../../support/fixtures';

describe('retry-after: how long a provider asks us to wait', () => {
  const now = Date.parse('2026-12-01T10:00:00Z');
  it('prefers retry-after-ms, then retry-after in seconds or as a date', () => {
    assert.equal(retryAfterMs({ 'retry-after-ms': '1500', 'retry-after': '9' }, now), 1500);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '7' }), now), 7000);
    assert.equal(retryAfterMs({ 'retry-after': 'Tue, 01 Dec 2026 10:00:30 GMT' }, now), 30_000);
    assert.equal(retryAfterMs({}, now), undefined);
  });

  it("reads Anthropic's reset times, trusting the limit that is exhausted", () => {
    const headers = {
      'anthropic-ratelimit-requests-remaining': '40',
      'anthropic-ratelimit-requests-reset': '2026-12-01T10:00:02Z',
      'anthropic-ratelimit-input-tokens-remaining': '0',
      'anthropic-ratelimit-input-tokens-reset': '2026-12-01T10:00:20Z',
    };
    assert.equal(retryAfterMs(headers, now), 20_000);
    assert.equal(retryAfterMs({ 'anthropic-ratelimit-tokens-reset': '2026-12-01T10:00:05Z' }, now), 5_000, 'the soonest reset when none says it is exhausted');
  });

  it("reads OpenAI's reset durations", () => {
    assert.equal(parseDuration('6m0s'), 360_000);
    assert.equal(parseDuration('1h2m3.5s'), 3_723_500);
    assert.equal(parseDuration('250ms'), 250);
    assert.equal(parseDuration('soon'), undefined);
    assert.equal(retryAfterMs({ 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '1.5s', 'x-ratelimit-reset-requests': '20ms' }, now), 1500);
  });
});

describe('the retry loop every adapter shares', () => {
  const policy = { maxAttempts: 3, rateLimitAttempts: 5, baseDelayMs: 1, maxDelayMs: 4, maxWaitMs: 1_000 };
  const run = (faults: AttemptFault[], extra: { remainingMs?: () => number; signal?: AbortSignal } = {}) => {
    const waits: ModelWait[] = [];
    const slept: number[] = [];
    let n = 0;
    const out = runWithRetries({
      provider: 'openai',
      model: 'm',
      signal: extra.signal ?? new AbortController().signal,
      policy,
      hooks: { onWait: (w) => void waits.push(w), ...(extra.remainingMs ? { remainingMs: extra.remainingMs } : {}) },
      sleep: async (ms) => void slept.push(ms),
      attempt: async () => {
        const f = faults[n++];
        if (f) throw f;
        return {
          id: 'x',
          model: 'm',
          content: [],
          stopReason: 'end_turn',
          usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
          requestId: null,
        };
      },
      classify: (e) => e as AttemptFault,
      where: 'http://gateway.example/v1',
    });
    return { out, waits, slept };
  };
  const rate = (ms?: number): AttemptFault => ({ kind: 'retry', reason: 'rate_limited', message: '429', ...(ms !== undefined ? { retryAfterMs: ms } : {}) });

  it('waits what the provider asked, announces each wait before it, and counts attempts', async () => {
    const { out, waits, slept } = run([rate(300), { kind: 'retry', reason: 'stream_cut', message: 'cut' }]);
    const o = await out;
    assert.ok(o.ok);
    assert.equal(o.value.attempts, 3);
    assert.deepEqual(
      waits.map((w) => [w.reason, w.waitMs, w.attempt]),
      [
        ['rate_limited', 300, 1],
        ['stream_cut', slept[1], 2],
      ],
    );
    assert.equal(slept[0], 300);
  });

  it('gives rate limits more attempts than other faults, then fails with the cause and the endpoint', async () => {
    const o = await run([rate(), rate(), rate(), rate(), rate(), rate()]).out;
    assert.equal(o.ok, false);
    assert.equal(!o.ok && o.error.attempts, 5);
    assert.equal(!o.ok && o.error.failure.cause, 'rate_limit');
    assert.match(!o.ok ? o.error.failure.message : '', /http:\/\/gateway\.example\/v1 failed 5 times/);
    const cut = await run([
      { kind: 'retry', reason: 'overloaded', message: 'busy' },
      { kind: 'retry', reason: 'overloaded', message: 'busy' },
      { kind: 'retry', reason: 'overloaded', message: 'busy' },
    ]).out;
    assert.equal(!cut.ok && cut.error.attempts, 3);
    assert.equal(!cut.ok && cut.error.failure.cause, 'overloaded');
  });

  it('never starts a wait longer than maxWaitMs or the wall budget left', async () => {
    const tooLong = await run([rate(5_000)]).out;
    assert.match(!tooLong.ok ? tooLong.error.failure.message : '', /asks to wait 5 s.*longer than the 1 s we wait at most/);
    const { out, waits } = run([rate(500)], { remainingMs: () => 200 });
    const o = await out;
    assert.equal(!o.ok && o.error.failure.cause, 'rate_limit');
    assert.match(!o.ok ? o.error.failure.message : '', /mission's time budget/);
    assert.equal(waits.length, 0);
  });

  it('fails at once on a fault that is not retried, and on cancellation', async () => {
    const failure = {
      class: 'tool_error' as const,
      message: 'no',
      recoverable: false,
      suggestion: '',
      partialSideEffects: { files: [], commands: [] },
      cause: 'auth' as const,
      provider: 'openai',
    };
    const o = await run([{ kind: 'fail', failure }]).out;
    assert.equal(!o.ok && o.error.attempts, 1);
    assert.equal(!o.ok && o.error.failure.cause, 'auth');
    const abort = new AbortController();
    abort.abort();
    const c = await run([rate(10)], { signal: abort.signal }).out;
    assert.equal(!c.ok && c.error.failure.class, 'cancelled');
  });
});

describe('strict schemas (OpenAI structured outputs and strict function tools)', () => {
  it('closes every object and requires every key, optional ones as nullable', () => {
    const { schema, strict } = toStrictSchema(functionToolOf(EXECUTOR_TOOLS.find((t) => (t as { name: string }).name === 'report_result')!).parameters);
    assert.equal(strict, true);
    const props = schema.properties as Record<string, Record<string, unknown>>;
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual([...(schema.required as string[])].sort(), Object.keys(props).sort());
    assert.deepEqual(props.observation?.type, ['string', 'null']);
    assert.equal('minLength' in props.output!, false, 'validation keywords are ours to check');
    assert.deepEqual(props.failure?.type, ['object', 'null']);
    assert.equal(props.failure?.additionalProperties, false);
  });

  it('turns tuples and oneOf into what strict mode takes, and gives up strictness for open objects', () => {
    const editor = toStrictSchema(functionToolOf(EXECUTOR_TOOLS[0]!).parameters).schema as { properties: Record<string, Record<string, unknown>> };
    assert.equal('prefixItems' in (editor.properties.view_range ?? {}), false);
    assert.equal(
      JSON.stringify(
        toStrictSchema({ type: 'object', properties: { a: { oneOf: [{ type: 'string' }, { type: 'number' }] } }, required: ['a'] }).schema,
      ).includes('oneOf'),
      false,
    );
    assert.equal(
      toStrictSchema({ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['m'] }).strict,
      false,
    );
    assert.deepEqual(toStrictSchema({ type: 'object', properties: { k: { const: 'x' } }, required: ['k'] }).schema.properties, {
      k: { enum: ['x'], type: 'string' },
    });
  });

  it('removes the nulls strict mode forced on optional keys, so our own input checks pass', () => {
    const params = functionToolOf(EXECUTOR_TOOLS[0]!).parameters;
    const answer = { command: 'view', path: 'a.js', view_range: null, file_text: null, old_str: null, new_str: null, insert_line: null, insert_text: null };
    const cleaned = stripAddedNulls(answer, params);
    assert.deepEqual(cleaned, { command: 'view', path: 'a.js' });
    assert.ok(TextEditorInput.safeParse(cleaned).success);
    assert.equal(TextEditorInput.safeParse(answer).success, false, 'the nulls would have failed the check');
    const report = stripAddedNulls(
      { status: 'failed', output: 'x', evidence: [], failure: { class: 'tool_error', message: 'm', recoverable: true, suggestion: null } },
      functionToolOf(EXECUTOR_TOOLS[5]!).parameters,
    );
    assert.ok(ReportResultInput.safeParse(report).success, JSON.stringify(report));
  });
});

describe('paired turns (tool calls and results for APIs without Anthropic blocks)', () => {
  it('answers an unanswered call, turns a stray result into text and drops thinking', () => {
    const turns = pairedTurns([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 't', signature: 's' },
          { type: 'tool_use', id: 'a', name: 'x', input: {} },
          { type: 'tool_use', id: 'b', name: 'x', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'b', content: 'B', is_error: true },
          { type: 'tool_result', tool_use_id: 'zz', content: 'Z' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'x', input: {} }] },
    ]);
    assert.deepEqual(turns, [
      { role: 'user', results: [], text: 'go' },
      {
        role: 'assistant',
        text: '',
        calls: [
          { id: 'a', name: 'x', input: {} },
          { id: 'b', name: 'x', input: {} },
        ],
      },
      {
        role: 'user',
        results: [
          { callId: 'b', text: 'B', isError: true },
          { callId: 'a', text: UNANSWERED_CALL, isError: true },
        ],
        text: '(result of tool call zz)\nZ',
      },
      { role: 'assistant', text: '', calls: [{ id: 'c', name: 'x', input: {} }] },
      { role: 'user', results: [{ callId: 'c', text: UNANSWERED_CALL, isError: true }], text: '' },
    ]);
  });
});

describe('providers, model references, routing and prices', () => {
  it('reads provider:model references without mistaking Ollama tags or OpenRouter ids', () => {
    assert.deepEqual(parseModelRef('openai:gpt-4.1', 'anthropic'), { provider: 'openai', model: 'gpt-4.1' });
    assert.deepEqual(parseModelRef('qwen2.5-coder:7b', 'openai'), { provider: 'openai', model: 'qwen2.5-coder:7b' });
    assert.deepEqual(parseModelRef('anthropic/claude-sonnet-4.5', 'openai'), { provider: 'openai', model: 'anthropic/claude-sonnet-4.5' });
    assert.equal(isLoopbackUrl('http://localhost:11434/v1'), true);
    assert.equal(isLoopbackUrl('http://127.0.0.1:1234/v1'), true);
    assert.equal(isLoopbackUrl('http://[::1]:8000/v1'), true);
    assert.equal(isLoopbackUrl('https://api.openai.com/v1'), false);
  });

  it('one line is enough: a provider and a model for every role and tier', () => {
    const s = resolveModelSettings({ provider: 'openai', model: 'qwen3-coder' });
    for (const tier of ['light', 'standard', 'heavy'] as const)
      assert.deepEqual(modelFor(s, 'executor', tier), { provider: 'openai', model: 'qwen3-coder', temperature: 0, maxTokens: 8000 });
    assert.equal(modelFor(s, 'planner').model, 'qwen3-coder');
    assert.deepEqual(providersInUse(s), ['openai']);
    assert.deepEqual(routingProblems(s), []);
  });

  it('mixes providers by role and says what is missing', () => {
    const s = resolveModelSettings({
      provider: 'openai',
      model: 'local',
      planner: { model: 'anthropic:claude-opus-5-5' },
      tiers: { heavy: 'vscode-lm:gpt-4o' },
    });
    assert.deepEqual(modelFor(s, 'planner'), { provider: 'anthropic', model: 'claude-opus-5-5', effort: 'high', maxTokens: 16000 });
    assert.deepEqual(modelFor(s, 'executor', 'heavy'), { provider: 'vscode-lm', model: 'gpt-4o', maxTokens: 8000 });
    assert.deepEqual(providersInUse(s).sort(), ['anthropic', 'openai', 'vscode-lm']);
    assert.deepEqual(routingProblems(resolveModelSettings({ provider: 'openai' })), [
      'no model for the light tier on openai',
      'no model for the standard tier on openai',
      'no model for the heavy tier on openai',
    ]);
    assert.deepEqual(
      modelFor(resolveModelSettings({ provider: 'openai', model: 'o4-mini' }), 'executor', 'light').effort,
      'medium',
      'a reasoning model gets effort, not temperature',
    );
    assert.equal(parseModelSettings({ provider: 'ollama' }).ok, false);
  });

  it('prices per provider, never guessing across providers', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 1_000_000, cacheWriteTokens: 0 };
    assert.deepEqual(costOf('gpt-4.1-mini-2025-04-14', usage, undefined, 'openai'), { costUsd: 0.4 + 1.6 + 0.1, priced: true });
    assert.equal(costOf('claude-sonnet-5-5', usage, undefined, 'openai').priced, false, 'a gateway serving a Claude name is not priced as Anthropic');
    assert.equal(costOf('gpt-4.1', usage, undefined, 'anthropic').priced, false);
    assert.equal(costOf('my-model', usage, { 'openai:my-model': { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 } }, 'openai').costUsd, 3);
  });

  it('routes each request to its provider, and names a provider that is not set up', async () => {
    const seen: string[] = [];
    const fake = (name: string) => ({
      call: async () => (
        seen.push(name),
        {
          ok: false as const,
          error: {
            durationMs: 0,
            attempts: 1,
            failure: { class: 'tool_error' as const, message: name, recoverable: false, suggestion: '', partialSideEffects: { files: [], commands: [] } },
          },
        }
      ),
    });
    const client = createRoutedModelClient({ anthropic: fake('anthropic'), openai: fake('openai') });
    const request: ModelRequest = { role: 'executor', model: 'm', system: [], tools: [], messages: [], maxTokens: 1 };
    await client.call(request, new AbortController().signal);
    await client.call({ ...request, provider: 'openai' }, new AbortController().signal);
    assert.deepEqual(seen, ['anthropic', 'openai']);
    const missing = await client.call({ ...request, provider: 'vscode-lm' }, new AbortController().signal);
    assert.equal(!missing.ok && missing.error.failure.cause, 'model_unavailable');
    const noModel = await client.call({ ...request, provider: 'openai', model: '' }, new AbortController().signal);
    assert.match(!noModel.ok ? noModel.error.failure.message : '', /No model is set for the executor/);
  });
});

describe('the plan draft from a lenient server', () => {
  const draft = wirePlan([], { goal: 'g', direct: true });
  it('finds the plan in a ```json fence or around a sentence, and still judges it by the schema', () => {
    assert.ok(parseDraft(JSON.stringify(draft)).ok);
    assert.ok(parseDraft(`Here is the plan:\n\`\`\`json\n${JSON.stringify(draft, null, 2)}\n\`\`\``).ok);
    assert.ok(parseDraft(`Sure! ${JSON.stringify(draft)} Let me know.`).ok);
    const bad = parseDraft('```json\n{"goal": 3}\n```');
    assert.equal(bad.ok, false);
    assert.ok(!bad.ok && bad.error.some((e) => e.path === 'goal'));
    assert.match(!parseDraft('no plan at all').ok ? JSON.stringify(parseDraft('no plan at all')) : '', /not valid JSON/);
  });
});
