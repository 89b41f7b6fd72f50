import assert from 'node:assert/strict';
import { runMission, startMission } from '../../../src/core/mission/start';
import { resumeMission } from '../../../src/core/mission/resume';
import { missionViewFromEvents } from '../../../src/core/mission/view';
import { FakeExecutor, FakePlanner, failedResult, harness } from './fakes';
import { fileStep, plan } from '../../support/fixtures';

const three = plan([fileStep('s1'), fileStep('s2', { dependsOn: ['s1'] }), fileStep('s3', { dependsOn: ['s2'] })]);
const consentNotAsked = async (): Promise<boolean> => {
  throw new Error('retry and continue never ask for consent');
};

describe('retry and continue a stopped mission', () => {
  it('retries from the failing step: finished work is kept, the replan budget starts again', async () => {
    const executor = new FakeExecutor({ s2: async (h) => failedResult(h.step.id, 'the service was down') });
    const cyclic = plan([fileStep('s1'), fileStep('s2b', { dependsOn: ['s1', 's3'] }), fileStep('s3', { dependsOn: ['s2b'] })]);
    const replacing = plan([fileStep('s1'), fileStep('s2b', { dependsOn: ['s1'] }), fileStep('s3', { dependsOn: ['s2b'] })]);
    // The first replan is refused (a cycle), which uses up a budget of one; after the retry one is accepted.
    const planner = new FakePlanner(three, (_r, n) => (n === 1 ? cyclic : replacing));
    const h = harness(three, { executor, planner, budgets: { maxReplans: 1 } });
    const first = await runMission(h.options);
    assert.equal(first.outcome, 'budget_exceeded', first.summary);
    assert.match(first.summary, /the replan budget ran out: 1 of 1 replans used/);
    assert.equal(executor.count('s1'), 1);

    const retried = await resumeMission({ ...h.options, missionId: first.missionId, mode: 'retry', consent: consentNotAsked });
    assert.ok(retried.ok, JSON.stringify(retried));
    const report = await retried.value.done;
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.equal(executor.count('s1'), 1, 'the finished step never re-runs');
    assert.equal(executor.count('s2'), 4, 'the failing step ran again (with its retry) before the replan');
    assert.equal(executor.count('s2b'), 1);
    const trace = h.store.trace(first.missionId);
    const continued = trace.find((e) => e.type === 'mission_continued');
    assert.ok(continued && continued.type === 'mission_continued');
    assert.equal(continued.mode, 'retry');
    assert.deepEqual([...continued.reopened].sort(), ['s2', 's3']);
    assert.deepEqual(continued.reset, ['replans', 'steps', 'wall_time']);
    assert.deepEqual(
      trace.map((e) => e.seq),
      trace.map((_, i) => i),
      'one trace, one sequence',
    );
    const view = missionViewFromEvents(trace);
    assert.equal(view.outcome?.outcome, 'succeeded');
    assert.equal(view.phase, 'succeeded');
  });

  it('continues a cancelled mission, re-running the interrupted step without asking', async () => {
    const executor = new FakeExecutor({}, 150);
    const h = harness(three, { executor, cancelGraceMs: 1000 });
    const handle = startMission(h.options);
    while (!h.emitted.some((e) => e.type === 'step_status' && e.stepId === 's2' && e.status === 'running')) await new Promise((r) => setTimeout(r, 5));
    handle.cancel();
    const first = await handle.done;
    assert.equal(first.outcome, 'cancelled');
    const cont = await resumeMission({ ...h.options, missionId: first.missionId, mode: 'continue', consent: consentNotAsked });
    assert.ok(cont.ok, JSON.stringify(cont));
    const report = await cont.value.done;
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.equal(executor.count('s1'), 1);
    assert.ok(h.ws.files.has('out/s3.txt'));
  });

  it('refuses to go on with a mission that succeeded, and resume refuses a finished one', async () => {
    const h = harness(three);
    const first = await runMission(h.options);
    assert.equal(first.outcome, 'succeeded');
    const retry = await resumeMission({ ...h.options, missionId: first.missionId, mode: 'retry', consent: consentNotAsked });
    assert.ok(!retry.ok && retry.error.reason === 'finished');

    const failing = harness(three, { executor: new FakeExecutor({ s1: async (s) => failedResult(s.step.id) }), planner: new FakePlanner(three, () => null) });
    const failed = await runMission(failing.options);
    assert.equal(failed.outcome, 'failed');
    const resume = await resumeMission({ ...failing.options, missionId: failed.missionId, consent: consentNotAsked });
    assert.ok(!resume.ok && resume.error.reason === 'finished', 'resume is for interrupted missions; retry is for failed ones');
  });

  it('says there is no plan to go on with when planning itself failed', async () => {
    const planner = new FakePlanner(three);
    planner.plan = async () => ({
      ok: false,
      error: {
        class: 'tool_error',
        message: 'HTTP 401',
        cause: 'auth',
        provider: 'anthropic',
        partialSideEffects: { files: [], commands: [] },
        recoverable: false,
        suggestion: '',
      },
    });
    const h = harness(three, { planner, plan: undefined });
    const first = await runMission(h.options);
    assert.equal(first.outcome, 'failed');
    const view = missionViewFromEvents(h.store.trace(first.missionId));
    assert.deepEqual(view.outcome?.failure && { cause: view.outcome.failure.cause, provider: view.outcome.failure.provider }, {
      cause: 'auth',
      provider: 'anthropic',
    });
    const retry = await resumeMission({ ...h.options, missionId: first.missionId, mode: 'retry', consent: consentNotAsked });
    assert.ok(!retry.ok && retry.error.reason === 'no_plan');
  });
});
