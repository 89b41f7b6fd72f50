import assert from 'node:assert/strict';
import { runMission, startMission } from '../../../src/core/mission/start';
import { resumeMission } from '../../../src/core/mission/resume';
import { missionViewFromEvents, applyEvent, emptyMissionView } from '../../../src/core/mission/view';
import { FakeExecutor, MemoryStore, ScriptedApprover, harness, sleep } from './fakes';
import { fileStep, plan as planOf } from '../../support/fixtures';
import type { ApprovalDecision } from '../../../src/core/ports';

const three = planOf([fileStep('s1'), fileStep('s2', { dependsOn: ['s1'] }), fileStep('s3', { dependsOn: ['s2'] })]);

describe('mission budgets', () => {
  it('ends the mission with a structured reason when the token budget runs out', async () => {
    const executor = new FakeExecutor({}, 0, 1000);
    const h = harness(three, { executor, budgets: { maxTokens: 1500 } });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'budget_exceeded');
    assert.deepEqual(report.budget && { kind: report.budget.kind, limit: report.budget.limit }, { kind: 'tokens', limit: 1500 });
    assert.equal(report.failure?.class, 'budget_exceeded');
    assert.ok(report.neverStarted.includes('s3'));
    const budgetEvent = h.store.trace(report.missionId).find((e) => e.type === 'budget' && e.exceeded);
    assert.ok(budgetEvent && budgetEvent.type === 'budget' && budgetEvent.kind === 'tokens' && budgetEvent.used === 2000);
  });

  it('stops starting steps when the step budget is used up', async () => {
    const h = harness(three, { budgets: { maxSteps: 2 } });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'budget_exceeded');
    assert.equal(report.budget?.kind, 'steps');
    assert.deepEqual(report.succeeded, ['s1', 's2']);
    assert.equal(h.executor.count('s3'), 0);
  });

  it('ends a mission that overruns its wall-time budget', async () => {
    const executor = new FakeExecutor({}, 200);
    const h = harness(three, { executor, budgets: { maxWallMs: 50 } });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'budget_exceeded');
    assert.equal(report.budget?.kind, 'wall_time');
    assert.deepEqual(report.interrupted, ['s1']);
  });
});

describe('plan review', () => {
  it('shows each edit as a new version and asks approval for the version the user last saw', async () => {
    const decisions: ((d: ApprovalDecision) => void)[] = [];
    const approver = new ScriptedApprover(
      (request, signal) =>
        new Promise((resolve) => {
          decisions.push(resolve);
          signal.addEventListener('abort', () => resolve({ decision: 'rejected', reason: 'withdrawn' }), { once: true });
        }),
    );
    const plan = planOf([fileStep('s1'), fileStep('s2', { dependsOn: ['s1'] }), fileStep('opt', { required: false })]);
    const h = harness(plan, { approver });
    const handle = startMission(h.options);
    while (approver.requests.length < 1) await sleep(1);
    assert.equal(handle.view().phase, 'awaiting_approval');
    assert.equal(h.executor.calls.length, 0);
    const edit = await handle.editPlan({ kind: 'drop_step', stepId: 'opt' });
    assert.ok(edit.ok);
    const refused = await handle.editPlan({ kind: 'drop_step', stepId: 's2' });
    assert.equal(!refused.ok && refused.error.reason, 'required_step');
    while (approver.requests.length < 2) await sleep(1);
    const second = approver.requests[1]!;
    assert.ok(second.kind === 'plan' && second.plan.version === 2);
    decisions[1]!({ decision: 'approved', by: 'user' });
    const report = await handle.done;
    assert.equal(report.outcome, 'succeeded');
    assert.equal(report.planVersion, 2);
    assert.equal(h.executor.count('opt'), 0);
    const view = handle.view();
    assert.equal(view.approvedVersion, 2);
    assert.deepEqual(
      view.versions.map((v) => [v.version, v.author]),
      [
        [1, 'planner'],
        [2, 'user'],
      ],
    );
    assert.deepEqual(view.versions[1]!.diff?.removed, ['opt']);
  });
});

