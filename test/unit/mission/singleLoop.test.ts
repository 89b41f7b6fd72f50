import assert from 'node:assert/strict';
import { runMission } from '../../../src/core/mission/start';
import { SINGLE_LOOP_STEP_ID, singleLoopPlan } from '../../../src/core/mission/direct';
import type { PlannerRole, VerifierRole } from '../../../src/core/ports';
import { renderHandoff } from '../../../src/core/roles/handoffRender';
import { FakeExecutor, failedResult, harness } from './fakes';

const TASK = 'Fix the median of an even-length list.\nThe tests in test/ show what is expected.';
const UNION = { read: ['**'], edit: ['**'], commands: ['node *'], network: false, mcp: [] };

const noPlanner: PlannerRole = {
  plan: async () => {
    throw new Error('the baseline must not call the planner');
  },
  replan: async () => {
    throw new Error('the baseline must not replan');
  },
};
const noVerifier: VerifierRole = {
  review: async () => {
    throw new Error('the baseline must not call the verifier');
  },
};

describe('the single-loop baseline (verify: false with singleLoopPlan)', () => {
  it('runs one executor on the whole task with the union authority; nothing plans, nothing verifies', async () => {
    const executor = new FakeExecutor();
    const h = harness(singleLoopPlan(TASK, UNION), { executor, verifier: noVerifier, approve: 'all', verify: false, retriesPerStep: 0 });
    h.options.plan = singleLoopPlan(TASK, UNION);
    h.options.planner = noPlanner;
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.equal(report.direct, true);
    assert.deepEqual(report.succeeded, [SINGLE_LOOP_STEP_ID]);
    assert.equal(executor.calls.length, 1);
    const handoff = executor.calls[0]!.handoff;
    assert.equal(handoff.step.instructions, TASK);
    assert.deepEqual(handoff.authority.edit, ['**']);
    const evidence = /## Evidence the verifier will check\n {2}- none: nothing checks your work after you/;
    assert.match(renderHandoff(handoff, 4000), evidence, 'the executor is not told of a reviewer');
    const trace = h.store.trace(report.missionId);
    const verification = trace.find((e) => e.type === 'verification');
    assert.ok(verification?.type === 'verification');
    assert.deepEqual(
      verification.verification.checks.map((c) => c.check),
      ['not verified'],
    );
    assert.match(verification.verification.checks[0]!.detail, /report stands unchecked/);
    assert.ok(!trace.some((e) => e.type === 'step_status' && e.status === 'verifying'), 'no verifying phase');
    const started = trace.find((e) => e.type === 'mission_started');
    assert.equal(started?.type === 'mission_started' && started.settings.verify, false, 'the trace records that nothing verifies');
  });

  it("ends the mission at the executor's failure: no retry, no replan", async () => {
    const executor = new FakeExecutor({ [SINGLE_LOOP_STEP_ID]: async (h) => failedResult(h.step.id, 'could not find the bug') });
    const h = harness(singleLoopPlan(TASK, UNION), { executor, verifier: noVerifier, approve: 'all', verify: false, retriesPerStep: 0 });
    h.options.plan = singleLoopPlan(TASK, UNION);
    h.options.planner = noPlanner;
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'failed');
    assert.equal(report.replans, 0);
    assert.equal(executor.calls.length, 1);
  });

  it('is refused as a plan when verification is on: a step without evidence cannot be proven done', async () => {
    const h = harness(singleLoopPlan(TASK, UNION), { approve: 'all' });
    h.options.plan = singleLoopPlan(TASK, UNION);
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'failed');
    assert.match(report.summary, /no way to prove it is done/);
  });
});
