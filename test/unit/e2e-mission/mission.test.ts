import { strict as assert } from 'node:assert';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createAnthropicModelClient } from '../../../src/node/model/anthropicClient';
import type { RoleName } from '../../../src/core/model/modelClient';
import { promptFor } from '../../../src/core/roles/prompts/registry';
import { TraceEventSchema, type TraceEvent } from '../../../src/core/contracts/traceEvents';
import { runHeadless } from '../../../src/node/cliMission';
import { startMessagesServer, type MessagesServer } from '../../support/messages-server/server';
import { e2eScenario, FAREWELL, GREET } from './scenario';

function tempWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pe-e2e-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'package.json'), '{"name":"demo","scripts":{"start":"node src/index.js"}}\n');
  writeFileSync(join(dir, 'src', 'index.js'), "console.log('start');\n");
  return dir;
}

const io = (stdinText = '') => {
  const stdin = new PassThrough();
  if (stdinText) stdin.write(stdinText);
  const stderr = new PassThrough();
  const stdout = new PassThrough();
  return { stdin, stdout, stderr, env: { PATH: process.env.PATH } };
};

function readTrace(path: string): TraceEvent[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => TraceEventSchema.parse(JSON.parse(l)));
}

describe('end-to-end mission (real SDK → messages server, real files, real command)', function () {
  this.timeout(30_000);
  let server: MessagesServer;
  let ws: string;

  afterEach(async () => {
    await server?.close();
    if (ws) {
      rmSync(ws, { recursive: true, force: true });
      // The trace goes next to the workspace (outside it, so the mission does not see it).
      rmSync(`${ws}.trace.jsonl`, { force: true });
    }
  });

  it('plans, runs two independent steps in parallel, edits files, runs a command, verifies and finishes', async () => {
    server = await startMessagesServer({ scenario: e2eScenario() });
    ws = tempWorkspace();
    const trace = join(ws, '..', `${ws.split('/').pop()}.trace.jsonl`);
    const client = createAnthropicModelClient({ apiKey: 'test-key', baseURL: server.url, retry: { baseDelayMs: 1 } });
    const { report, plan } = await runHeadless(
      { workspace: ws, task: 'Greet and say goodbye', constraints: ['Do not touch package.json'], approve: 'all', client, trace },
      io(),
    );

    assert.equal(report.outcome, 'succeeded', JSON.stringify(report));
    assert.deepEqual([...report.succeeded].sort(), ['s1', 's2', 's3', 's4']);
    assert.equal(plan?.steps.length, 4);

    // Real files, edited through text_editor calls.
    assert.equal(readFileSync(join(ws, 'src', 'greet.js'), 'utf8'), GREET);
    assert.equal(readFileSync(join(ws, 'src', 'farewell.js'), 'utf8'), FAREWELL);
    assert.match(readFileSync(join(ws, 'src', 'index.js'), 'utf8'), /console\.log\(farewell\('world'\)\)/);

    // The trace holds every event, each valid.
    const events = readTrace(trace);
    const types = new Set(events.map((e) => e.type));
    for (const t of [
      'mission_started',
      'plan_version',
      'plan_approved',
      'handoff',
      'step_status',
      'model_call',
      'tool_call',
      'step_result',
      'verification',
      'mission_finished',
    ] as const) {
      assert.ok(types.has(t), `trace has ${t}`);
    }
    assert.deepEqual(
      events.map((e) => e.seq),
      events.map((_, i) => i),
      'every event, in sequence',
    );

    // s1 and s2 ran at the same time: both were running before either finished.
    const statusIndex = (id: string, status: string) => events.findIndex((e) => e.type === 'step_status' && e.stepId === id && e.status === status);
    const firstDone = Math.min(statusIndex('s1', 'succeeded'), statusIndex('s2', 'succeeded'));
    assert.ok(statusIndex('s1', 'running') < firstDone && statusIndex('s2', 'running') < firstDone, 's1 and s2 overlap');

    // A real command through bash, with its real output.
    const bash = events.find((e) => e.type === 'tool_call' && e.record.tool === 'bash');
    assert.ok(bash?.type === 'tool_call' && bash.record.ok && /Hello, world/.test(bash.record.output), 'bash ran node for real');

    // Role separation, from what was actually sent.
    const byRole = (role: string) => server.requests.filter((r) => r.role === role);
    const toolNames = (r: MessagesServer['requests'][number]) => (r.body.tools ?? []).map((t) => String(t.name));
    for (const r of byRole('planner')) assert.ok(!toolNames(r).some((n) => ['str_replace_based_edit_tool', 'bash'].includes(n)), 'planner has no write tools');
    assert.ok(byRole('verifier').length > 0);
    for (const r of byRole('verifier'))
      assert.ok(!toolNames(r).includes('str_replace_based_edit_tool') && !toolNames(r).includes('bash'), 'verifier has no edit tool');
    for (const r of byRole('executor')) assert.ok(toolNames(r).includes('str_replace_based_edit_tool') && toolNames(r).includes('bash'));

    // Cache breakpoints on a byte-identical prefix across the mission's executor calls.
    const executors = byRole('executor');
    assert.ok(executors.length >= 8);
    const prefix = (r: MessagesServer['requests'][number]) => JSON.stringify([r.body.tools, r.body.system]);
    for (const r of executors) {
      assert.equal(prefix(r), prefix(executors[0]!));
      assert.deepEqual(r.body.tools!.at(-1)!.cache_control, { type: 'ephemeral' });
    }
    const calls = events.filter((e): e is Extract<TraceEvent, { type: 'model_call' }> => e.type === 'model_call' && e.role === 'executor');
    assert.ok(
      calls.slice(1).every((c) => c.usage.cacheReadTokens > 0),
      'every executor call after the first reads the cache',
    );
    // Every call names the prompt it used: each role's latest version.
    const latest = (role: RoleName): string => {
      const found = promptFor(role);
      return found.ok ? `${role}.${found.value.version}` : 'none';
    };
    for (const e of events) if (e.type === 'model_call') assert.equal(e.promptVersion, latest(e.role as RoleName));
  });

  it('in ask mode asks on the terminal for the plan, each write (with its diff) and each command', async () => {
    server = await startMessagesServer({ scenario: e2eScenario({ parallelLatencyMs: 0 }) });
    ws = tempWorkspace();
    const terminal = io('y\n'.repeat(30));
    const client = createAnthropicModelClient({ apiKey: 'test-key', baseURL: server.url });
    const { report } = await runHeadless({ workspace: ws, task: 'Greet and say goodbye', constraints: [], approve: 'ask', client }, terminal);
    assert.equal(report.outcome, 'succeeded', JSON.stringify(report));
    const shown = terminal.stderr.read()?.toString() ?? '';
    assert.match(shown, /Approve this plan\?/);
    assert.match(shown, /wants to create src\/greet\.js/);
    assert.match(shown, /\+exports\.greet = \(name\) => `Hello, \$\{name\}`;/, 'the write shows its diff');
    assert.match(shown, /wants to run: node src\/index\.js/);
  });

  it('stops at the --max-cost budget, priced from the usage of each call', async () => {
    server = await startMessagesServer({ scenario: e2eScenario({ parallelLatencyMs: 0 }) });
    ws = tempWorkspace();
    const client = createAnthropicModelClient({ apiKey: 'test-key', baseURL: server.url });
    const { report } = await runHeadless(
      { workspace: ws, task: 'Greet and say goodbye', constraints: [], approve: 'all', client, limits: { budgets: { maxCostUsd: 0.005 } } },
      io(),
    );
    assert.notEqual(report.outcome, 'succeeded');
    assert.equal(report.budget?.kind, 'cost', JSON.stringify(report));
    assert.ok(report.usage.costUsd >= 0.005);
    assert.deepEqual(report.succeeded, []);
  });

  it('touches no file when the plan is never approved', async () => {
    server = await startMessagesServer({ scenario: e2eScenario() });
    ws = tempWorkspace();
    const before = readdirSync(join(ws, 'src')).sort();
    const client = createAnthropicModelClient({ apiKey: 'test-key', baseURL: server.url });
    const { report } = await runHeadless({ workspace: ws, task: 'Greet and say goodbye', constraints: [], approve: 'ask', client }, io('no, not this plan\n'));
    assert.notEqual(report.outcome, 'succeeded');
    assert.deepEqual(readdirSync(join(ws, 'src')).sort(), before);
    assert.equal(readFileSync(join(ws, 'src', 'index.js'), 'utf8'), "console.log('start');\n");
    assert.deepEqual(
      server.requests.map((r) => r.role),
      ['planner'],
      'no executor ever called',
    );
  });
});

