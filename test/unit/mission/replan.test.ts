import assert from 'node:assert/strict';
import { runMission, startMission } from '../../../src/core/mission/start';
import { analytics } from '../../../src/core/trace/analytics';
import { FakeExecutor, FakePlanner, failedResult, harness, sleep } from './fakes';
import { fileStep, plan as planOf } from '../../support/fixtures';
import type { PlanInput } from '../../../src/core/contracts/plan';

const v1 = planOf([fileStep('s1'), fileStep('s2', { dependsOn: ['s1'] }), fileStep('s3', { dependsOn: ['s2'] })]);
const alwaysFails = (id: string) => ({ [id]: async (h: { step: { id: string } }) => failedResult(h.step.id, `${id} cannot work this way`) });

/** v1 with s2 replaced by s2b (same position in the chain). */
const replacingS2: PlanInput = planOf([fileStep('s1'), fileStep('s2b', { dependsOn: ['s1'] }), fileStep('s3', { dependsOn: ['s2b'] })]);

describe('replanning', () => {
  it('replans a required step after its retry fails, keeping finished steps finished', async () => {
    const executor = new FakeExecutor(alwaysFails('s2'));
    const planner = new FakePlanner(v1, () => replacingS2);
    const h = harness(v1, { executor, planner });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.equal(executor.count('s2'), 2, 'one retry before the replan');
    assert.equal(executor.count('s1'), 1, 'the finished step is not re-run');
    assert.equal(planner.replans.length, 1);
    const request = planner.replans[0]!;
    assert.equal(request.mode, 'step');
    assert.equal(request.trigger.kind, 'step_failed');
    assert.equal(request.trigger.stepId, 's2');
    assert.match(request.trigger.evidence, /cannot work this way/);
    assert.deepEqual(
      request.finished.map((f) => f.stepId),
      ['s1'],
    );
    const trace = h.store.trace(report.missionId);
    const replan = trace.find((e) => e.type === 'replan');
    assert.ok(replan && replan.type === 'replan' && replan.toVersion === 2);
    const version = trace.find((e) => e.type === 'plan_version' && e.plan.version === 2);
    assert.ok(version && version.type === 'plan_version');
    assert.deepEqual(version.diff?.added, ['s2b']);
    assert.deepEqual(version.diff?.removed, ['s2']);
    assert.equal(version.plan.parentVersion, 1);
    assert.ok(trace.some((e) => e.type === 'step_status' && e.stepId === 's2' && e.status === 'replaced'));
  });

  it('refuses a replan that introduces a cycle, records why, and asks again', async () => {
    const executor = new FakeExecutor(alwaysFails('s2'));
    const cyclic = planOf([fileStep('s1'), fileStep('s2b', { dependsOn: ['s1', 's3'] }), fileStep('s3', { dependsOn: ['s2b'] })]);
    const planner = new FakePlanner(v1, (_r, n) => (n === 1 ? cyclic : replacingS2));
    const h = harness(v1, { executor, planner });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded');
    const replans = h.store.trace(report.missionId).filter((e) => e.type === 'replan');
    assert.equal(replans.length, 2);
    const refused = replans[0]!;
    assert.ok(refused.type === 'replan' && refused.toVersion === null);
    assert.match(refused.type === 'replan' ? refused.evidence : '', /cycle: s2b → s3 → s2b/);
    assert.match(planner.replans[1]!.trigger.evidence, /previous replan was refused/);
  });

  it('refuses a replan that changes a finished step without naming it, and accepts it when named with a reason', async () => {
    const executor = new FakeExecutor(alwaysFails('s2'));
    const sneaky = planOf([
      fileStep('s1', { instructions: 'do it again, differently' }),
      fileStep('s2b', { dependsOn: ['s1'] }),
      fileStep('s3', { dependsOn: ['s2b'] }),
    ]);
    const honest = { ...sneaky, invalidated: [{ stepId: 's1', reason: 's1 wrote the wrong config' }] };
    const planner = new FakePlanner(v1, (_r, n) => (n === 1 ? sneaky : honest));
    const h = harness(v1, { executor, planner });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded');
    const replans = h.store.trace(report.missionId).filter((e) => e.type === 'replan');
    assert.match(replans[0]!.type === 'replan' ? replans[0]!.evidence : '', /finished step "s1" was changed \(instructions\) without saying why/);
    const accepted = replans[1]!;
    assert.ok(accepted.type === 'replan');
    assert.deepEqual(accepted.invalidated, [{ stepId: 's1', reason: 's1 wrote the wrong config' }]);
    assert.equal(executor.count('s1'), 2, 'the invalidated step re-runs');
  });

  it('refuses a replan that silently drops a finished step', async () => {
    const executor = new FakeExecutor(alwaysFails('s2'));
    const dropping = planOf([fileStep('s2b'), fileStep('s3', { dependsOn: ['s2b'] })]);
    const planner = new FakePlanner(v1, () => dropping);
    const h = harness(v1, { executor, planner, budgets: { maxReplans: 2 } });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'budget_exceeded');
    assert.equal(report.budget?.kind, 'replans');
    const refusals = h.store.trace(report.missionId).filter((e) => e.type === 'replan' && e.toVersion === null);
    assert.equal(refusals.length, 2);
    assert.ok(refusals.every((e) => e.type === 'replan' && /finished step "s1" was dropped/.test(e.evidence)));
  });

  it('caps replanning depth with maxReplans (no decomposition spiral)', async () => {
    let n = 0;
    const failingEverything = new FakeExecutor(new Proxy({}, { get: () => async (h: { step: { id: string } }) => failedResult(h.step.id) }) as never);
    const planner = new FakePlanner(v1, () =>
      planOf([fileStep('s1'), fileStep(`x${++n}`, { dependsOn: ['s1'] }), fileStep(`y${n}`, { dependsOn: [`x${n}`] })]),
    );
    const h = harness(v1, { executor: failingEverything, planner, budgets: { maxReplans: 2 } });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'budget_exceeded');
    assert.equal(report.budget?.kind, 'replans');
    assert.equal(planner.replans.length, 2);
  });

  it('does not replan in direct mode: a failure ends the mission and says so', async () => {
    const executor = new FakeExecutor(alwaysFails('s2'));
    const plan = planOf([fileStep('s1'), fileStep('s2', { dependsOn: ['s1'] })]);
    const planner = new FakePlanner(plan, () => replacingS2);
    const h = harness(plan, { executor, planner });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'failed');
    assert.match(report.summary, /direct mode: a short plan is not replanned/);
    assert.equal(planner.replans.length, 0);
  });

  it('turns a user correction mid-mission into a rest-of-mission replan', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const executor = new FakeExecutor({
      s2: async (h, tools) => {
        await gate;
        const f = await tools.create('out/s2.txt', 'x');
        return { stepId: h.step.id, status: 'succeeded', output: 'ok', evidence: [], sideEffects: { files: [], commands: [] }, toolCallIds: [f.toolCallId] };
      },
    });
    const corrected = planOf([fileStep('s1'), fileStep('s2', { dependsOn: ['s1'] }), fileStep('s3', { dependsOn: ['s2'], instructions: 'use yarn, not npm' })]);
    const planner = new FakePlanner(v1, () => corrected);
    const h = harness(v1, { executor, planner });
    const handle = startMission(h.options);
    while (executor.calls.length < 1 || h.store.trace(handle.missionId).every((e) => !(e.type === 'step_status' && e.stepId === 's2'))) await sleep(2);
    const sent = await handle.correct('s3', 'use yarn, not npm');
    assert.deepEqual(sent, { ok: true, value: undefined });
    release();
    const report = await handle.done;
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.equal(planner.replans[0]!.trigger.kind, 'user_correction');
    assert.equal(planner.replans[0]!.mode, 'rest');
    assert.equal(executor.calls.find((c) => c.stepId === 's3')!.handoff.step.instructions, 'use yarn, not npm');
    assert.equal(executor.count('s2'), 1, 'the step running during the correction finished and was kept');
  });

  it('answers which steps replan most and how effort splits between planning and acting', async () => {
    const executor = new FakeExecutor(alwaysFails('s2'), 0, 100);
    const planner = new FakePlanner(v1, () => replacingS2);
    const h = harness(v1, { executor, planner });
    const report = await runMission(h.options);
    const trace = h.store.trace(report.missionId);
    const a = analytics(trace);
    assert.deepEqual(a.replansByStep, [{ stepId: 's2', replans: 1 }]);
    const executorCalls = trace.filter((e) => e.type === 'model_call').length;
    assert.equal(a.effort.acting.modelCalls, executorCalls);
    assert.equal(a.effort.acting.inputTokens, executorCalls * 100);
    assert.equal(a.planningShare.tokens, 0, 'the fake planner records no model calls');
  });

  it('replans at once on an executor escalation, without a retry', async () => {
    const executor = new FakeExecutor({
      s2: async (h) => ({
        stepId: h.step.id,
        status: 'needs_replan',
        output: 'needs write access to config/',
        evidence: [],
        sideEffects: { files: [], commands: [] },
        toolCallIds: [],
        failure: {
          class: 'permission_denied',
          message: 'config/app.json is outside my edit authority',
          detail: 'authority.edit',
          partialSideEffects: { files: [], commands: [] },
          recoverable: true,
          suggestion: 'add config/app.json to s2',
        },
      }),
    });
    const planner = new FakePlanner(v1, () => replacingS2);
    const h = harness(v1, { executor, planner });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.equal(executor.count('s2'), 1, 'no retry: a retry cannot grant authority');
    assert.equal(planner.replans[0]!.trigger.kind, 'escalation');
    assert.equal(planner.replans[0]!.mode, 'step');
    assert.match(planner.replans[0]!.trigger.evidence, /permission_denied.*outside my edit authority.*authority\.edit/);
  });

  it('replans the rest of the mission when a step reports a materially different observation', async () => {
    const executor = new FakeExecutor({
      s1: async (h, tools) => {
        const f = await tools.create('out/s1.txt', 'x');
        return {
          stepId: h.step.id,
          status: 'succeeded',
          output: 'done',
          evidence: [],
          sideEffects: { files: [], commands: [] },
          toolCallIds: [f.toolCallId],
          observation: 'the project uses pnpm workspaces, not npm',
        };
      },
    });
    const planner = new FakePlanner(v1, (r) => ({ ...r.current, steps: r.current.steps.map((s) => (s.id === 's3' ? { ...s, instructions: 'use pnpm' } : s)) }));
    const h = harness(v1, { executor, planner });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.equal(planner.replans[0]!.trigger.kind, 'observation');
    assert.equal(planner.replans[0]!.mode, 'rest');
    assert.equal(executor.count('s1'), 1);
    assert.equal(executor.calls.find((c) => c.stepId === 's3')!.handoff.step.instructions, 'use pnpm');
  });
});
