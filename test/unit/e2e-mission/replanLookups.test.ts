import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createAnthropicModelClient } from '../../../src/node/model/anthropicClient';
import { TraceEventSchema, type TraceEvent } from '../../../src/core/contracts/traceEvents';
import { runHeadless } from '../../../src/node/cliMission';
import { startMessagesServer, type MessagesServer } from '../../support/messages-server/server';
import type { RecordedRequest, ScenarioInput } from '../../support/messages-server/scenario';
import { wirePlan, wireStep as step } from '../../support/fixtures';

/** What only the failed command printed: the replanner can know it only by fetching the raw result. */
const RAW_MARKER = 'widget count 41, expected 42 (fixture drift in data/widgets.csv)';

const PLAN = wirePlan(
  [
    step('s0', {
      title: 'Look at the fixture check',
      kind: 'research',
      instructions: 'Read check.js.',
      authority: { read: ['**'], edit: [], commands: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['check.js'] }], description: '' },
    }),
    step('s1', {
      title: 'Run the fixture check',
      kind: 'command',
      instructions: 'Run node check.js.',
      authority: { read: ['**'], edit: [], commands: ['node check.js'] },
      evidence: { checks: [{ kind: 'command', command: 'node check.js', expectExitCode: 0, expectOutputIncludes: '' }], description: '' },
    }),
    step('s2', {
      title: 'Summarise the check',
      kind: 'research',
      dependsOn: ['s1'],
      instructions: 'Summarise what s1 found.',
      authority: { read: ['**'], edit: [], commands: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['check.js'] }], description: '' },
    }),
  ],
  { goal: 'Check the widget fixture' },
);

const REPLAN = {
  ...PLAN,
  reason: 'the check failed on fixture drift; report it instead',
  // Step mode: s0 finished and stays as it was; the failed s1 and its dependent s2 give way to s3.
  steps: [
    PLAN.steps[0]!,
    step('s3', {
      title: 'Report the fixture drift',
      kind: 'research',
      instructions: 'Summarise the drift.',
      authority: { read: ['**'], edit: [], commands: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['check.js'] }], description: '' },
    }),
  ],
};

const textOf = (content: unknown): string => (typeof content === 'string' ? content : JSON.stringify(content));
const firstUser = (r: RecordedRequest): string => textOf(r.body.messages?.[0]?.content);
const lastUser = (r: RecordedRequest): string => textOf(r.body.messages?.at(-1)?.content);

function scenario(): ScenarioInput {
  return {
    name: 'replanner fetches a failed step raw output',
    rules: [
      { name: 'plan', match: { role: 'planner' }, turns: [{ structured: PLAN }] },
      {
        name: 's1',
        match: { role: 'executor', firstUserIncludes: '# Step s1:' },
        turns: [
          { toolUse: [{ name: 'bash', input: { command: 'node check.js' } }] },
          {
            toolUse: [
              {
                name: 'report_result',
                input: {
                  status: 'failed',
                  output: 'the fixture check failed',
                  evidence: [],
                  failure: { class: 'tool_error', message: 'node check.js exited 1', recoverable: true },
                },
              },
            ],
          },
        ],
      },
      {
        name: 'other steps',
        match: { role: 'executor' },
        turns: [
          { toolUse: [{ name: 'report_result', input: { status: 'succeeded', output: 'reported the drift', evidence: [{ description: 'see the replan' }] } }] },
        ],
      },
      {
        name: 'replan',
        match: { role: 'replanner' },
        // Turn 1: look up the failed call by the id the request references; turn 2: the new plan.
        respond: (r) => {
          if (r.turn > 1) return { structured: REPLAN };
          const id = /tool_call_ids of the failed attempt: ([^,\]\s\\]+)/.exec(firstUser(r))?.[1];
          return id ? { toolUse: [{ name: 'fetch_tool_result', input: { tool_call_id: id } }] } : { structured: 'no tool call id in the replan request' };
        },
      },
    ],
  };
}

describe('replanning with read-only lookups (real SDK → messages server)', function () {
  this.timeout(30_000);
  let server: MessagesServer;
  let ws: string;

  afterEach(async () => {
    await server?.close();
    if (ws) rmSync(ws, { recursive: true, force: true });
  });

  it("lets the replanner fetch a failed step's raw tool output by id, with no write tool offered", async () => {
    server = await startMessagesServer({ scenario: scenario() });
    ws = mkdtempSync(join(tmpdir(), 'pe-replan-'));
    writeFileSync(join(ws, 'check.js'), `console.log(${JSON.stringify(RAW_MARKER)}); process.exit(1);\n`);
    const trace = `${ws}.jsonl`;
    const client = createAnthropicModelClient({ apiKey: 'k', baseURL: server.url, retry: { baseDelayMs: 1 } });
    const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: { PATH: process.env.PATH } };
    try {
      const { report } = await runHeadless({ workspace: ws, task: 'Check the widget fixture', constraints: [], approve: 'all', client, trace }, io);
      const events: TraceEvent[] = readFileSync(trace, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => TraceEventSchema.parse(JSON.parse(l)));

      assert.equal(report.outcome, 'succeeded', JSON.stringify(report));
      assert.ok(report.replans >= 1);

      // The failed bash call, and the replanner's lookup of exactly that call returning its raw output.
      const bash = events.filter((e): e is Extract<TraceEvent, { type: 'tool_call' }> => e.type === 'tool_call' && e.record.tool === 'bash').at(-1);
      assert.ok(bash && bash.record.output.includes(RAW_MARKER), 'the command really printed the marker');
      const lookup = events.find((e): e is Extract<TraceEvent, { type: 'tool_call' }> => e.type === 'tool_call' && e.record.tool === 'fetch_tool_result');
      assert.ok(lookup, 'the replanner called fetch_tool_result');
      assert.equal(lookup.record.role, 'replanner');
      assert.deepEqual(lookup.record.input, { toolCallId: bash.record.id });
      assert.ok(lookup.record.ok && lookup.record.output.includes(RAW_MARKER), lookup.record.output);

      // What the replanner was sent: the id by reference (not the raw text), then the raw text as the tool result.
      const replans = server.requests.filter((r) => r.role === 'replanner');
      assert.equal(replans.length, 2);
      assert.ok(firstUser(replans[0]!).includes(bash.record.id));
      assert.ok(!firstUser(replans[0]!).includes(RAW_MARKER), 'the raw output is not inlined in the request');
      assert.ok(lastUser(replans[1]!).includes(RAW_MARKER), 'the tool result carries the raw output');
      for (const r of replans) {
        assert.deepEqual(
          (r.body.tools ?? []).map((t) => t.name),
          ['view_file', 'list_files', 'search_files', 'fetch_tool_result'],
          'read-only lookups only',
        );
      }
      for (const r of server.requests.filter((q) => q.role === 'planner')) assert.equal(r.body.tools, undefined, 'the first plan still gets no tools');
    } finally {
      rmSync(trace, { force: true });
    }
  });
});
