import { strict as assert } from 'node:assert';
import type { TraceEvent, TraceEventBody } from '../../../src/core/contracts/traceEvents';
import { missionViewFromEvents } from '../../../src/core/mission/view';
import { stepCounts, toUiMission } from '../../../src/vscode/view/uiMission';
import { parsedPlan, step } from '../../support/fixtures';
import { totalEstimate } from '../../../src/core/contracts/estimate';

const plan = (version: number, ids: string[], reason = 'initial plan', instructions: Record<string, string> = {}) =>
  parsedPlan(
    ids.map((id) => step(id, { title: `T ${id}`, instructions: instructions[id] ?? '', authority: undefined, evidence: undefined })),
    { goal: 'g', version, parentVersion: version > 1 ? version - 1 : null, reason },
  );

function trace(...bodies: TraceEventBody[]): TraceEvent[] {
  return bodies.map((b, seq) => ({ missionId: 'm1', seq, at: `2026-01-01T00:00:${String(seq).padStart(2, '0')}.000Z`, ...b }) as TraceEvent);
}

const ui = (live: boolean, ...bodies: TraceEventBody[]) => toUiMission(missionViewFromEvents(trace(...bodies)), { live });

describe("the surfaces' mission view (shaped from core's projection)", () => {
  it('marks a step that was running when the trace stops as interrupted, and the mission as interrupted', () => {
    const view = ui(
      false,
      { type: 'mission_started', task: 't', workspaceRoot: '/w', settings: {} },
      { type: 'plan_version', plan: plan(1, ['s1', 's2']), author: 'planner', diff: null },
      { type: 'mission_phase', phase: 'running' },
      { type: 'step_status', stepId: 's1', status: 'running', attempt: 1 },
    );
    assert.equal(view.phase, 'interrupted');
    assert.equal(view.live, false);
    assert.deepEqual(
      view.steps.map((s) => s.status),
      ['interrupted', 'pending'],
    );
  });

  it('shows a live mission that is running as running', () => {
    const view = ui(
      true,
      { type: 'plan_version', plan: plan(1, ['s1']), author: 'planner', diff: null },
      { type: 'mission_phase', phase: 'running' },
      { type: 'step_status', stepId: 's1', status: 'running', attempt: 1 },
    );
    assert.equal(view.phase, 'running');
    assert.equal(view.steps[0]?.status, 'running');
  });

  it("keeps the user's task word for word", () => {
    const task = '  Add  removeTask <b>now</b>\nplease ';
    assert.equal(ui(true, { type: 'mission_started', task, workspaceRoot: '/w', settings: {} }).task, task);
  });

  it('leaves a finished mission as it ended', () => {
    const view = ui(
      false,
      { type: 'plan_version', plan: plan(1, ['s1']), author: 'planner', diff: null },
      { type: 'step_status', stepId: 's1', status: 'succeeded', attempt: 1 },
      { type: 'mission_finished', outcome: 'succeeded', summary: 'done' },
    );
    assert.equal(view.phase, 'succeeded');
    assert.equal(view.summary, 'done');
    assert.equal(view.steps[0]?.status, 'succeeded');
  });

  it('keeps a replaced step that ran in place, marked replaced, and counts only live steps', () => {
    const view = ui(
      true,
      { type: 'plan_version', plan: plan(1, ['s1', 's2', 's3']), author: 'planner', diff: null },
      { type: 'step_status', stepId: 's1', status: 'succeeded', attempt: 1 },
      { type: 'step_status', stepId: 's2', status: 'failed', attempt: 1 },
      { type: 'plan_version', plan: plan(2, ['s1', 's2b', 's3'], 'replan'), author: 'replanner', diff: { added: ['s2b'], removed: ['s2'], changed: [] } },
    );
    assert.deepEqual(
      view.steps.map((s) => `${s.id}:${s.status}:${s.inPlan}`),
      ['s1:succeeded:true', 's2:replaced:false', 's2b:pending:true', 's3:pending:true'],
    );
    assert.equal(view.steps[1]?.statusReason, 'not in plan v2');
    assert.deepEqual(stepCounts(view), { done: 1, total: 3 });
    assert.deepEqual(
      view.versions.map((v) => `${v.version}:${v.author}:${v.stepCount}`),
      ['1:planner:3', '2:replanner:3'],
    );
  });

  it('shows what a version changed field by field, before and after', () => {
    const view = ui(
      true,
      { type: 'plan_version', plan: plan(1, ['s1', 's2'], 'initial plan', { s2: 'Run it.' }), author: 'planner', diff: null },
      {
        type: 'plan_version',
        plan: plan(2, ['s1', 's2'], 'user edit', { s2: 'Check it without running.' }),
        author: 'user',
        diff: { added: [], removed: [], changed: [{ stepId: 's2', fields: ['instructions'] }] },
      },
    );
    assert.deepEqual(view.versions[0]?.changes, []);
    assert.deepEqual(view.versions[1]?.changes, [{ stepId: 's2', field: 'instructions', before: 'Run it.', after: 'Check it without running.' }]);
    assert.equal(view.steps[1]?.instructions, 'Check it without running.');
  });

  it('words replan triggers for people (no raw kinds such as user_correction)', () => {
    const view = ui(
      true,
      { type: 'plan_version', plan: plan(1, ['s1']), author: 'planner', diff: null },
      {
        type: 'replan',
        trigger: 'user_correction',
        stepId: 's1',
        mode: 'rest',
        evidence: 'the user said: no',
        fromVersion: 1,
        toVersion: null,
        invalidated: [],
      },
    );
    assert.equal(view.replans[0]?.trigger, 'your correction on step s1');
    assert.doesNotMatch(JSON.stringify(view.replans), /user_correction/);
  });

  it("lists the files a step changed over all its attempts, a failed attempt's leftovers included", () => {
    const file = (path: string, beforeHash: string | null, afterHash: string | null) => ({ path, change: 'modified' as const, beforeHash, afterHash });
    const result = (status: 'failed' | 'succeeded', files: ReturnType<typeof file>[], partial: ReturnType<typeof file>[] = []) => ({
      stepId: 's1',
      status,
      output: '',
      evidence: [],
      toolCallIds: [],
      sideEffects: { files, commands: [] },
      ...(status === 'failed'
        ? { failure: { class: 'tool_error', message: 'boom', partialSideEffects: { files: partial, commands: [] }, recoverable: true, suggestion: '' } }
        : {}),
    });
    const view = ui(
      true,
      { type: 'plan_version', plan: plan(1, ['s1']), author: 'planner', diff: null },
      { type: 'step_result', result: result('failed', [], [file('a.ts', 'h0', 'h1')]) } as TraceEventBody,
      { type: 'step_result', result: result('succeeded', [file('a.ts', 'h1', 'h2'), file('b.ts', null, 'h3')]) } as TraceEventBody,
    );
    assert.deepEqual(
      view.steps[0]?.files.map((f) => `${f.path}:${f.change}:${f.beforeHash}→${f.afterHash}`),
      ['a.ts:modified:h0→h2', 'b.ts:created:null→h3'],
    );
  });

  it('adds up the cost of every model call', () => {
    const call = (costUsd: number): TraceEventBody => ({
      type: 'model_call',
      role: 'executor',
      stepId: 's1',
      model: 'x',
      promptVersion: 'v',
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd,
      durationMs: 1,
      stopReason: null,
      requestId: null,
    });
    assert.equal(ui(true, call(0.25), call(0.5)).costUsd, 0.75);
  });

  it("words the waiting version's estimate, drops it once a newer version has none, and sets the estimate beside the actual cost at the end", () => {
    const estimate = totalEstimate([
      { stepId: 's1', tokens: 12_000, costUsd: 0.0123, pricing: 'priced', models: ['claude-haiku-5-5'] },
      { stepId: 's2', tokens: 3_000, costUsd: 0.0007, pricing: 'priced', models: ['claude-haiku-5-5', 'claude-sonnet-5-5'] },
    ]);
    const v1 = [
      { type: 'plan_version', plan: plan(1, ['s1', 's2']), author: 'planner', diff: null },
      { type: 'plan_estimate', version: 1, estimate },
    ] as const satisfies TraceEventBody[];
    const waiting = ui(true, ...v1);
    assert.deepEqual(waiting.costEstimate, {
      version: 1,
      total: '15,000 tokens, $0.0130 for 2 steps',
      steps: { s1: '12,000 tokens, $0.0123 on claude-haiku-5-5', s2: '3,000 tokens, $0.0007 on claude-haiku-5-5, claude-sonnet-5-5' },
    });
    assert.equal(waiting.costReport, undefined);
    // v2 (an edit) has no estimate yet: v1's figures are not shown as v2's.
    const edited = ui(true, ...v1, { type: 'plan_version', plan: plan(2, ['s1']), author: 'user', diff: null });
    assert.equal(edited.costEstimate, undefined);

    const ended = ui(false, ...v1, {
      type: 'cost_summary',
      summary: {
        version: 1,
        estimate,
        actual: { tokens: 30_000, costUsd: 0.026, unpricedCalls: 0 },
        planning: { tokens: 5_000, costUsd: 0.01 },
        steps: [
          { stepId: 's1', estimatedTokens: 12_000, estimatedUsd: 0.0123, actualTokens: 24_000, actualUsd: 0.02 },
          { stepId: 's2', estimatedTokens: 3_000, estimatedUsd: 0.0007, actualTokens: 6_000, actualUsd: 0.006 },
        ],
      },
    });
    assert.deepEqual(ended.costReport, [
      'Estimate → actual (executor and verifier calls, plan v1): 15,000 tokens, $0.0130 → 30,000 tokens, $0.0260 (actual ÷ estimate: 2.00 in tokens, 2.00 in money)',
      '  s1: 12,000 tokens, $0.0123 → 24,000 tokens, $0.0200',
      '  s2: 3,000 tokens, $0.0007 → 6,000 tokens, $0.0060',
      '  planning (not in the estimate): 5,000 tokens, $0.0100',
    ]);
  });
});
