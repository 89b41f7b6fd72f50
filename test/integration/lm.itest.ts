/**
 * VS Code's language models as a provider, in the real extension host: the fixture extension registers
 * models through VS Code's own provider API (1.100's `chatProvider` proposal), and missions run on them
 * through `vscode.lm` — model selection, tool calls and results, errors and limits as VS Code passes them.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceEvent } from '../../src/core/contracts/traceEvents';
import { startChatServer, type ChatServer } from '../support/openai-server/server';
import { lmFixture, scenarioResponder, type FixtureRequest } from './lmFixture';
import { api, runMission, withSettings, workspaceRoot } from './missionDriver';
import { NOTE_ONE, providerScenario, removeNotes } from './providerScenario';

const WRITE_TOOLS = ['str_replace_based_edit_tool', 'bash'];

async function traceOf(missionId: string): Promise<TraceEvent[]> {
  const store = await (await api()).test.missionStore();
  return (await store!.readEvents(missionId)) as TraceEvent[];
}

const finishedFailure = (events: TraceEvent[]) =>
  events.find((e): e is Extract<TraceEvent, { type: 'mission_finished' }> => e.type === 'mission_finished')?.failure;

/** Every tool call in a request's history is answered by a result in the next message, and only those. */
function assertPaired(request: FixtureRequest): void {
  request.messages.forEach((m, i) => {
    const calls = m.parts.filter((p) => p.type === 'tool_call').map((p) => p.callId);
    const next = request.messages[i + 1];
    const results = (next?.parts ?? []).filter((p) => p.type === 'tool_result').map((p) => p.callId);
    if (m.role === 'assistant' && calls.length > 0 && next)
      assert.deepEqual(
        results,
        calls,
        `message ${i}: calls ${calls.join(',')} answered by ${results.join(',')} in ${JSON.stringify(next.parts).slice(0, 400)}`,
      );
  });
}