describe('plan edits mid-mission', () => {
  it('apply to steps not started yet and never re-run a step that already failed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const executor = new FakeExecutor({
      opt: async (hd) => ({
        stepId: hd.step.id,
        status: 'failed',
        output: 'no',
        evidence: [],
        sideEffects: { files: [], commands: [] },
        toolCallIds: [],
        failure: { class: 'tool_error', message: 'no', partialSideEffects: { files: [], commands: [] }, recoverable: true, suggestion: '' },
      }),
      m1: async (hd, tools) => {
        await gate;
        const f = await tools.create('out/m1.txt', 'x');
        return { stepId: hd.step.id, status: 'succeeded', output: 'ok', evidence: [], sideEffects: { files: [], commands: [] }, toolCallIds: [f.toolCallId] };
      },
    });
    const h = harness(planOf([fileStep('opt', { required: false }), fileStep('m1'), fileStep('m2', { dependsOn: ['m1'] })]), { executor });
    const handle = startMission(h.options);
    while (h.store.trace(handle.missionId).every((e) => !(e.type === 'step_status' && e.stepId === 'opt' && e.status === 'failed'))) await sleep(2);
    const locked = await handle.editPlan({ kind: 'instructions', stepId: 'm1', instructions: 'too late' });
    assert.equal(locked.ok, false, 'a running step cannot be edited');
    const edited = await handle.editPlan({ kind: 'instructions', stepId: 'm2', instructions: 'use the new API' });
    assert.ok(edited.ok);
    release();
    const report = await handle.done;
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.equal(executor.count('opt'), 2, 'the failed optional step is not re-run by the rebuild');
    assert.equal(executor.calls.find((c) => c.stepId === 'm2')!.handoff.step.instructions, 'use the new API');
    assert.equal(executor.calls.find((c) => c.stepId === 'm2')!.handoff.planVersion, 2);
  });
});

