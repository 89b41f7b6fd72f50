import assert from 'node:assert/strict';
import { runMission } from '../../../src/core/mission/start';
import { missionViewFromEvents } from '../../../src/core/mission/view';
import { totalEstimate, type PlanEstimate } from '../../../src/core/contracts/estimate';
import type { Plan } from '../../../src/core/contracts/plan';
import { FakeExecutor, harness } from './fakes';
import { fileStep, plan } from '../../support/fixtures';

const two = plan([fileStep('s1'), fileStep('s2', { dependsOn: ['s1'] })]);

/** An estimate of 1,000 tokens and $0.01 per step. */
const flat = (p: Plan): PlanEstimate =>
  totalEstimate(p.steps.map((s) => ({ stepId: s.id, tokens: 1_000, costUsd: 0.01, pricing: 'priced' as const, models: ['m'] })));

describe('mission: the estimate before approval and beside the actual cost after', () => {
  it('records the estimate before the plan approval, sends it with the request, and shows it in the view', async () => {
    const h = harness(two, { estimatePlan: flat });
    const report = await runMission(h.options);
    const trace = h.store.trace(report.missionId);
    const estimateAt = trace.findIndex((e) => e.type === 'plan_estimate' && e.version === 1);
    const requestAt = trace.findIndex((e) => e.type === 'approval_requested' && e.kind === 'plan');
    assert.ok(estimateAt >= 0 && estimateAt < requestAt, 'estimated before it is asked');
    const request = h.approver.requests.find((r) => r.kind === 'plan');
    assert.equal(request?.kind === 'plan' ? request.estimate?.tokens : undefined, 2_000);
    assert.equal(missionViewFromEvents(trace).estimate?.estimate.costUsd, 0.02);
  });

  it('sets the estimate beside what each step spent when the mission ends (trace, report and view)', async () => {
    const h = harness(two, { estimatePlan: flat, executor: new FakeExecutor({}, 0, 700) });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded');
    const trace = h.store.trace(report.missionId);
    const summary = trace.find((e) => e.type === 'cost_summary');
    assert.ok(summary?.type === 'cost_summary');
    const finishedAt = trace.findIndex((e) => e.type === 'mission_finished');
    assert.ok(trace.indexOf(summary) < finishedAt);
    assert.deepEqual(summary.summary.steps, [
      { stepId: 's1', estimatedTokens: 1_000, estimatedUsd: 0.01, actualTokens: 700, actualUsd: 0 },
      { stepId: 's2', estimatedTokens: 1_000, estimatedUsd: 0.01, actualTokens: 700, actualUsd: 0 },
    ]);
    assert.equal(summary.summary.actual.tokens, 1_400);
    assert.equal(summary.summary.version, 1);
    assert.deepEqual(report.cost, summary.summary);
    assert.deepEqual(missionViewFromEvents(trace).cost, summary.summary);
  });

  it('records neither when the front end does not estimate', async () => {
    const h = harness(two);
    const report = await runMission(h.options);
    const trace = h.store.trace(report.missionId);
    assert.equal(
      trace.some((e) => e.type === 'plan_estimate' || e.type === 'cost_summary'),
      false,
    );
    assert.equal(report.cost, undefined);
  });
});
