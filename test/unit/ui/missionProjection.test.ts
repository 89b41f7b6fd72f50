import { strict as assert } from 'node:assert';
import type { TraceEvent, TraceEventBody } from '../../../src/core/contracts/traceEvents';
import { PlanSchema } from '../../../src/core/contracts/plan';
import { applyEventToView, emptyMissionView, missionViewFromTrace, stepCounts } from '../../../src/vscode/view/missionProjection';

const plan = (version: number, ids: string[], reason = 'initial plan') =>
  PlanSchema.parse({ goal: 'g', version, parentVersion: version > 1 ? version - 1 : null, reason, steps: ids.map((id) => ({ id, title: `T ${id}`, kind: 'edit' })) });

function trace(...bodies: TraceEventBody[]): TraceEvent[] {
  return bodies.map((b, seq) => ({ missionId: 'm1', seq, at: `2026-01-01T00:00:${String(seq).padStart(2, '0')}.000Z`, ...b }) as TraceEvent);
}

describe('mission view projection (sidebar)', () => {
  it('marks a step that was running when the trace stops as interrupted, and the mission as interrupted', () => {
    const view = missionViewFromTrace('m1', trace(
      { type: 'mission_started', task: 't', workspaceRoot: '/w', settings: {} },
      { type: 'plan_version', plan: plan(1, ['s1', 's2']), author: 'planner', diff: null },
      { type: 'mission_phase', phase: 'running' },
      { type: 'step_status', stepId: 's1', status: 'running', attempt: 1 },
    ));
    assert.equal(view.phase, 'interrupted');
    assert.equal(view.live, false);
    assert.deepEqual(view.steps.map((s) => s.status), ['interrupted', 'pending']);
  });

  it('leaves a finished mission as it ended', () => {
    const view = missionViewFromTrace('m1', trace(
      { type: 'plan_version', plan: plan(1, ['s1']), author: 'planner', diff: null },
      { type: 'step_status', stepId: 's1', status: 'succeeded', attempt: 1 },
      { type: 'mission_finished', outcome: 'succeeded', summary: 'done' },
    ));
    assert.equal(view.phase, 'succeeded');
    assert.equal(view.summary, 'done');
    assert.equal(view.steps[0]?.status, 'succeeded');
  });

  it('keeps a replaced step that ran in place, marked replaced, and counts only live steps', () => {
    const view = emptyMissionView('m1', 't');
    for (const e of trace(
      { type: 'plan_version', plan: plan(1, ['s1', 's2', 's3']), author: 'planner', diff: null },
      { type: 'step_status', stepId: 's1', status: 'succeeded', attempt: 1 },
      { type: 'step_status', stepId: 's2', status: 'failed', attempt: 1 },
      { type: 'plan_version', plan: plan(2, ['s1', 's2b', 's3'], 'replan'), author: 'replanner', diff: { added: ['s2b'], removed: ['s2'], changed: [] } },
    )) applyEventToView(view, e);
    assert.deepEqual(view.steps.map((s) => `${s.id}:${s.status}`), ['s1:succeeded', 's2:replaced', 's2b:pending', 's3:pending']);
    assert.deepEqual(stepCounts(view), { done: 1, total: 3 });
    assert.deepEqual(view.versions.map((v) => `${v.version}:${v.author}`), ['1:planner', '2:replanner']);
  });

  it('reports a bare status change as non-structural, so only that step is repainted', () => {
    const view = emptyMissionView('m1', 't');
    const [p, s] = trace({ type: 'plan_version', plan: plan(1, ['s1']), author: 'planner', diff: null }, { type: 'step_status', stepId: 's1', status: 'running', attempt: 1 });
    assert.equal(applyEventToView(view, p!).structural, true);
    assert.deepEqual(applyEventToView(view, s!), { structural: false, stepId: 's1' });
  });

  it('adds up the cost of every model call', () => {
    const view = emptyMissionView('m1', 't');
    const call = (costUsd: number): TraceEventBody => ({ type: 'model_call', role: 'executor', stepId: 's1', model: 'x', promptVersion: 'v', usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd, durationMs: 1, stopReason: null, requestId: null });
    for (const e of trace(call(0.25), call(0.5))) applyEventToView(view, e);
    assert.equal(view.costUsd, 0.75);
  });
});
