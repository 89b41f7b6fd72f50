/**
 * The one state model every surface reads (header, banner, status bar, badge, buttons, form), at each phase
 * of a mission, live in this window or read back after a reload; and the pure pieces around it: where a
 * review diff opens and where in the file, which stored mission is the newest, what a card says after a
 * rejection, and a log line's cost.
 */
import { strict as assert } from 'node:assert';
import type { TraceEvent, TraceEventBody } from '../../../src/core/contracts/traceEvents';
import type { ApprovalRequest } from '../../../src/core/ports';
import { missionViewFromEvents } from '../../../src/core/mission/view';
import { toUiMission } from '../../../src/vscode/view/uiMission';
import { missionStatus, type StatusInput } from '../../../src/vscode/view/missionStatus';
import { missionActions } from '../../../src/vscode/view/missionActions';
import { BESIDE_MIN_WIDTH, diffPlacement, firstChange } from '../../../src/vscode/diff/diffPlacement';
import { latestMissionId } from '../../../src/vscode/mission/missionOwner';
import { VsCodeApprover } from '../../../src/vscode/approvals/vscodeApprover';
import { describeEvent } from '../../../src/vscode/traceLog';
import { listingFailure } from '../../../src/vscode/models/listingFailure';
import type { ApprovalView, MissionView } from '../../../src/webview/protocol';
import { parsedPlan, step } from '../../support/fixtures';

const plan = (version: number, ids: string[]) =>
  parsedPlan(
    ids.map((id) => step(id, { title: `T ${id}`, authority: undefined, evidence: undefined })),
    { goal: 'g', version, parentVersion: version > 1 ? version - 1 : null, reason: 'r' },
  );
const trace = (...bodies: TraceEventBody[]): TraceEvent[] =>
  bodies.map((b, seq) => ({ missionId: 'm1', seq, at: `2026-01-01T00:00:${String(seq).padStart(2, '0')}.000Z`, ...b }) as TraceEvent);
const view = (live: boolean, ...bodies: TraceEventBody[]): MissionView => toUiMission(missionViewFromEvents(trace(...bodies)), { live });

const started: TraceEventBody = { type: 'mission_started', task: 'do it', workspaceRoot: '/w', settings: {} };
const planned: TraceEventBody = { type: 'plan_version', plan: plan(1, ['s1', 's2']), author: 'planner', diff: null };
const waitingPhase: TraceEventBody = { type: 'mission_phase', phase: 'awaiting_approval' };
const approved: TraceEventBody = { type: 'plan_approved', version: 1, by: 'user' };
const running: TraceEventBody = { type: 'mission_phase', phase: 'running' };
const s1Running: TraceEventBody = { type: 'step_status', stepId: 's1', status: 'running', attempt: 1 };

const input = (mission: MissionView | null, extra: Partial<StatusInput> = {}): StatusInput => ({
  mission,
  busy: null,
  resuming: false,
  approvals: [],
  planAwaitingApproval: null,
  demo: false,
  ...extra,
});
const card: ApprovalView = {
  kind: 'write',
  requestId: 'r1',
  stepId: 's1',
  stepTitle: null,
  stepWhy: null,
  why: '',
  at: '',
  verification: false,
  path: 'a.js',
  change: 'created',
  size: null,
};

