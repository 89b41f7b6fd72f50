import assert from 'node:assert/strict';
import { startMission } from '../../../src/core/mission/start';
import type { StepResult } from '../../../src/core/contracts/results';
import { FakeExecutor, harness, sleep, succeeded, type ExecuteFn } from './fakes';
import { fileStep, plan } from '../../support/fixtures';

/** Starts a one-step mission, cancels it while the step runs, and returns the step's recorded result. */
async function cancelledWhileRunning(execute: ExecuteFn): Promise<StepResult> {
  const h = harness(plan([fileStep('s1')]), { executor: new FakeExecutor({ s1: execute }) });
  const handle = startMission(h.options);
  const running = (): boolean => h.store.trace(handle.missionId).some((e) => e.type === 'step_status' && e.stepId === 's1' && e.status === 'running');
  while (!running()) await sleep(2);
  handle.cancel('the user stopped it');
  const report = await handle.done;
  assert.equal(report.outcome, 'cancelled', report.summary);
  const recorded = h.store.trace(handle.missionId).find((e) => e.type === 'step_result');
  assert.ok(recorded && recorded.type === 'step_result');
  return recorded.result;
}

describe('a step the mission cancel cuts short', () => {
  it('fails the same way whether the executor threw on the abort or finished first: cancelled and recoverable', async () => {
    const threw = await cancelledWhileRunning(async (_handoff, _tools, ctx) => {
      await sleep(10_000, ctx.signal);
      throw new Error('request aborted');
    });
    const finished = await cancelledWhileRunning(async (handoff, _tools, ctx) => {
      await sleep(10_000, ctx.signal);
      return succeeded(handoff.step.id);
    });
    for (const result of [threw, finished]) {
      assert.equal(result.status, 'failed');
      assert.equal(result.failure?.class, 'cancelled');
      assert.equal(result.failure?.recoverable, true, 'resuming the mission re-runs the step');
      assert.equal(result.failure?.suggestion, 'resume the mission to re-run it');
    }
    assert.equal(threw.failure?.message, finished.failure?.message);
    assert.equal(threw.failure?.detail, 'request aborted', "the executor's own error is kept");
  });
});
