/**
 * The engine's side of surfaces that never contradict themselves: who approves plan versions, a run that is
 * interrupted (the window went away) rather than cancelled, and the state after a revert — dependents
 * that need a re-run, and going on runs again what the revert undid.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMission, startMission } from '../../../src/core/mission/start';
import { resumeMission } from '../../../src/core/mission/resume';
import { revertMissionSteps } from '../../../src/core/mission/revert';
import { missionViewFromEvents } from '../../../src/core/mission/view';
import { recordedSettings } from '../../../src/core/mission/options';
import type { ApprovalRequest } from '../../../src/core/ports';
import { FakeExecutor, FakePlanner, ScriptedApprover, failedResult, harness, realClock, succeeded } from './fakes';
import { fileStep, plan as planOf } from '../../support/fixtures';

const three = planOf([fileStep('s1'), fileStep('s2', { dependsOn: ['s1'] }), fileStep('s3', { dependsOn: ['s2'] })]);
const planRequests = (requests: readonly ApprovalRequest[]): number[] => requests.flatMap((r) => (r.kind === 'plan' ? [r.plan.version] : []));
const noConsent = async (): Promise<boolean> => {
  throw new Error('consent is not asked here');
};

describe('plan approval: every version by the user when the front end says so', () => {
  it("approve 'all' without planApproval approves plans by rule (the CLI's unattended run)", async () => {
    const h = harness(three, { approve: 'all' });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.deepEqual(planRequests(h.approver.requests), [], 'no plan reached the approver');
    assert.equal(h.approver.requests.length, 0, 'nor any action');
  });

  it("approve 'all' with planApproval 'user': the first plan and every replanned version wait for the user; actions inside do not", async () => {
    const executor = new FakeExecutor({ s2: async (s) => failedResult(s.step.id, 'broken') });
    const replacing = planOf([fileStep('s1'), fileStep('s2b', { dependsOn: ['s1'] }), fileStep('s3', { dependsOn: ['s2b'] })]);
    const planner = new FakePlanner(three, () => replacing);
    const h = harness(three, { approve: 'all', planApproval: 'user', executor, planner });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.deepEqual(planRequests(h.approver.requests), [1, 2], 'plan v1 and the replanned v2 were both asked');
    assert.ok(
      h.approver.requests.every((r) => r.kind === 'plan'),
      'writes inside the approved plan were not asked',
    );
    const trace = h.store.trace(report.missionId);
    const approvals = trace.filter((e) => e.type === 'plan_approved');
    assert.deepEqual(
      approvals.map((e) => e.type === 'plan_approved' && e.by),
      ['user', 'user'],
    );
    const started = trace.find((e) => e.type === 'mission_started');
    assert.ok(started?.type === 'mission_started' && started.settings.planApproval === 'user', 'the trace records who approves plans');
  });

  it("approve 'plan' with planApproval 'user' asks for a replanned version too (without it, only 'ask' does)", async () => {
    const replacing = planOf([fileStep('s1'), fileStep('s2b', { dependsOn: ['s1'] }), fileStep('s3', { dependsOn: ['s2b'] })]);
    const run = async (planApproval: 'user' | undefined): Promise<number[]> => {
      const executor = new FakeExecutor({ s2: async (s) => failedResult(s.step.id, 'broken') });
      const h = harness(three, { approve: 'plan', executor, planner: new FakePlanner(three, () => replacing), ...(planApproval ? { planApproval } : {}) });
      const report = await runMission(h.options);
      assert.equal(report.outcome, 'succeeded', report.summary);
      return planRequests(h.approver.requests);
    };
    assert.deepEqual(await run('user'), [1, 2]);
    assert.deepEqual(await run(undefined), [1]);
  });

  it('a plan the user rejects in all mode never runs', async () => {
    const approver = new ScriptedApprover(async () => ({ decision: 'rejected', reason: 'not this plan' }));
    const h = harness(three, { approve: 'all', planApproval: 'user', approver });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'cancelled');
    assert.equal(h.executor.count('s1'), 0);
    assert.deepEqual(recordedSettings({ approve: 'all' }).planApproval, undefined, 'the default is not recorded (older traces read the same)');
  });
});

describe('interrupt: the host goes away, the mission does not end', () => {
  it('records no outcome while the plan waits; the mission resumes waiting for the same plan', async () => {
    let release: (() => void) | undefined;
    const approver = new ScriptedApprover(
      (_r, signal) =>
        new Promise((resolve) => {
          release = () => resolve({ decision: 'approved', by: 'user' });
          signal.addEventListener('abort', () => resolve({ decision: 'rejected', reason: 'cancelled' }), { once: true });
        }),
    );
    const h = harness(three, { approver });
    const handle = startMission(h.options);
    while (!release) await new Promise((r) => setTimeout(r, 5));
    handle.interrupt('the window closed');
    await handle.done;
    const trace = h.store.trace(handle.missionId);
    assert.equal(
      trace.some((e) => e.type === 'mission_finished'),
      false,
      'no outcome is recorded',
    );
    const view = missionViewFromEvents(trace);
    assert.equal(view.phase, 'interrupted');
    assert.equal(view.outcome, null);

    release = undefined;
    const resumed = await resumeMission({ ...h.options, missionId: handle.missionId, consent: noConsent });
    assert.ok(resumed.ok, JSON.stringify(resumed));
    while (!release) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(planRequests(h.approver.requests), [1, 1], 'the same plan waits again');
    (release as () => void)();
    const report = await resumed.value.done;
    assert.equal(report.outcome, 'succeeded', report.summary);
  });

  it('leaves a running step interrupted and the rest pending, and resume (with consent) finishes the mission', async () => {
    const executor = new FakeExecutor({}, 150);
    const h = harness(three, { executor, cancelGraceMs: 1000 });
    const handle = startMission(h.options);
    while (!h.emitted.some((e) => e.type === 'step_status' && e.stepId === 's2' && e.status === 'running')) await new Promise((r) => setTimeout(r, 5));
    handle.interrupt('the window closed');
    await handle.done;
    const view = missionViewFromEvents(h.store.trace(handle.missionId));
    assert.equal(view.outcome, null);
    assert.deepEqual(
      ['s1', 's2', 's3'].map((id) => view.steps[id]?.status),
      ['succeeded', 'interrupted', 'pending'],
    );
    const asked: string[][] = [];
    const resumed = await resumeMission({ ...h.options, missionId: handle.missionId, consent: async (ids) => (asked.push(ids), true) });
    assert.ok(resumed.ok, JSON.stringify(resumed));
    const report = await resumed.value.done;
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.deepEqual(asked, [['s2']]);
    assert.equal(executor.count('s1'), 1, 'finished work is kept');
  });
});

describe('after a revert: dependents need a re-run, and going on runs what the revert undid', () => {
  const roots: string[] = [];
  after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

  function chain() {
    let ws: () => { files: Map<string, string> };
    const executor = new FakeExecutor({
      s1: async (h, tools) => {
        const a = await tools.create('src/a.js', 'a\n');
        assert.ok(a.ok, a.output);
        return succeeded(h.step.id, [a.toolCallId]);
      },
      s2: async (h, tools) => {
        const b = await tools.create('src/b.js', 'b\n');
        assert.ok(b.ok, b.output);
        return succeeded(h.step.id, [b.toolCallId]);
      },
      // A re-run finds its own earlier file in place (a revert of s2 leaves s3's files alone).
      s3: async (h, tools) => {
        if (ws().files.has('src/c.js')) return succeeded(h.step.id, []);
        const c = await tools.create('src/c.js', 'c\n');
        assert.ok(c.ok, c.output);
        return succeeded(h.step.id, [c.toolCallId]);
      },
      s4: async (h) => succeeded(h.step.id, []),
    });
    const edit = (id: string, extra: Record<string, unknown> = {}) =>
      fileStep(id, {
        authority: { read: ['**'], edit: ['src/**'], commands: [] },
        evidence: { checks: [{ kind: 'review', criterion: `${id} did its part` }] },
        ...extra,
      });
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'pe-stale-')));
    roots.push(root);
    // s2 and s3 depend on s1 (s3 through s2); s4 stands alone.
    const plan = planOf([edit('s1'), edit('s2', { dependsOn: ['s1'] }), edit('s3', { dependsOn: ['s2'] }), edit('s4')]);
    const h = harness(plan, { executor, createStepTools: undefined, approve: 'all', root, maxParallel: 1 });
    ws = () => h.ws;
    return h;
  }

  it('marks succeeded dependents pending with the reason, says so in the confirmation, and keeps unrelated steps', async () => {
    const h = chain();
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    const at = { missionId: report.missionId, store: h.store, workspace: h.ws, clock: realClock };
    const dry = await revertMissionSteps({ ...at, target: { steps: ['s1'] }, dryRun: true });
    assert.ok(dry.ok);
    assert.deepEqual(dry.value.plan.stale, ['s2', 's3']);
    const confirmed = { stepIds: dry.value.plan.stepIds, changedSince: [] };
    const out = await revertMissionSteps({ ...at, events: h.options.events, target: { steps: ['s1'] }, dryRun: false, confirmed });
    assert.ok(out.ok && out.value.applied, JSON.stringify(out));
    const view = missionViewFromEvents(h.store.trace(report.missionId));
    assert.deepEqual(
      ['s1', 's2', 's3', 's4'].map((id) => view.steps[id]?.status),
      ['reverted', 'pending', 'pending', 'succeeded'],
    );
    assert.equal(view.steps.s2?.reason, 'needs a re-run: it depends on s1, which was reverted');
    assert.equal(view.steps.s3?.reason, 'needs a re-run: it depends on s2, which was reverted or needs a re-run');
    assert.equal(h.ws.files.get('src/b.js'), 'b\n', "a dependent's files stay: only its claim is withdrawn");
  });

  it('resume says plainly there is nothing left when nothing was undone, and continue re-runs only what the revert undid', async () => {
    const h = chain();
    const report = await runMission(h.options);
    const nothing = await resumeMission({ ...h.options, missionId: report.missionId, mode: 'continue', consent: noConsent });
    assert.ok(!nothing.ok && nothing.error.reason === 'finished');
    assert.equal(nothing.error.message, 'the mission already succeeded: there is nothing left to run');
    assert.doesNotMatch(nothing.error.message, /m-/, 'no internal id');

    const at = { missionId: report.missionId, store: h.store, workspace: h.ws, clock: realClock };
    await revertMissionSteps({ ...at, target: { steps: ['s2'] }, dryRun: false, confirmed: { stepIds: ['s2'], changedSince: [] } });
    const resume = await resumeMission({ ...h.options, missionId: report.missionId, mode: 'resume', consent: noConsent });
    assert.ok(!resume.ok);
    assert.equal(resume.error.message, 'the mission succeeded, then s2, s3 were reverted: continue it to run them again');

    const cont = await resumeMission({ ...h.options, missionId: report.missionId, mode: 'continue', consent: noConsent });
    assert.ok(cont.ok, JSON.stringify(cont));
    const again = await cont.value.done;
    assert.equal(again.outcome, 'succeeded', again.summary);
    assert.deepEqual(
      ['s1', 's2', 's3', 's4'].map((id) => h.executor.count(id)),
      [1, 2, 2, 1],
      'the reverted step and its dependent ran again, nothing else',
    );
    assert.equal(h.ws.files.get('src/b.js'), 'b\n');
    const continued = h.store.trace(report.missionId).find((e) => e.type === 'mission_continued');
    assert.ok(continued?.type === 'mission_continued');
    assert.deepEqual([...continued.reopened].sort(), ['s2', 's3']);
  });
});