describe('resume', () => {
  /**
   * Runs until s2 is running, then copies the store as a crash at that moment would leave it. With
   * `laggingSnapshot`, the copied snapshot is the one saved while s1 was still running (the trace is newer).
   */
  async function interruptedMission(laggingSnapshot = false): Promise<{ h: ReturnType<typeof harness>; missionId: string }> {
    const executor = new FakeExecutor({
      s2: async (hd, _t, ctx) => {
        await sleep(10_000, ctx.signal);
        return { stepId: hd.step.id, status: 'failed', output: 'stopped', evidence: [], sideEffects: { files: [], commands: [] }, toolCallIds: [] };
      },
    });
    const h = harness(three, { executor });
    const handle = startMission(h.options);
    const statusOf = (id: string): string | undefined =>
      (h.store.states.get(handle.missionId) as { steps?: Record<string, { status: string }> } | undefined)?.steps?.[id]?.status;
    while (statusOf('s2') !== 'running') await sleep(2);
    const early = [...h.store.stateHistory].reverse().find((st) => (st as { steps: Record<string, { status: string }> }).steps.s1?.status !== 'succeeded');
    assert.ok(early, 'a snapshot from before s1 finished');
    const crashed = new MemoryStore();
    crashed.events.set(handle.missionId, [...h.store.events.get(handle.missionId)!]);
    crashed.states.set(handle.missionId, laggingSnapshot ? early : structuredClone(h.store.states.get(handle.missionId)));
    for (const [k, v] of h.store.blobs) crashed.blobs.set(k, v);
    handle.cancel('clean up the original run');
    await handle.done;
    return { h: { ...h, store: crashed, options: { ...h.options, store: crashed } }, missionId: handle.missionId };
  }

  it('continues an interrupted mission: finished steps never re-run, interrupted ones with consent', async () => {
    const { h, missionId } = await interruptedMission();
    const executor = new FakeExecutor();
    let asked: string[] = [];
    const resumed = await resumeMission({
      ...h.options,
      executor,
      missionId,
      consent: async (ids) => {
        asked = ids;
        return true;
      },
    });
    assert.ok(resumed.ok);
    const report = await resumed.value.done;
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.deepEqual(asked, ['s2']);
    assert.equal(executor.count('s1'), 0, 'finished steps never re-run');
    assert.equal(executor.count('s2'), 1);
    const trace = h.store.trace(missionId);
    assert.deepEqual(
      trace.map((e) => e.seq),
      trace.map((_, i) => i),
      'the resumed trace continues the sequence',
    );
    assert.equal(missionViewFromEvents(trace).phase, 'succeeded');
  });

  it('catches a lagging snapshot up from the trace, so a step the trace shows finished never re-runs', async () => {
    const { h, missionId } = await interruptedMission(true);
    const executor = new FakeExecutor();
    let asked: string[] = [];
    const resumed = await resumeMission({
      ...h.options,
      executor,
      missionId,
      consent: async (ids) => {
        asked = ids;
        return true;
      },
    });
    assert.ok(resumed.ok);
    const report = await resumed.value.done;
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.deepEqual(asked, ['s2']);
    assert.equal(executor.count('s1'), 0);
  });

  it('does not re-run an interrupted step without consent', async () => {
    const { h, missionId } = await interruptedMission();
    const executor = new FakeExecutor();
    const resumed = await resumeMission({ ...h.options, executor, missionId, consent: async () => false });
    assert.ok(resumed.ok);
    const report = await resumed.value.done;
    assert.equal(report.outcome, 'failed');
    assert.equal(executor.calls.length, 0);
    assert.ok(report.neverStarted.includes('s3'));
  });

  it('resumes a mission stopped by a budget once the budget is raised', async () => {
    const h = harness(three, { budgets: { maxSteps: 1 } });
    const first = await runMission(h.options);
    assert.equal(first.outcome, 'budget_exceeded');
    const executor = new FakeExecutor();
    const resumed = await resumeMission({ ...h.options, executor, budgets: { maxSteps: 10 }, missionId: first.missionId, consent: async () => true });
    assert.ok(resumed.ok);
    const report = await resumed.value.done;
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.deepEqual(
      executor.calls.map((c) => c.stepId),
      ['s2', 's3'],
    );
  });

  it('refuses to resume a finished mission or a corrupt snapshot', async () => {
    const h = harness(three);
    const report = await runMission(h.options);
    const finished = await resumeMission({ ...h.options, missionId: report.missionId, consent: async () => true });
    assert.equal(!finished.ok && finished.error.reason, 'finished');
    h.store.states.set('broken', { schema: 1, missionId: 'broken' });
    const corrupt = await resumeMission({ ...h.options, missionId: 'broken', consent: async () => true });
    assert.equal(!corrupt.ok && corrupt.error.reason, 'invalid_state');
  });
});

describe('mission view', () => {
  it('projects the trace into plain JSON: phase, versions, steps, verification, usage', async () => {
    const executor = new FakeExecutor({}, 0, 10);
    const h = harness(three, { executor });
    const report = await runMission(h.options);
    const trace = h.store.trace(report.missionId);
    const view = missionViewFromEvents(trace);
    assert.equal(view.phase, 'succeeded');
    assert.equal(view.outcome?.outcome, 'succeeded');
    assert.deepEqual(view.stepOrder, ['s1', 's2', 's3']);
    assert.equal(view.steps.s2!.status, 'succeeded');
    assert.equal(view.steps.s2!.verification?.passed, true);
    assert.deepEqual(
      view.steps.s2!.changedFiles.map((f) => f.path),
      ['out/s2.txt'],
    );
    assert.equal(view.usage.inputTokens, 30);
    assert.equal(view.usage.byRole.executor?.calls, 3);
    assert.deepEqual(view.pendingApprovals, []);
    assert.deepEqual(JSON.parse(JSON.stringify(view)), view, 'serialisable');
  });

  it('applies events incrementally without mutating the previous view', () => {
    const before = emptyMissionView();
    const after = applyEvent(before, { missionId: 'm', seq: 0, at: new Date(0).toISOString(), type: 'mission_phase', phase: 'running' });
    assert.equal(before.phase, 'planning');
    assert.equal(after.phase, 'running');
  });
});
