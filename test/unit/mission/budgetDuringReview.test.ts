import assert from 'node:assert/strict';
import { runMission, startMission } from '../../../src/core/mission/start';
import type { ApprovalDecision, RoleContext } from '../../../src/core/ports';
import type { Plan } from '../../../src/core/contracts/plan';
import { totalEstimate } from '../../../src/core/contracts/estimate';
import { FakePlanner, ScriptedApprover, harness } from './fakes';
import { fileStep, plan as planOf } from '../../support/fixtures';

const plan = planOf([fileStep('s1'), fileStep('s2'), fileStep('s3', { dependsOn: ['s1', 's2'] })]);

const modelCall = (usage: { inputTokens: number; costUsd: number }) => ({
  type: 'model_call' as const,
  role: 'planner' as const,
  stepId: null,
  model: 'fake',
  promptVersion: 'test',
  usage: { inputTokens: usage.inputTokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: usage.costUsd,
  durationMs: 1,
  stopReason: 'end_turn',
  requestId: null,
});

/** A planner whose one model call costs $1 (the budget tracker reads it from the trace), then returns the plan. */
class CostlyPlanner extends FakePlanner {
  override async plan(_request?: unknown, ctx?: RoleContext): ReturnType<FakePlanner['plan']> {
    await ctx!.record(modelCall({ inputTokens: 10, costUsd: 1 }));
    return { ok: true, value: plan as Plan };
  }
}

/** A review the user never answers: it ends only when the engine withdraws it. */
const waitingReview = () =>
  new ScriptedApprover(
    (_request, signal) =>
      new Promise<ApprovalDecision>((resolve) => {
        const withdraw = (): void => resolve({ decision: 'rejected', reason: 'withdrawn' });
        if (signal.aborted) withdraw();
        else signal.addEventListener('abort', withdraw, { once: true });
      }),
  );

describe('mission budgets before execution', () => {
  it("reports budget_exceeded with the budget kind, not cancelled, when the planner's call overspends as the plan goes up for review", async () => {
    const h = harness(plan, { approver: waitingReview(), approve: 'ask', planner: new CostlyPlanner(plan), budgets: { maxCostUsd: 0.5 } });
    const report = await runMission(h.options);

    assert.equal(report.outcome, 'budget_exceeded', JSON.stringify(report));
    assert.deepEqual(report.budget, { kind: 'cost', used: 1, limit: 0.5 });
    assert.equal(report.failure?.class, 'budget_exceeded');
    assert.equal(report.planVersion, 1, 'the plan was adopted');
    assert.deepEqual([...report.neverStarted].sort(), ['s1', 's2', 's3']);
    assert.equal(h.executor.calls.length, 0);
    const trace = h.store.trace(report.missionId);
    assert.ok(!trace.some((e) => e.type === 'plan_approved'));
    const finished = trace.find((e) => e.type === 'mission_finished');
    assert.equal(finished?.type === 'mission_finished' && finished.outcome, 'budget_exceeded');
    const phase = trace.filter((e) => e.type === 'mission_phase').at(-1);
    assert.equal(phase?.type === 'mission_phase' && phase.phase, 'failed');
  });

  it('reports budget_exceeded when the budget runs out while the planner works', async () => {
    class AbortedAfterSpend extends FakePlanner {
      override async plan(_request?: unknown, ctx?: RoleContext): ReturnType<FakePlanner['plan']> {
        await ctx!.record(modelCall({ inputTokens: 5000, costUsd: 0 }));
        // The planner's next call sees the kill switch and fails as cancelled.
        await new Promise<void>((resolve) => (ctx!.signal.aborted ? resolve() : ctx!.signal.addEventListener('abort', () => resolve(), { once: true })));
        return {
          ok: false,
          error: {
            class: 'cancelled',
            message: 'the request was aborted',
            partialSideEffects: { files: [], commands: [] },
            recoverable: true,
            suggestion: '',
          },
        };
      }
    }
    const h = harness(plan, { approve: 'ask', planner: new AbortedAfterSpend(plan), budgets: { maxTokens: 1000 } });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'budget_exceeded', JSON.stringify(report));
    assert.equal(report.budget?.kind, 'tokens');
    assert.equal(report.planVersion, null);
    assert.equal(h.approver.requests.length, 0, 'no plan to review');
  });

  it('withdraws a plan review that the mission was stopped while opening (no review left waiting)', async () => {
    let cancel: () => void = () => undefined;
    // The sink sees approval_requested once it is persisted, before the engine hands the request to the
    // approver: a cancel right there is the narrowest window.
    const h = harness(plan, {
      approver: waitingReview(),
      approve: 'ask',
      events: {
        emit: (e) => {
          if (e.type === 'approval_requested') cancel();
        },
      },
    });
    const handle = startMission(h.options);
    cancel = () => handle.cancel('stopped while the review opened');
    const report = await Promise.race([handle.done, new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000))]);
    assert.ok(report, 'the mission ended instead of waiting on a review nobody can answer');
    assert.equal(report.outcome, 'cancelled');
    assert.equal(h.approver.requests.length, 1);
  });

  it('asks again for the edited version when the user edits the plan while its review is being opened', async () => {
    let edit: () => void = () => undefined;
    // An edit that lands while the plan's estimate is recorded, before the request exists: nothing could
    // withdraw the request yet, so it must not go out for v1 (seen in VS Code, whose store is slower).
    const h = harness(plan, {
      approver: waitingReview(),
      approve: 'ask',
      estimatePlan: (p) => totalEstimate(p.steps.map((s) => ({ stepId: s.id, tokens: 1_000, costUsd: 0.01, pricing: 'priced' as const, models: ['m'] }))),
      events: {
        emit: (e) => {
          if (e.type === 'plan_estimate') edit();
        },
      },
    });
    const handle = startMission(h.options);
    edit = () => {
      edit = () => undefined;
      void handle.editPlan({ kind: 'instructions', stepId: 's2', instructions: 'edited while the review opened' });
    };
    const deadline = Date.now() + 3000;
    while (!h.approver.requests.some((r) => r.kind === 'plan' && r.plan.version === 2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const asked = h.approver.requests.filter((r) => r.kind === 'plan').map((r) => (r.kind === 'plan' ? r.plan.version : 0));
    handle.cancel('test over');
    await handle.done;
    assert.equal(asked.at(-1), 2, `the review waiting for the user is the edited version (asked: ${asked.join(', ')})`);
    const decided = h.store.trace(handle.missionId).filter((e) => e.type === 'approval_decided');
    assert.ok(
      decided.some((e) => e.type === 'approval_decided' && e.decision.decision === 'rejected' && /superseded by plan v2/.test(e.decision.reason)),
      'the v1 request is recorded as superseded',
    );
  });
});
