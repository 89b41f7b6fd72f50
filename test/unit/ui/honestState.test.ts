import { strict as assert } from 'node:assert';
import type { TraceEvent, TraceEventBody } from '../../../src/core/contracts/traceEvents';
import { missionViewFromEvents } from '../../../src/core/mission/view';
import { toUiMission } from '../../../src/vscode/view/uiMission';
import { missionActions } from '../../../src/vscode/view/missionActions';
import type { MissionView } from '../../../src/webview/protocol';
import { parsedPlan, step } from '../../support/fixtures';

const plan = (version: number, ids: string[]) =>
  parsedPlan(
    ids.map((id) => step(id, { title: `T ${id}`, authority: undefined, evidence: undefined })),
    { goal: 'g', version, parentVersion: version > 1 ? version - 1 : null, reason: 'r' },
  );

/** The mission as the surfaces show it, folded from a trace (live: this window runs it). */
const missionViewFromTrace = (_id: string, events: TraceEvent[], live = false): MissionView => toUiMission(missionViewFromEvents(events), { live });

function trace(...bodies: TraceEventBody[]): TraceEvent[] {
  return bodies.map((b, seq) => ({ missionId: 'm1', seq, at: `2026-01-01T00:00:${String(seq).padStart(2, '0')}.000Z`, ...b }) as TraceEvent);
}

const file = (path: string, before: string | null, after: string | null) => ({
  path,
  change: before === null ? ('created' as const) : ('modified' as const),
  beforeHash: before,
  afterHash: after,
});
const result = (stepId: string, files: ReturnType<typeof file>[]): TraceEventBody => ({
  type: 'step_result',
  result: { stepId, status: 'succeeded', output: 'ok', evidence: [], sideEffects: { files, commands: [] }, toolCallIds: [] },
});
const finished = (outcome: 'succeeded' | 'failed' | 'cancelled' | 'budget_exceeded', summary: string, failure?: Record<string, unknown>): TraceEventBody =>
  ({
    type: 'mission_finished',
    outcome,
    summary,
    ...(failure ? { failure: { class: 'tool_error', partialSideEffects: { files: [], commands: [] }, recoverable: true, suggestion: '', ...failure } } : {}),
  }) as TraceEventBody;

/** A two-step mission that succeeded, s1 and s2 each changing a file. */
const succeeded: TraceEventBody[] = [
  { type: 'mission_started', task: 'do it', workspaceRoot: '/w', settings: {} },
  { type: 'plan_version', plan: plan(1, ['s1', 's2']), author: 'planner', diff: null },
  result('s1', [file('a.js', null, 'h1')]),
  { type: 'step_status', stepId: 's1', status: 'succeeded', attempt: 1 },
  result('s2', [file('b.js', 'h0', 'h2')]),
  { type: 'step_status', stepId: 's2', status: 'succeeded', attempt: 1 },
  finished('succeeded', 'all required steps verified'),
];

const kinds = (m: MissionView): string[] => missionActions(m).map((a) => (a.kind === 'openSettings' ? `openSettings:${a.query}` : a.kind));

