import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMission, startMission } from '../../../src/core/mission/start';
import { applyEvent, emptyMissionView, missionViewFromEvents } from '../../../src/core/mission/view';
import type { TraceEvent } from '../../../src/core/contracts/traceEvents';
import type { ApprovalRequest, PlannerRole, PlanRequest, RoleContext, RoleOutcome } from '../../../src/core/ports';
import type { Plan } from '../../../src/core/contracts/plan';
import { FakeExecutor, FakePlanner, ScriptedApprover, failedResult, harness, succeeded } from './fakes';
import { fileStep, plan as planOf } from '../../support/fixtures';

const three = planOf([fileStep('s1'), fileStep('s2', { dependsOn: ['s1'] }), fileStep('s3', { dependsOn: ['s2'] })]);

describe('failures the user can see and act on', () => {
  const roots: string[] = [];
  after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
  const tempRoot = (): string => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'pe-fail-')));
    roots.push(root);
    return root;
  };

  /** Rejects the first write under src/ with a reason, approves everything else. */
  const rejectFirstWrite = (reason: string) => {
    let rejected = false;
    return new ScriptedApprover(async (r: ApprovalRequest) => {
      if (r.kind === 'write' && r.path.startsWith('src/') && !rejected) {
        rejected = true;
        return { decision: 'rejected', reason };
      }
      return { decision: 'approved', by: 'user' };
    });
  };
  const step = (id: string, extra: Record<string, unknown> = {}) =>
    fileStep(id, {
      authority: { read: ['**'], edit: ['src/**', `out/${id}.txt`], commands: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: [`out/${id}.txt`] }] },
      ...extra,
    });
  const plan = planOf([step('s1'), step('s2', { dependsOn: ['s1'] }), step('s3', { dependsOn: ['s2'] })]);

  it('gives a rejection with a reason to the executor first: it redoes the edit, the step passes, nothing replans', async () => {
    const seen: string[] = [];
    const executor = new FakeExecutor({
      s1: async (h, tools) => {
        const first = await tools.create('src/greet.js', 'console.log("hi")\n');
        assert.ok(!first.ok);
        seen.push(first.failure.message);
        const second = await tools.create('src/greet.js', "console.log('hi')\n");
        const marker = await tools.create('out/s1.txt', 'done');
        assert.ok(second.ok && marker.ok, `${second.output} ${marker.output}`);
        return succeeded(h.step.id, [second.toolCallId]);
      },
    });
    const planner = new FakePlanner(plan, () => plan);
    const h = harness(plan, {
      executor,
      planner,
      approver: rejectFirstWrite('use single quotes'),
      approve: 'ask',
      createStepTools: undefined,
      root: tempRoot(),
    });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.match(seen[0] ?? '', /use single quotes/, "the executor read the user's reason");
    assert.equal(planner.replans.length, 0, 'no replan: the step fixed it itself');
    assert.equal(report.replans, 0);
    assert.equal(h.ws.files.get('src/greet.js'), "console.log('hi')\n");
  });

  it("replans when the step then fails, with the user's words in the trigger evidence", async () => {
    const executor = new FakeExecutor({
      s2: async (h, tools) => {
        const first = await tools.create('src/farewell.js', 'bye\n');
        return { ...failedResult(h.step.id, 'the user did not want that file', 'rejected_by_user'), toolCallIds: [first.toolCallId] };
      },
    });
    const replacing = planOf([step('s1'), step('s2b', { dependsOn: ['s1'] }), step('s3', { dependsOn: ['s2b'] })]);
    const planner = new FakePlanner(plan, () => replacing);
    const h = harness(plan, {
      executor,
      planner,
      approver: rejectFirstWrite('no new files, extend greet.js'),
      approve: 'ask',
      createStepTools: undefined,
      root: tempRoot(),
    });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.equal(planner.replans.length, 1);
    assert.match(planner.replans[0]!.trigger.evidence, /the user rejected actions of this step, saying: "no new files, extend greet.js"/);
    assert.equal(executor.count('s2'), 1, 'a rejection is not retried blindly');
  });

  it('records why a replan was refused, in words, for the timeline', async () => {
    const executor = new FakeExecutor({ s2: async (h) => failedResult(h.step.id, 'broke') });
    const sneaky = planOf([fileStep('s1', { instructions: 'do it again' }), fileStep('s2b', { dependsOn: ['s1'] }), fileStep('s3', { dependsOn: ['s2b'] })]);
    const fine = planOf([fileStep('s1'), fileStep('s2b', { dependsOn: ['s1'] }), fileStep('s3', { dependsOn: ['s2b'] })]);
    const planner = new FakePlanner(three, (_r, n) => (n === 1 ? sneaky : fine));
    const h = harness(three, { executor, planner });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    const view = missionViewFromEvents(h.store.trace(report.missionId));
    assert.equal(view.replans.length, 2);
    assert.deepEqual(view.replans[0]!.refusedBecause, ['the new plan changed finished step s1 (instructions) without saying why']);
    assert.equal(view.replans[1]!.refusedBecause, undefined);
    assert.match(view.versions.at(-1)!.reason, /^replanned step s2 and what depends on it after step s2 failed: broke/);
  });

  it('names the cap and the setting to raise when a budget runs out', async () => {
    const executor = new FakeExecutor({}, 0, 1000);
    const h = harness(three, { executor, budgets: { maxTokens: 1500 }, capNames: { tokens: 'planExecute.limits.maxTokens' } });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'budget_exceeded');
    assert.equal(report.summary, 'the token budget ran out: 2,000 of 1,500 tokens (raise planExecute.limits.maxTokens, then continue the mission)');
    assert.equal(report.failure?.detail, 'budget:tokens');
  });

  it('names the plan-size setting when the plan is over the cap', async () => {
    const big = planOf(Array.from({ length: 5 }, (_, i) => fileStep(`s${i + 1}`)));
    const h = harness(big, { maxPlanSteps: 4, capNames: { planSteps: 'planExecute.limits.maxPlanSteps' } });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'failed');
    assert.match(report.summary, /5 steps, over the cap of 4 \(planExecute\.limits\.maxPlanSteps\)/);
  });

  it('reads a cancel during planning as a cancel', async () => {
    const planner: PlannerRole = {
      plan: (_req: PlanRequest, ctx: RoleContext) =>
        new Promise<RoleOutcome<Plan>>((resolve) =>
          ctx.signal.addEventListener('abort', () =>
            resolve({
              ok: false,
              error: {
                class: 'cancelled',
                message: 'The model call was cancelled.',
                partialSideEffects: { files: [], commands: [] },
                recoverable: false,
                suggestion: '',
              },
            }),
          ),
        ),
      replan: async () => ({
        ok: false,
        error: { class: 'tool_error', message: 'unused', partialSideEffects: { files: [], commands: [] }, recoverable: false, suggestion: '' },
      }),
    };
    const h = harness(three);
    const handle = startMission({ ...h.options, planner, plan: undefined });
    await new Promise((r) => setTimeout(r, 20));
    handle.cancel();
    const report = await handle.done;
    assert.equal(report.outcome, 'cancelled');
    assert.equal(report.summary, 'planning was cancelled');
  });

  it('shows a model call that waits, and clears it when the call goes on', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const base = { missionId: 'm', at };
    const events: TraceEvent[] = [
      { ...base, seq: 0, type: 'mission_phase', phase: 'running' },
      {
        ...base,
        seq: 1,
        type: 'model_wait',
        role: 'executor',
        stepId: 's1',
        provider: 'anthropic',
        model: 'm',
        reason: 'rate_limited',
        waitMs: 8000,
        attempt: 1,
        message: '429 rate limited',
      },
    ];
    const waiting = missionViewFromEvents(events);
    assert.deepEqual(
      Object.values(waiting.waits).map((w) => ({ stepId: w.stepId, reason: w.reason, until: w.until })),
      [{ stepId: 's1', reason: 'rate_limited', until: '2026-01-01T00:00:08.000Z' }],
    );
    const call: TraceEvent = {
      ...base,
      seq: 2,
      type: 'model_call',
      role: 'executor',
      stepId: 's1',
      model: 'm',
      promptVersion: 'p',
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
      durationMs: 1,
      stopReason: 'end_turn',
      requestId: null,
    };
    assert.deepEqual(applyEvent(waiting, call).waits, {});
    const other: TraceEvent = { ...call, stepId: 's2' };
    assert.equal(Object.keys(applyEvent(waiting, other).waits).length, 1, "another step's call does not end this wait");
    assert.deepEqual(emptyMissionView().waits, {});
  });
});