describe('the one state model, at each phase', () => {
  it('says the plan waits only while the approver holds its request, and the status bar and badge count it', () => {
    const live = view(true, started, planned, waitingPhase);
    const waiting = missionStatus(input(live, { planAwaitingApproval: 1 }));
    const said = { kind: waiting.kind, label: waiting.label, active: waiting.active, count: waiting.waiting.count };
    assert.deepEqual(said, { kind: 'planWaiting', label: 'plan v1 waits for you', active: true, count: 1 });
    assert.equal(missionStatus(input(live)).kind, 'planning', 'the phase is recorded just before the request: not "waits" yet');
  });

  it('after a reload, a plan that waited is one state: interrupted, saying what Resume does — never "plan waits for you" without a request', () => {
    const m = view(false, started, planned, waitingPhase);
    assert.equal(m.phase, 'interrupted');
    const s = missionStatus(input(m));
    assert.equal(s.kind, 'interrupted');
    assert.equal(s.label, 'interrupted');
    assert.equal(s.detail, 'The mission stopped while plan v1 waited for your approval (the window closed). Resume shows it for approval again.');
    assert.equal(s.waiting.count, 0);
    assert.equal(s.active, false);
    assert.deepEqual(
      missionActions(m).map((a) => a.kind),
      ['resume'],
    );
  });

  it('while it is picked up after the reload, it says so (and the new-mission form stays closed)', () => {
    const s = missionStatus(input(view(false, started, planned, waitingPhase), { resuming: true }));
    assert.deepEqual({ kind: s.kind, active: s.active }, { kind: 'resuming', active: true });
  });

  it('a run cut off mid-step names the step and what Resume does', () => {
    const m = view(false, started, planned, waitingPhase, approved, running, s1Running);
    assert.equal(
      missionStatus(input(m)).detail,
      'The mission stopped while s1 ran (the window closed). Resume runs it again from the start; finished steps are kept.',
    );
    const cut: TraceEventBody[] = [
      { type: 'step_status', stepId: 's1', status: 'interrupted', attempt: 1 },
      { type: 'mission_phase', phase: 'interrupted', reason: 'the window closed' },
    ];
    const recorded = view(false, started, planned, waitingPhase, approved, running, ...cut);
    assert.equal(missionStatus(input(recorded)).detail, missionStatus(input(m)).detail, 'the same whether the old window recorded its interruption or not');
  });

  it('planning cut off offers Plan again', () => {
    const m = view(false, started, { type: 'mission_phase', phase: 'planning' });
    assert.match(missionStatus(input(m)).detail ?? '', /while its plan was being made.*Plan again/);
    assert.deepEqual(
      missionActions(m).map((a) => a.kind),
      ['retry'],
    );
  });

  it('a running mission is running; what waits is counted, not put in the label', () => {
    const s = missionStatus(input(view(true, started, planned, approved, running, s1Running), { approvals: [card] }));
    const said = { kind: s.kind, label: s.label, count: s.waiting.count, summary: s.waiting.summary };
    assert.deepEqual(said, { kind: 'running', label: 'running', count: 1, summary: '1 edit waits for your approval' });
    assert.deepEqual(s.steps, { done: 0, total: 2 });
  });

  it('shows a cost only when it is a real figure, and never in the demo', () => {
    const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const priced: TraceEventBody = {
      type: 'model_call',
      role: 'planner',
      stepId: null,
      model: 'x',
      promptVersion: 'p',
      usage,
      costUsd: 0.05,
      durationMs: 1,
      stopReason: null,
      requestId: null,
    };
    const m = view(true, started, priced, planned);
    assert.equal(missionStatus(input(m)).costUsd, 0.05);
    assert.equal(missionStatus(input(m, { demo: true })).costUsd, null);
    assert.equal(missionStatus(input(view(true, started, planned))).costUsd, null, 'no call priced yet: nothing to show');
  });

  it('a starting mission is active before it has any event; no mission is idle', () => {
    assert.deepEqual(missionStatus(input(null, { busy: 'Planning…' })).kind, 'starting');
    assert.equal(missionStatus(input(null, { busy: 'Planning…' })).active, true);
    assert.deepEqual({ kind: missionStatus(input(null)).kind, active: missionStatus(input(null)).active }, { kind: 'idle', active: false });
  });

  it('a finished mission shows its outcome, in the words the badge uses after a revert too', () => {
    const ended: TraceEventBody[] = [
      { type: 'step_status', stepId: 's1', status: 'succeeded', attempt: 1 },
      { type: 'mission_finished', outcome: 'budget_exceeded', summary: 'stopped' },
    ];
    const done = view(false, started, planned, ...ended);
    assert.deepEqual({ kind: missionStatus(input(done)).kind, label: missionStatus(input(done)).label }, { kind: 'stopped', label: 'stopped: budget' });
  });
});