describe('providers: VS Code language models (vscode-lm)', function () {
  this.timeout(120_000);
  let restore: (() => Promise<void>) | undefined;
  let server: ChatServer | undefined;

  afterEach(async () => {
    await restore?.();
    restore = undefined;
    await server?.close();
    server = undefined;
    removeNotes(workspaceRoot());
  });

  it('lists the models VS Code offers (those the fixture extension registered among them)', async () => {
    const pe = await api();
    const list = await pe.test.listModels('vscode-lm');
    assert.ok(list.ok, list.ok ? '' : list.message);
    assert.deepEqual(
      list.models
        .map((m) => m.ref)
        .filter((id) => id.startsWith('scripted'))
        .sort(),
      ['scripted', 'scripted-no-tools', 'scripted-tiny'],
    );
  });

  it('runs a mission on a VS Code language model with the planner on an OpenAI-compatible endpoint: same tools, same role separation, results paired with calls', async () => {
    const pe = await api();
    const fixture = await lmFixture();
    const seen: { role: string | null; rule: string | null; model: string }[] = [];
    fixture.setResponder(scenarioResponder(providerScenario(), seen as never));
    server = await startChatServer({ scenario: providerScenario() });
    restore = await withSettings({
      provider: 'vscode-lm',
      model: 'scripted',
      'models.planner': 'openai:planner-model',
      'openai.baseUrl': server.url,
      approvalMode: 'all',
    });
    const from = fixture.requests.length;

    const mission = await runMission(pe, 'Write two notes and a summary');
    assert.equal(mission.phase, 'succeeded', `${mission.summary}`);
    assert.equal(readFileSync(join(workspaceRoot(), 'notes/one.txt'), 'utf8'), NOTE_ONE);

    assert.deepEqual([...new Set(server.requests.map((r) => r.role))].sort(), ['planner', 'replanner'], 'planning went to the endpoint');
    const lm = fixture.requests.slice(from);
    const roles = new Set(seen.map((s) => s.role));
    assert.ok(roles.has('executor') && roles.has('verifier') && !roles.has('planner'), [...roles].join(', '));
    assert.ok(lm.every((r) => r.model === 'scripted' && r.extensionId === 'plan-execute.plan-execute'));
    for (const [i, r] of lm.entries()) {
      const names = r.tools.map((t) => t.name);
      if (seen[seen.length - lm.length + i]?.role === 'verifier')
        assert.ok(!names.some((n) => WRITE_TOOLS.includes(n)), `the verifier got a write tool: ${names.join(', ')}`);
      else assert.ok(WRITE_TOOLS.every((n) => names.includes(n)) && names.includes('report_result'), `executor tools: ${names.join(', ')}`);
      assertPaired(r);
    }
    const editor = lm[0]!.tools.find((t) => t.name === 'str_replace_based_edit_tool');
    assert.deepEqual(Object.keys((editor?.inputSchema as { properties: object }).properties).sort(), [
      'command',
      'file_text',
      'insert_line',
      'insert_text',
      'new_str',
      'old_str',
      'path',
      'view_range',
    ]);

    const calls = (await traceOf(mission.missionId)).filter((e): e is Extract<TraceEvent, { type: 'model_call' }> => e.type === 'model_call');
    assert.ok(
      calls.some((c) => c.provider === 'vscode-lm' && c.pricing === 'unknown' && c.usage.inputTokens > 0),
      "counted with the model's tokenizer, price unknown",
    );
    assert.ok(calls.some((c) => c.provider === 'openai' && c.role === 'planner'));
  });

  it('plans with the answer as a forced structured_output tool call, and waits out a Blocked (rate-limited) request', async () => {
    const pe = await api();
    const fixture = await lmFixture();
    const scenario = providerScenario();
    const plan = scenario.rules.find((r) => r.name === 'plan')!;
    plan.turns = [[{ fault: 'rate_limit' }, ...(plan.turns as never[])]];
    fixture.setResponder(scenarioResponder(scenario));
    restore = await withSettings({ provider: 'vscode-lm', model: 'plan-execute-fixture/scripted', approvalMode: 'all' });
    const from = fixture.requests.length;
    const mission = await runMission(pe, 'Write two notes and a summary');
    assert.equal(mission.phase, 'succeeded', `${mission.summary}`);
    const planner = fixture.requests.slice(from, from + 2);
    for (const r of planner) {
      assert.deepEqual(
        r.tools.map((t) => t.name),
        ['structured_output'],
      );
      assert.equal(r.toolMode, 2, 'LanguageModelChatToolMode.Required');
    }
    const waits = (await traceOf(mission.missionId)).filter((e): e is Extract<TraceEvent, { type: 'model_wait' }> => e.type === 'model_wait');
    assert.deepEqual(
      waits.map((w) => [w.role, w.provider, w.reason, w.attempt]),
      [['planner', 'vscode-lm', 'rate_limited', 1]],
    );
  });

  it('says at the first call that a model cannot call tools, and never sends it a request', async () => {
    const pe = await api();
    const fixture = await lmFixture();
    fixture.setResponder(scenarioResponder(providerScenario()));
    restore = await withSettings({ provider: 'vscode-lm', model: 'scripted-no-tools', approvalMode: 'all' });
    const from = fixture.requests.length;
    const mission = await runMission(pe, 'Write two notes and a summary');
    assert.equal(mission.phase, 'failed');
    const failure = finishedFailure(await traceOf(mission.missionId));
    assert.equal(failure?.cause, 'no_tool_support', JSON.stringify(failure));
    assert.equal(failure?.provider, 'vscode-lm');
    assert.match(failure?.message ?? '', /scripted-no-tools.*cannot call tools/);
    assert.equal(fixture.requests.length, from, 'nothing was sent to that model');
  });

  it("refuses a prompt over the model's maxInputTokens before sending it, and names a model VS Code does not have", async () => {
    const pe = await api();
    const fixture = await lmFixture();
    restore = await withSettings({ provider: 'vscode-lm', model: 'scripted-tiny', approvalMode: 'all' });
    const from = fixture.requests.length;
    let mission = await runMission(pe, 'Write two notes and a summary');
    let failure = finishedFailure(await traceOf(mission.missionId));
    assert.equal(failure?.cause, 'context_too_long', JSON.stringify(failure));
    assert.match(failure?.message ?? '', /at most 50/);
    assert.equal(fixture.requests.length, from);

    await restore();
    restore = await withSettings({ provider: 'vscode-lm', model: 'no-such-model', approvalMode: 'all' });
    mission = await runMission(pe, 'Write two notes and a summary');
    failure = finishedFailure(await traceOf(mission.missionId));
    assert.equal(failure?.cause, 'model_unavailable', JSON.stringify(failure));
    assert.match(failure?.message ?? '', /no language model "no-such-model".*scripted/);
  });

  it('stops with cause auth when the model provider refuses access (LanguageModelError.NoPermissions)', async () => {
    const pe = await api();
    const fixture = await lmFixture();
    const scenario = providerScenario();
    scenario.rules = scenario.rules.map((r) => (r.name === 's1' ? { ...r, turns: [{ fault: 'auth' }] } : r));
    fixture.setResponder(scenarioResponder(scenario));
    restore = await withSettings({ provider: 'vscode-lm', model: 'scripted', approvalMode: 'all' });
    const mission = await runMission(pe, 'Write two notes and a summary');
    assert.equal(mission.phase, 'failed');
    const events = await traceOf(mission.missionId);
    const failure = finishedFailure(events);
    assert.equal(failure?.cause, 'auth', JSON.stringify(failure));
    assert.equal(failure?.provider, 'vscode-lm');
    assert.equal(events.filter((e) => e.type === 'replan').length, 0, 'no replan for a provider that refuses');
  });
});