describe('the mission as the user sees it: honest state and actions', () => {
  it('shows a reverted step as reverted and stops claiming its verified work', () => {
    const view = missionViewFromTrace(
      'm1',
      trace(
        ...succeeded,
        { type: 'revert', stepIds: ['s2'], files: [{ stepId: 's2', path: 'b.js', action: 'restored' }], overwrote: [] },
        { type: 'step_status', stepId: 's2', status: 'reverted', attempt: 1, reason: 'reverted by the user: restored b.js' },
      ),
    );
    assert.equal(view.steps.find((s) => s.id === 's2')?.status, 'reverted');
    assert.equal(view.summary, "reverted s2: the work of required step s2 is undone, so the mission's result no longer holds");
    assert.deepEqual(kinds(view), ['rerun', 'revertMission'], 'going on runs s2 again; s1 still has changes to revert; s2 is not offered again');
    assert.deepEqual(missionActions(view)[0], { kind: 'rerun', stepIds: ['s2'] }, 'the offer names what it will run');
    assert.equal(view.phase, 'succeeded', 'history stays history');
    assert.equal(view.phaseLabel, 'partly reverted', 'but the badge does not say "succeeded" alone');
  });

  it('says every change was reverted after Revert mission, and offers nothing more to undo', () => {
    const view = missionViewFromTrace(
      'm1',
      trace(
        ...succeeded,
        {
          type: 'revert',
          stepIds: ['s2', 's1'],
          files: [
            { stepId: 's2', path: 'b.js', action: 'restored' },
            { stepId: 's1', path: 'a.js', action: 'deleted' },
          ],
          overwrote: [],
        },
        { type: 'step_status', stepId: 's2', status: 'reverted', attempt: 1 },
        { type: 'step_status', stepId: 's1', status: 'reverted', attempt: 1 },
      ),
    );
    assert.match(view.summary ?? '', /^every change of this mission was reverted \(s1, s2\)/);
    assert.deepEqual(kinds(view), ['rerun'], 'nothing more to undo; running the mission again is offered');
    assert.equal(view.phaseLabel, 'reverted');
  });

  it('lists refused replans with their reasons in words, and the trigger in words', () => {
    const view = missionViewFromTrace(
      'm1',
      trace(
        { type: 'plan_version', plan: plan(1, ['s1', 's2']), author: 'planner', diff: null },
        {
          type: 'replan',
          trigger: 'step_failed',
          stepId: 's2',
          mode: 'step',
          evidence: 'e',
          fromVersion: 1,
          toVersion: null,
          invalidated: [],
          refusedBecause: ['the new plan changed finished step s1 (instructions) without saying why'],
        },
        { type: 'replan', trigger: 'user_correction', stepId: null, mode: 'rest', evidence: 'e', fromVersion: 1, toVersion: 2, invalidated: [] },
      ),
    );
    assert.deepEqual(
      view.replans.map((r) => ({ trigger: r.trigger, to: r.toVersion, why: r.refusedBecause })),
      [
        { trigger: 'step s2 failed', to: null, why: ['the new plan changed finished step s1 (instructions) without saying why'] },
        { trigger: 'your correction', to: 2, why: [] },
      ],
    );
  });

  it('shows a model wait until the call goes on or the step ends', () => {
    const wait: TraceEventBody = {
      type: 'model_wait',
      role: 'executor',
      stepId: 's1',
      provider: 'anthropic',
      model: 'm',
      reason: 'rate_limited',
      waitMs: 8000,
      attempt: 1,
      message: '429',
    };
    const base = [
      { type: 'plan_version', plan: plan(1, ['s1']), author: 'planner', diff: null } as TraceEventBody,
      { type: 'step_status', stepId: 's1', status: 'running', attempt: 1 } as TraceEventBody,
    ];
    const waiting = missionViewFromTrace('m1', trace(...base, wait), true);
    assert.deepEqual(
      waiting.waits.map((w) => ({ stepId: w.stepId, reason: w.reason, until: w.until })),
      [{ stepId: 's1', reason: 'rate_limited', until: '2026-01-01T00:00:10.000Z' }],
    );
    const ended = missionViewFromTrace('m1', trace(...base, wait, { type: 'step_status', stepId: 's1', status: 'failed', attempt: 1 }), true);
    assert.deepEqual(ended.waits, []);
  });

  it('offers Set API key and Plan again after a 401 during planning, and keeps the task', () => {
    const view = missionViewFromTrace(
      'm1',
      trace(
        { type: 'mission_started', task: 'add a farewell module', workspaceRoot: '/w', settings: {} },
        { type: 'mission_phase', phase: 'planning' },
        finished('failed', 'planning failed: the API refused the key (401)', {
          message: 'the API refused the key (401)',
          cause: 'auth',
          provider: 'anthropic',
        }),
      ),
    );
    assert.equal(view.task, 'add a farewell module');
    assert.deepEqual(view.failure && { cause: view.failure.cause, provider: view.failure.provider }, { cause: 'auth', provider: 'anthropic' });
    assert.deepEqual(kinds(view), ['retry', 'setApiKey']);
  });

  it("offers no key to set when VS Code's language models refused access (consent: Retry asks again)", () => {
    const view = missionViewFromTrace(
      'm1',
      trace(
        { type: 'mission_started', task: 't', workspaceRoot: '/w', settings: {} },
        finished('failed', 'planning failed: VS Code did not let Plan & Execute use this model', {
          message: 'VS Code did not let Plan & Execute use this model',
          cause: 'auth',
          provider: 'vscode-lm',
        }),
      ),
    );
    assert.deepEqual(kinds(view), ['retry']);
  });

  it('offers Continue and the setting to raise when a budget stopped the mission', () => {
    const view = missionViewFromTrace(
      'm1',
      trace(
        { type: 'plan_version', plan: plan(1, ['s1', 's2']), author: 'planner', diff: null },
        finished('budget_exceeded', 'the replan budget ran out: 3 of 3 replans used (raise planExecute.limits.maxReplans, then continue the mission)', {
          class: 'budget_exceeded',
          message: 'the replan budget ran out',
          detail: 'budget:replans',
        }),
      ),
    );
    assert.deepEqual(kinds(view), ['continue', 'openSettings:planExecute.limits.maxReplans']);
    assert.equal(view.phaseLabel, 'stopped: budget');
  });

  it('offers Retry for a failed mission with a plan, Open settings for an unreachable server, nothing while live', () => {
    const events = trace(
      { type: 'plan_version', plan: plan(1, ['s1']), author: 'planner', diff: null },
      finished('failed', 'replanning failed', {
        message: 'Could not reach the Messages API at http://127.0.0.1:9',
        cause: 'connection',
        provider: 'anthropic',
      }),
    );
    const view = missionViewFromTrace('m1', events);
    assert.deepEqual(kinds(view), ['retry', 'openSettings:planExecute.baseUrl']);
    assert.deepEqual(missionActions({ ...view, live: true }), []);
  });

  it('offers Choose another model when the model does not exist there or cannot call tools', () => {
    for (const cause of ['model_unavailable', 'no_tool_support']) {
      const view = missionViewFromTrace(
        'm1',
        trace(
          { type: 'plan_version', plan: plan(1, ['s1']), author: 'planner', diff: null },
          finished('failed', 'the model failed', { message: 'model qwen:1b cannot call tools', cause, provider: 'openai' }),
        ),
      );
      assert.deepEqual(kinds(view), ['retry', 'chooseModel'], cause);
    }
  });

  it('clears the outcome when a Retry goes on in the same trace', () => {
    const view = missionViewFromTrace(
      'm1',
      trace({ type: 'plan_version', plan: plan(1, ['s1']), author: 'planner', diff: null }, finished('failed', 'required steps not done: s1 (failed)'), {
        type: 'mission_continued',
        mode: 'retry',
        reopened: ['s1'],
        reset: ['replans', 'steps', 'wall_time'],
      }),
    );
    assert.equal(view.outcome, null);
    assert.equal(view.summary, null);
  });
});