describe('mission-level model faults (real SDK → messages server)', function () {
  this.timeout(30_000);

  it('survives a mid-stream overload in the planner and a cut stream in an executor', async () => {
    const scenario = e2eScenario({ parallelLatencyMs: 0 });
    const planRule = scenario.rules[0]!;
    planRule.turns = [[{ text: 'x', fault: 'overloaded_midstream' }, planRule.turns![0] as never]];
    const s1 = scenario.rules[1]!;
    s1.turns = [[{ text: 'partial', fault: 'stream_cut' }, s1.turns![0] as never], s1.turns![1]!];
    const server = await startMessagesServer({ scenario });
    const ws = tempWorkspace();
    try {
      const client = createAnthropicModelClient({ apiKey: 'k', baseURL: server.url, retry: { baseDelayMs: 1 } });
      const { report } = await runHeadless({ workspace: ws, task: 'Greet', constraints: [], approve: 'all', client }, io());
      assert.equal(report.outcome, 'succeeded', JSON.stringify(report));
      assert.deepEqual(
        server.requests
          .filter((r) => r.fault)
          .map((r) => r.fault)
          .sort(),
        ['overloaded_midstream', 'stream_cut'],
      );
    } finally {
      await server.close();
      rmSync(ws, { recursive: true, force: true });
    }
  });

  it('stops on a spend-limit 429 without retrying it, and says why', async () => {
    const scenario = e2eScenario({ parallelLatencyMs: 0 });
    for (const rule of scenario.rules.slice(1)) {
      rule.turns = undefined;
      rule.replies = Array.from({ length: 20 }, () => ({ fault: 'spend_limit' as const }));
    }
    const server = await startMessagesServer({ scenario });
    const ws = tempWorkspace();
    try {
      const client = createAnthropicModelClient({ apiKey: 'k', baseURL: server.url, retry: { baseDelayMs: 1 } });
      const trace = `${ws}.jsonl`;
      const { report } = await runHeadless({ workspace: ws, task: 'Greet', constraints: [], approve: 'all', client, trace }, io());
      assert.notEqual(report.outcome, 'succeeded');
      const events = readTrace(trace);
      const failedCalls = events.filter((e) => e.type === 'model_call' && e.failure?.detail === 'enforced_spend_limit_reached');
      assert.ok(failedCalls.length > 0);
      assert.equal(failedCalls.length, server.requests.filter((r) => r.fault === 'spend_limit').length, 'one request per model call: never retried');
      const results = events.filter((e) => e.type === 'step_result');
      assert.ok(results.some((e) => e.type === 'step_result' && /spend limit/i.test(e.result.failure?.message ?? '')));
      rmSync(trace, { force: true });
    } finally {
      await server.close();
      rmSync(ws, { recursive: true, force: true });
    }
  });
});
