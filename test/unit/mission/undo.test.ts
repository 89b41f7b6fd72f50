import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMission, startMission } from '../../../src/core/mission/start';
import { revertMissionSteps } from '../../../src/core/mission/revert';
import { missionViewFromEvents } from '../../../src/core/mission/view';
import type { MissionOptions } from '../../../src/core/mission/options';
import type { TraceEvent } from '../../../src/core/contracts/traceEvents';
import { FakeExecutor, failedResult, harness, realClock, succeeded, type Harness } from './fakes';
import { fileStep, plan } from '../../support/fixtures';

/**
 * s1 creates src/a.js and edits src/shared.js; s2 (after s1) edits src/shared.js again; s3 (independent)
 * creates src/c.js. Real step tools, so every write is checkpointed in the store.
 */
function threeSteps(extra: Omit<Partial<MissionOptions>, 'executor' | 'planner'> & { executor?: FakeExecutor } = {}): Harness & { root: string } {
  const executor =
    extra.executor ??
    new FakeExecutor({
      s1: async (h, tools) => {
        const a = await tools.create('src/a.js', 'a\n');
        const b = await tools.strReplace('src/shared.js', 'one', 'one-s1');
        assert.ok(a.ok && b.ok, `${a.output} ${b.output}`);
        return succeeded(h.step.id, [a.toolCallId, b.toolCallId]);
      },
      s2: async (h, tools) => {
        const b = await tools.strReplace('src/shared.js', 'two', 'two-s2');
        assert.ok(b.ok, b.output);
        return succeeded(h.step.id, [b.toolCallId]);
      },
      s3: async (h, tools) => {
        const c = await tools.create('src/c.js', 'c\n');
        assert.ok(c.ok, c.output);
        return succeeded(h.step.id, [c.toolCallId]);
      },
    });
  const edit = (id: string, extraStep: Record<string, unknown> = {}) =>
    fileStep(id, {
      authority: { read: ['**'], edit: ['src/**'], commands: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['src/shared.js'] }] },
      ...extraStep,
    });
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'pe-undo-')));
  const h = harness(plan([edit('s1'), edit('s2', { dependsOn: ['s1'] }), edit('s3')]), {
    executor,
    createStepTools: undefined,
    approve: 'all',
    root,
    maxParallel: 1,
    ...extra,
  });
  h.ws.files.set('src/shared.js', 'one\ntwo\n');
  return { ...h, root };
}

