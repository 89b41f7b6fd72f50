import { strict as assert } from 'node:assert';
import type { TraceEvent, TraceEventBody } from '../../../src/core/contracts/traceEvents';
import { replayScriptOf, type ReplayRun } from '../../../src/core/trace/replayScript';
import { E2E_PLAN } from '../e2e-mission/scenario';
import { validatePlan } from '../../../src/core/plan/validate';

const plan = (() => {
  const out = validatePlan({ ...E2E_PLAN, version: 1, parentVersion: null });
  assert.ok(out.ok);
  return out.plan;
})();

function trace(...bodies: TraceEventBody[]): TraceEvent[] {
  return bodies.map((b, seq) => ({ missionId: 'm', seq, at: '2026-12-01T00:00:00.000Z', ...b }) as TraceEvent);
}
const started: TraceEventBody = { type: 'mission_started', task: 't', workspaceRoot: '/ws', settings: { budgets: { maxReplans: 0 } }, constraints: ['mine'] };
const call = (stepId: string | null): TraceEventBody => ({
  type: 'model_call',
  role: stepId ? 'executor' : 'planner',
  stepId,
  model: 'm',
  promptVersion: 'p.v1',
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: 0,
  durationMs: 1,
  stopReason: 'end_turn',
  requestId: null,
});
const finished = (outcome: 'succeeded' | 'failed' | 'cancelled' | 'budget_exceeded'): TraceEventBody => ({ type: 'mission_finished', outcome, summary: '' });
const runs = (parts: ReturnType<typeof replayScriptOf>) => (parts.ok ? parts.value.parts.filter((p): p is ReplayRun => p.kind === 'run') : []);

describe('the replay script read from a trace', () => {
  it('splits a mission into its runs and the reverts between them, each run with its own calls and settings', () => {
    const script = replayScriptOf(
      trace(
        started,
        { type: 'plan_version', plan, author: 'planner', diff: null },
        call(null),
        call('s1'),
        finished('budget_exceeded'),
        { type: 'mission_continued', mode: 'continue', reopened: ['s2'], reset: [], settings: { budgets: { maxReplans: 1 } } },
        call('s2'),
        finished('succeeded'),
        { type: 'revert', stepIds: ['s1'], files: [{ stepId: 's1', path: 'a', action: 'deleted' }], overwrote: [] },
      ),
    );
    assert.ok(script.ok);
    assert.deepEqual(script.value.constraints, ['mine'], "the user's constraints, not the plan's");
    assert.deepEqual(
      script.value.parts.map((p) => p.kind),
      ['run', 'run', 'revert'],
    );
    const [first, second] = runs(script);
    assert.deepEqual([first!.mode, first!.outcome, first!.calls.map((c) => c.stepId)], ['start', 'budget_exceeded', [null, 's1']]);
    assert.deepEqual(
      [second!.mode, second!.outcome, second!.calls.map((c) => c.stepId), second!.settings],
      ['continue', 'succeeded', ['s2'], { budgets: { maxReplans: 1 } }],
    );
    assert.ok(runs(script).every((r) => r.stop === undefined));
  });

  it('stops at what a replay cannot reproduce: a cancel, a cut-off run, a hand edit of the plan, a correction', () => {
    const cancelled = runs(
      replayScriptOf(trace(started, call(null), finished('cancelled'), { type: 'mission_continued', mode: 'continue', reopened: [], reset: [] }, call('s1'))),
    );
    assert.equal(cancelled.length, 1, 'nothing after the cancel is replayed');
    assert.match(cancelled[0]!.stop?.why ?? '', /the user cancelled/);
    const cut = runs(replayScriptOf(trace(started, call(null), { type: 'mission_continued', mode: 'resume', reopened: [], reset: [] })));
    assert.match(cut[0]!.stop?.why ?? '', /cut off/);
    assert.equal(cut[0]!.stop?.seq, 2);
    const edited = runs(
      replayScriptOf(trace(started, call(null), { type: 'plan_version', plan: { ...plan, version: 2 }, author: 'user', diff: null }, call('s1'))),
    );
    assert.match(edited[0]!.stop?.why ?? '', /edited the plan by hand \(v2\)/);
    assert.equal(edited[0]!.calls.length, 1, 'calls after the stop are not part of the run');
    const corrected = runs(replayScriptOf(trace(started, call(null), { type: 'log', level: 'info', message: 'user correction on s1: use tabs' })));
    assert.match(corrected[0]!.stop?.why ?? '', /correction/);
    const endsEarly = runs(replayScriptOf(trace(started, call(null))));
    assert.match(endsEarly[0]!.stop?.why ?? '', /ends before the mission did/);
  });

  it('replays a rejected plan (the decision is recorded), and refuses a trace without a start', () => {
    const rejected = runs(
      replayScriptOf(
        trace(started, call(null), {
          type: 'mission_finished',
          outcome: 'cancelled',
          summary: '',
          failure: {
            class: 'rejected_by_user',
            message: 'the plan was rejected',
            recoverable: true,
            suggestion: '',
            partialSideEffects: { files: [], commands: [] },
          },
        }),
      ),
    );
    assert.equal(rejected[0]!.stop, undefined);
    assert.equal(rejected[0]!.outcome, 'cancelled');
    assert.deepEqual(replayScriptOf(trace(call(null))), { ok: false, error: 'the trace has no mission_started event' });
  });
});
