import { strict as assert } from 'node:assert';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createAnthropicModelClient } from '../../../src/node/model/anthropicClient';
import { TraceEventSchema } from '../../../src/core/contracts/traceEvents';
import { runHeadless } from '../../../src/node/cliMission';
import { startMessagesServer, type MessagesServer } from '../../support/messages-server/server';
import { E2E_PLAN, e2eScenario } from './scenario';

function tempWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pe-budget-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'index.js'), "console.log('start');\n");
  return dir;
}

/** stdin stays open and silent: a plan shown for review in ask mode is never answered by the user. */
const silentTerminal = () => ({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: { PATH: process.env.PATH } });

describe('a budget that runs out before any step runs', function () {
  this.timeout(30_000);
  let server: MessagesServer;
  let ws: string;

  afterEach(async () => {
    await server?.close();
    if (ws) rmSync(ws, { recursive: true, force: true });
  });

  it("reports budget_exceeded (cost), not cancelled, when the planner's last call overspends and the plan never gets approved", async () => {
    server = await startMessagesServer({ scenario: e2eScenario({ parallelLatencyMs: 0 }) });
    ws = tempWorkspace();
    const trace = `${ws}.jsonl`;
    const client = createAnthropicModelClient({ apiKey: 'k', baseURL: server.url, retry: { baseDelayMs: 1 } });
    try {
      const { report } = await runHeadless(
        { workspace: ws, task: 'Greet and say goodbye', constraints: [], approve: 'ask', client, limits: { budgets: { maxCostUsd: 0.000_1 } }, trace },
        silentTerminal(),
      );
      assert.equal(report.outcome, 'budget_exceeded', JSON.stringify(report));
      assert.equal(report.budget?.kind, 'cost');
      assert.equal(report.failure?.class, 'budget_exceeded');
      assert.ok(report.usage.costUsd > 0.000_1);
      assert.equal(report.planVersion, 1, 'the plan was adopted');
      assert.deepEqual(
        server.requests.map((r) => r.role),
        ['planner'],
        'no step ran',
      );
      const events = readFileSync(trace, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => TraceEventSchema.parse(JSON.parse(l)));
      assert.ok(!events.some((e) => e.type === 'plan_approved'));
      const finished = events.find((e) => e.type === 'mission_finished');
      assert.equal(finished?.type === 'mission_finished' && finished.outcome, 'budget_exceeded');
    } finally {
      rmSync(trace, { force: true });
    }
  });

  it('reports budget_exceeded (cost) when it runs out while the planner is still working', async () => {
    const scenario = e2eScenario({ parallelLatencyMs: 0 });
    // The first plan is invalid, so the planner asks again; the budget runs out during that second call.
    scenario.rules[0]!.turns = [{ structured: { ...E2E_PLAN, steps: [] } }, { latencyMs: 2000, structured: E2E_PLAN }];
    server = await startMessagesServer({ scenario });
    ws = tempWorkspace();
    const client = createAnthropicModelClient({ apiKey: 'k', baseURL: server.url, retry: { baseDelayMs: 1 } });
    const { report } = await runHeadless(
      { workspace: ws, task: 'Greet and say goodbye', constraints: [], approve: 'ask', client, limits: { budgets: { maxCostUsd: 0.000_1 } } },
      silentTerminal(),
    );
    assert.equal(report.outcome, 'budget_exceeded', JSON.stringify(report));
    assert.equal(report.budget?.kind, 'cost');
    assert.equal(report.planVersion, null, 'no plan was ever adopted');
    assert.ok(server.requests.every((r) => r.role === 'planner'));
  });
});