describe('review diffs: where they open, and where in the file', () => {
  it('opens in the active group without a board, beside a wide board, below a narrow one, in another group when there is one', () => {
    assert.deepEqual(diffPlacement({ boardColumn: undefined, boardWidth: undefined, groups: [1] }), { kind: 'active' });
    assert.deepEqual(diffPlacement({ boardColumn: 1, boardWidth: BESIDE_MIN_WIDTH, groups: [1] }), { kind: 'besideBoard' });
    assert.deepEqual(diffPlacement({ boardColumn: 1, boardWidth: 1100, groups: [1] }), { kind: 'belowBoard' });
    assert.deepEqual(diffPlacement({ boardColumn: 2, boardWidth: 600, groups: [1, 2] }), { kind: 'group', column: 1 });
  });

  it('starts on the first change: the line and the first differing character, even far right on a long line', () => {
    const long = `const x = ${'a'.repeat(200)};`;
    assert.deepEqual(firstChange('one\ntwo\nthree\n', 'one\ntwo\nthree\nfour\n'), { line: 3, character: 0 });
    assert.deepEqual(firstChange(`head\n${long}\ntail\n`, `head\n${long.replace(/;$/, ' + 1;')}\ntail\n`), { line: 1, character: long.length - 1 });
    assert.deepEqual(firstChange('', 'new\n'), { line: 0, character: 0 });
    assert.deepEqual(firstChange('a\nb\nc\n', 'a\nc\n'), { line: 1, character: 0 }, 'a deletion points at the line after it');
  });
});

describe('the newest stored mission', () => {
  it('is found by the time in its id, or not at all when an id has none (then every trace is read)', () => {
    const older = `m-${(1_700_000_000_000).toString(36)}-abc123`;
    const newer = `m-${(1_800_000_000_000).toString(36)}-zzz999`;
    assert.equal(latestMissionId([newer, older]), newer);
    assert.equal(latestMissionId([older, newer, `${older}-cut`]), undefined);
    assert.equal(latestMissionId([]), undefined);
  });
});

describe('approval cards: what they say after a rejection, and when the verifier asks again', () => {
  const base = { missionId: 'm', stepId: 's1', actionHash: 'h', why: 'because' };
  const write = (id: string): ApprovalRequest => ({ ...base, id, kind: 'write', path: 'src/a.ts', change: 'modified', beforeHash: 'b', afterHash: 'a' });
  const command = (id: string, role: 'executor' | 'verifier'): ApprovalRequest => ({
    ...base,
    id,
    kind: 'command',
    command: 'npm test',
    argv: ['npm', 'test'],
    cwd: '/w',
    confinement: 'sandboxed',
    network: false,
    role,
  });

  it("the step's next request after a rejection says it answers the user's reason; later ones do not", () => {
    const approver = new VsCodeApprover(() => undefined);
    const signal = new AbortController().signal;
    void approver.request(write('r1'), signal);
    assert.equal(approver.reject('r1', 'no debug logging, please'), true);
    void approver.request(write('r2'), signal);
    assert.equal(approver.views()[0]?.answers, 'no debug logging, please');
    approver.approve('r2', false);
    void approver.request(write('r3'), signal);
    assert.equal(approver.views()[0]?.answers, undefined);
  });

  it("marks the verifier's run of a command the user approved for the executor, so the card can say why it asks again", () => {
    const approver = new VsCodeApprover(() => undefined);
    const signal = new AbortController().signal;
    void approver.request(command('c1', 'executor'), signal);
    approver.approve('c1', false);
    void approver.request(command('c2', 'verifier'), signal);
    const v = approver.views()[0];
    assert.ok(v?.kind === 'command' && v.verification && v.approvedForExecutor === true);
  });
});

describe('words for things that used to leak', () => {
  it("a log line names a call's cost only when it is a real figure", () => {
    const usage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const call = (pricing: 'priced' | 'unknown' | 'local', costUsd: number): TraceEvent => ({
      missionId: 'm',
      seq: 0,
      at: '',
      type: 'model_call',
      role: 'executor',
      stepId: 's1',
      model: 'scripted-demo-model',
      promptVersion: 'p',
      usage,
      costUsd,
      durationMs: 5,
      stopReason: null,
      requestId: null,
      pricing,
    });
    assert.match(describeEvent(call('priced', 0.0123)), /\$0\.0123/);
    assert.match(describeEvent(call('unknown', 0)), /price unknown/);
    assert.doesNotMatch(describeEvent(call('unknown', 0)), /\$/);
    assert.match(describeEvent(call('local', 0)), /local, no cost/);
  });

  it('a model list that cannot be had is said in words, never as the raw response', () => {
    const notFound = Object.assign(new Error('404 {"type":"error","error":{"type":"not_found_error","message":"no route GET /v1/models"}}'), { status: 404 });
    const said = listingFailure('Anthropic', 'http://127.0.0.1:4000', notFound);
    assert.equal(said, '127.0.0.1:4000 does not list its models (it has no model list). Type a model name instead.');
    assert.doesNotMatch(said, /\{|type":/);
  });
});