describe('undo: reverting steps from the trace', () => {
  const roots: string[] = [];
  after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

  const revert = (
    h: Harness,
    missionId: string,
    target: Parameters<typeof revertMissionSteps>[0]['target'],
    confirmed?: { stepIds: string[]; changedSince: string[] },
  ) =>
    revertMissionSteps({
      missionId,
      store: h.store,
      workspace: h.ws,
      clock: realClock,
      events: h.options.events,
      target,
      dryRun: false,
      ...(confirmed ? { confirmed } : {}),
    });

  it("restores a step's files, marks it reverted in the trace and the view, and refuses a second revert", async () => {
    const h = threeSteps();
    roots.push(h.root);
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.equal(h.ws.files.get('src/c.js'), 'c\n');

    const out = await revert(h, report.missionId, { steps: ['s3'] });
    assert.ok(out.ok && out.value.applied, JSON.stringify(out));
    assert.deepEqual(out.value.plan.stepIds, ['s3']);
    assert.deepEqual(out.value.plan.files, [{ stepId: 's3', path: 'src/c.js', action: 'deleted' }]);
    assert.equal(h.ws.files.has('src/c.js'), false, 'the file s3 created is gone from disk');
    assert.equal(h.ws.files.get('src/shared.js'), 'one-s1\ntwo-s2\n', "other steps' work is untouched");

    const trace = h.store.trace(report.missionId);
    const last = trace.slice(-2);
    assert.equal(last[0]!.type, 'revert');
    assert.ok(last[1]!.type === 'step_status' && last[1]!.stepId === 's3' && last[1]!.status === 'reverted');
    assert.deepEqual(
      trace.map((e) => e.seq),
      trace.map((_, i) => i),
      'the revert continues the sequence',
    );
    assert.ok(
      h.emitted.some((e) => e.type === 'revert'),
      'the live view hears about it',
    );
    const view = missionViewFromEvents(trace);
    assert.equal(view.steps.s3!.status, 'reverted');
    assert.deepEqual(
      view.reverts.map((r) => r.stepIds),
      [['s3']],
    );

    const again = await revert(h, report.missionId, { steps: ['s3'] });
    assert.ok(!again.ok && again.error.reason === 'already_reverted', JSON.stringify(again));
    assert.equal(h.store.trace(report.missionId).length, trace.length, 'a refused revert records nothing');
  });

  it('reverts later steps that changed the same files too, newest first, in one batch', async () => {
    const h = threeSteps();
    roots.push(h.root);
    const report = await runMission(h.options);
    const dry = await revertMissionSteps({
      missionId: report.missionId,
      store: h.store,
      workspace: h.ws,
      clock: realClock,
      target: { steps: ['s1'] },
      dryRun: true,
    });
    assert.ok(dry.ok && !dry.value.applied);
    assert.deepEqual(dry.value.plan.stepIds, ['s2', 's1'], 's2 changed shared.js after s1: it goes first');
    assert.deepEqual(dry.value.plan.alsoLater, ['s2']);
    assert.equal(h.ws.files.get('src/shared.js'), 'one-s1\ntwo-s2\n', 'a dry run changes nothing');

    const out = await revert(h, report.missionId, { steps: ['s1'] }, { stepIds: dry.value.plan.stepIds, changedSince: [] });
    assert.ok(out.ok && out.value.applied, JSON.stringify(out));
    assert.equal(h.ws.files.get('src/shared.js'), 'one\ntwo\n');
    assert.equal(h.ws.files.has('src/a.js'), false);
    assert.equal(h.ws.files.get('src/c.js'), 'c\n', 's3 did not touch those files and stays');
    const view = missionViewFromEvents(h.store.trace(report.missionId));
    assert.equal(view.steps.s1!.status, 'reverted');
    assert.equal(view.steps.s2!.status, 'reverted');
    assert.match(view.steps.s2!.reason ?? '', /reverted with s1: it changed the same files later/);
    assert.equal(view.steps.s3!.status, 'succeeded');
  });

  it('names a file the user changed since, and overwrites it only with consent for that file', async () => {
    const h = threeSteps();
    roots.push(h.root);
    const report = await runMission(h.options);
    h.ws.files.set('src/c.js', 'c, edited by the user\n');
    const plain = await revert(h, report.missionId, { steps: ['s3'] });
    assert.ok(!plain.ok && plain.error.reason === 'conflict', JSON.stringify(plain));
    assert.equal(h.ws.files.get('src/c.js'), 'c, edited by the user\n');
    const dry = await revertMissionSteps({
      missionId: report.missionId,
      store: h.store,
      workspace: h.ws,
      clock: realClock,
      target: { steps: ['s3'] },
      dryRun: true,
    });
    assert.ok(dry.ok);
    assert.deepEqual(dry.value.plan.changedSince, ['src/c.js']);
    const stale = await revert(h, report.missionId, { steps: ['s3'] }, { stepIds: ['s3'], changedSince: [] });
    assert.ok(!stale.ok && stale.error.reason === 'changed', 'consent that did not cover the file is not consent');
    const out = await revert(h, report.missionId, { steps: ['s3'] }, { stepIds: ['s3'], changedSince: ['src/c.js'] });
    assert.ok(out.ok && out.value.applied);
    assert.equal(h.ws.files.has('src/c.js'), false);
    const ev = h.store.trace(report.missionId).find((e) => e.type === 'revert');
    assert.ok(ev && ev.type === 'revert');
    assert.deepEqual(ev.overwrote, ['src/c.js']);
  });

  it('reverts the whole mission, newest step first, and leaves the workspace as before it', async () => {
    const h = threeSteps();
    roots.push(h.root);
    const report = await runMission(h.options);
    const out = await revert(h, report.missionId, { all: true }, { stepIds: ['s3', 's2', 's1'], changedSince: [] });
    assert.ok(out.ok && out.value.applied, JSON.stringify(out));
    assert.deepEqual(out.value.plan.stepIds, ['s3', 's2', 's1']);
    assert.deepEqual([...h.ws.files.entries()], [['src/shared.js', 'one\ntwo\n']]);
    const nothing = await revert(h, report.missionId, { all: true });
    assert.ok(!nothing.ok && nothing.error.reason === 'nothing_to_revert');
  });

  it('reverts what a failed step changed before it failed', async () => {
    const executor = new FakeExecutor({
      s1: async (h, tools) => {
        const a = await tools.create('src/half.js', 'half done\n');
        assert.ok(a.ok);
        return { ...failedResult(h.step.id, 'gave up halfway'), sideEffects: tools.sideEffects() };
      },
    });
    const h = threeSteps({ executor });
    roots.push(h.root);
    const report = await runMission({ ...h.options, retriesPerStep: 0 });
    assert.notEqual(report.outcome, 'succeeded');
    assert.equal(h.ws.files.get('src/half.js'), 'half done\n');
    const out = await revert(h, report.missionId, { steps: ['s1'] });
    assert.ok(out.ok && out.value.applied, JSON.stringify(out));
    assert.equal(h.ws.files.has('src/half.js'), false);
  });

  it('reverts what a step changed before the mission was cancelled under it', async () => {
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const executor = new FakeExecutor({
      s1: async (h, tools, ctx) => {
        const a = await tools.create('src/partial.js', 'partial\n');
        assert.ok(a.ok);
        wrote();
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        return { ...failedResult(h.step.id, 'cancelled', 'cancelled'), sideEffects: tools.sideEffects() };
      },
    });
    const h = threeSteps({ executor });
    roots.push(h.root);
    const handle = startMission(h.options);
    await written;
    handle.cancel();
    const report = await handle.done;
    assert.equal(report.outcome, 'cancelled');
    const view = missionViewFromEvents(h.store.trace(report.missionId));
    assert.equal(view.steps.s1!.status, 'interrupted');
    const out = await revert(h, report.missionId, { steps: ['s1'] });
    assert.ok(out.ok && out.value.applied, JSON.stringify(out));
    assert.equal(h.ws.files.has('src/partial.js'), false);
  });

  it('refuses an unknown step and a step that changed nothing, without recording', async () => {
    const h = threeSteps();
    roots.push(h.root);
    const report = await runMission(h.options);
    const before: TraceEvent[] = [...h.store.trace(report.missionId)];
    const unknown = await revert(h, report.missionId, { steps: ['nope'] });
    assert.ok(!unknown.ok && unknown.error.reason === 'unknown_step');
    assert.equal(h.store.trace(report.missionId).length, before.length);
  });
});
