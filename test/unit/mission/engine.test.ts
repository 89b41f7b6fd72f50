import assert from 'node:assert/strict';
import { runMission, startMission } from '../../../src/core/mission/start';
import { validateEvents } from '../../../src/core/trace/jsonl';
import { MissionStateSchema } from '../../../src/core/mission/state';
import { FakeExecutor, ScriptedApprover, failedResult, harness, sleep, succeeded } from './fakes';
import { fileStep, plan } from '../../support/fixtures';

const three = plan([fileStep('s1'), fileStep('s2', { dependsOn: ['s1'] }), fileStep('s3', { dependsOn: ['s2'] })]);

describe('mission engine', () => {
  it('runs an approved plan to success, each step verified', async () => {
    const h = harness(three);
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.deepEqual(report.succeeded, ['s1', 's2', 's3']);
    const trace = h.store.trace(report.missionId);
    for (const id of ['s1', 's2', 's3']) {
      const succeededAt = trace.findIndex((e) => e.type === 'step_status' && e.stepId === id && e.status === 'succeeded');
      const verifiedAt = trace.findIndex((e) => e.type === 'verification' && e.verification.stepId === id && e.verification.passed);
      assert.ok(verifiedAt >= 0 && verifiedAt < succeededAt, `${id} succeeded only after a passed verification`);
    }
  });

  it('persists every event before emitting it, in sequence order, and saves a valid state snapshot', async () => {
    const h = harness(three, { snapshotIntervalMs: 0 });
    const report = await runMission(h.options);
    const stored = h.store.trace(report.missionId);
    assert.deepEqual(
      h.emitted.map((e) => e.seq),
      stored.map((e) => e.seq),
    );
    assert.deepEqual(
      stored.map((e) => e.seq),
      stored.map((_, i) => i),
    );
    assert.equal(validateEvents(stored).problems.length, 0, 'the trace validates when read back');
    assert.ok(h.store.saves > 6);
    const state = MissionStateSchema.parse(h.store.states.get(report.missionId));
    assert.equal(state.finished, true);
    assert.equal(state.steps.s3!.status, 'succeeded');
  });

  it('executes nothing before the plan is approved, and nothing at all when it is rejected', async () => {
    const approver = new ScriptedApprover(async (r) =>
      r.kind === 'plan' ? { decision: 'rejected', reason: 'not like this' } : { decision: 'approved', by: 'user' },
    );
    const h = harness(three, { approver });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'cancelled');
    assert.equal(report.failure?.class, 'rejected_by_user');
    assert.equal(h.executor.calls.length, 0);
    assert.equal(approver.requests[0]?.kind, 'plan');
  });

  it('approves the plan by rule in approve mode "all" without asking', async () => {
    const h = harness(three, { approve: 'all' });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded');
    assert.equal(h.approver.requests.length, 0);
    assert.ok(h.store.trace(report.missionId).some((e) => e.type === 'plan_approved' && e.by === 'rule'));
  });

  it('runs two independent steps in parallel', async () => {
    const executor = new FakeExecutor({}, 40);
    const h = harness(plan([fileStep('a'), fileStep('b'), fileStep('c', { dependsOn: ['a', 'b'] })]), { executor });
    await runMission(h.options);
    const [a, b] = ['a', 'b'].map((id) => executor.calls.find((c) => c.stepId === id)!);
    assert.ok(a!.start < b!.end && b!.start < a!.end, 'a and b overlap in time');
  });

  it('serialises steps whose edit globs overlap', async () => {
    const executor = new FakeExecutor({}, 30);
    const h = harness(
      plan([
        fileStep('a', { authority: { read: ['**'], edit: ['out/**'], commands: [] } }),
        fileStep('b', { authority: { read: ['**'], edit: ['out/b.txt'], commands: [] } }),
        fileStep('c', { authority: { read: ['**'], edit: ['other/**', 'out/c.txt'], commands: [] } }),
      ]),
      { executor },
    );
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded');
    const [a, b, c] = ['a', 'b', 'c'].map((id) => executor.calls.find((x) => x.stepId === id)!);
    const overlap = (x: typeof a, y: typeof a): boolean => x!.start < y!.end && y!.start < x!.end;
    assert.ok(!overlap(a, b), 'a (out/**) and b (out/b.txt) never run together');
    assert.ok(!overlap(a, c), 'a (out/**) and c (out/c.txt) never run together');
    assert.ok(overlap(b, c), 'b and c write different files, so they do run together');
  });

  it('lets an optional step fail without stopping steps that do not depend on it', async () => {
    const executor = new FakeExecutor({ opt: async (h) => failedResult(h.step.id, 'optional thing broke') });
    const h = harness(
      plan([
        fileStep('opt', { required: false }),
        fileStep('after', { required: false, dependsOn: ['opt'] }),
        fileStep('main'),
        fileStep('main2', { dependsOn: ['main'] }),
      ]),
      { executor },
    );
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.deepEqual(report.succeeded.sort(), ['main', 'main2']);
    assert.equal(executor.count('opt'), 2, 'one retry');
    assert.equal(executor.count('after'), 0);
    assert.ok(report.neverStarted.includes('after'));
    assert.equal(h.planner.replans.length, 0, 'an optional failure does not replan');
    assert.match(report.summary, /optional steps not done: opt, after/);
  });

  it('never marks a step succeeded when its evidence does not hold (the verification gate)', async () => {
    // The executor claims success but never writes the file its evidence requires.
    const executor = new FakeExecutor({ s1: async (h) => succeeded(h.step.id) });
    const h = harness(plan([fileStep('s1'), fileStep('s2')]), { executor });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'failed');
    assert.ok(report.failed.includes('s1'));
    const trace = h.store.trace(report.missionId);
    assert.ok(!trace.some((e) => e.type === 'step_status' && e.stepId === 's1' && e.status === 'succeeded'));
    const verifications = trace.filter((e) => e.type === 'verification' && e.verification.stepId === 's1');
    assert.equal(verifications.length, 2, 'verified on the first attempt and on the retry');
    assert.ok(verifications.every((e) => e.type === 'verification' && !e.verification.passed));
    assert.equal(report.failure?.class, 'verification_failed');
  });

  it('runs command checks through the verifier tools and checks the exit code and output', async () => {
    const commands = new Map([['npm test', { exitCode: 1, output: '3 failing' }]]);
    const step = fileStep('t1', {
      kind: 'command',
      authority: { read: ['**'], edit: [], commands: ['npm test'] },
      evidence: { checks: [{ kind: 'command', command: 'npm test', expectExitCode: 0 }] },
    });
    const h = harness(plan([step]), { commands });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'failed');
    const v = h.store.trace(report.missionId).find((e) => e.type === 'verification');
    assert.ok(v && v.type === 'verification');
    assert.match(v.verification.checks[0]!.detail, /exited 1, expected 0/);
  });

  it('hands a dependent step the raw tool outputs of its dependencies', async () => {
    const commands = new Map([['npm test', { exitCode: 0, output: '42 passing\nDONE' }]]);
    const executor = new FakeExecutor({
      s1: async (h, tools) => {
        const run = await tools.bash('npm test');
        const file = await tools.create('out/s1.txt', 'x');
        return succeeded(h.step.id, [run.toolCallId, file.toolCallId], 'tests pass');
      },
    });
    const h = harness(plan([fileStep('s1'), fileStep('s2', { dependsOn: ['s1'] })]), { executor, commands });
    await runMission(h.options);
    const handoff = executor.calls.find((c) => c.stepId === 's2')!.handoff;
    const dep = handoff.dependencies[0]!;
    assert.equal(dep.stepId, 's1');
    assert.equal(dep.result.output, 'tests pass');
    const bash = dep.toolCalls.find((t) => t.tool === 'bash')!;
    assert.match(bash.output, /42 passing/);
    assert.equal(bash.ok, true);
    assert.ok(Date.parse(bash.startedAt) > 0 && Date.parse(bash.finishedAt) > 0);
    assert.equal(handoff.attempt, 1);
    assert.deepEqual(handoff.binding, handoff.step.binding);
  });

  it('tells a retry what went wrong the first time', async () => {
    let first = true;
    const executor = new FakeExecutor({
      s1: async (h, tools) => {
        if (first) {
          first = false;
          return failedResult(h.step.id, 'compile error in a.ts');
        }
        const f = await tools.create('out/s1.txt', 'ok');
        return succeeded(h.step.id, [f.toolCallId]);
      },
    });
    const h = harness(plan([fileStep('s1')]), { executor });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded');
    const retry = executor.calls[1]!.handoff;
    assert.equal(retry.attempt, 2);
    assert.match(retry.previousFailure?.message ?? '', /compile error/);
  });

  it('cancels mid-step: running steps are told, nothing new starts, and the report says what finished', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const executor = new FakeExecutor({
      s2: async (h, _tools, ctx) => {
        started();
        await sleep(10_000, ctx.signal);
        return failedResult(h.step.id, 'stopped', 'cancelled');
      },
    });
    const h = harness(three, { executor });
    const handle = startMission(h.options);
    await running;
    handle.cancel();
    const report = await handle.done;
    assert.equal(report.outcome, 'cancelled');
    assert.deepEqual(report.succeeded, ['s1']);
    assert.deepEqual(report.interrupted, ['s2']);
    assert.deepEqual(report.neverStarted, ['s3']);
    assert.equal(executor.count('s3'), 0);
  });

  it('says so in the trace when it runs in direct mode', async () => {
    const h = harness(plan([fileStep('only')]));
    const report = await runMission(h.options);
    assert.equal(report.direct, true);
    assert.ok(h.store.trace(report.missionId).some((e) => e.type === 'log' && /direct mode/.test(e.message)));
  });
});
