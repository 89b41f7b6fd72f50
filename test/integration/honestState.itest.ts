/**
 * Honest state and failures the user can act on, inside a real extension host through the surfaces' own
 * message path (the messages server plays the model): a refused replan in words, a budget stop that names
 * its setting and offers Continue, Retry of a failed mission from the failing step, and Revert step /
 * Revert mission that the state and the summary then tell the truth about.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import * as vscode from 'vscode';
import type { PlanExecuteApi } from '../../src/vscode/api';
import type { SurfaceState } from '../../src/webview/protocol';
import { startMessagesServer, type MessagesServer } from '../support/messages-server/server';
import { api, waitApprovingPlans, workspaceRoot } from './missionDriver';
import { FAREWELL_JS, PATIENCE_JS, WAIT_MS, WAIT_TASK, WAVE_JS, directScenario, rejectionScenario, stateScenario } from './stateScenario';

const stopped = (s: SurfaceState): boolean => !!s.mission && !s.mission.live && s.mission.outcome !== null;

/** Starts a mission from the task box and waits until that mission (not the one shown before) stops. */
async function runUntilStopped(pe: PlanExecuteApi, task: string): Promise<SurfaceState> {
  const before = pe.test.sidebarState().mission?.missionId;
  assert.equal(pe.test.postFromWebview({ type: 'runTask', task }), true);
  return waitApprovingPlans(pe, (s) => stopped(s) && s.mission?.missionId !== before, 60_000);
}
const kinds = (s: SurfaceState): string[] => (s.mission?.actions ?? []).map((a) => a.kind);

/** A copy of the workspace as it is now (the engine's store left out), for a replay of what runs next. */
function workspaceCopy(): string {
  const copy = join(mkdtempSync(join(tmpdir(), 'pe-replay-ws-')), 'ws');
  cpSync(workspaceRoot(), copy, { recursive: true, filter: (src) => !src.split(sep).includes('.plan-execute') });
  return copy;
}

/** Replays the mission's trace, as the extension recorded it, through the real CLI on `copy`. */
async function replayWithCli(pe: PlanExecuteApi, missionId: string, copy: string): Promise<{ status: number | null; output: string }> {
  const events = await (await pe.test.missionStore())!.readEvents(missionId);
  const trace = join(dirname(copy), 'trace.jsonl');
  writeFileSync(trace, events.map((e) => JSON.stringify(e)).join('\n'));
  const cli = join(vscode.extensions.getExtension('plan-execute.plan-execute')!.extensionPath, 'dist', 'cli.js');
  const run = spawnSync(process.execPath, [cli, 'replay', '--trace', trace, '--workspace', copy], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
    timeout: 60_000,
  });
  return { status: run.status, output: `${run.stderr}${run.stdout}` };
}

describe('honest state: failures you can act on, and undo', () => {
  let server: MessagesServer | undefined;
  const limits = () => vscode.workspace.getConfiguration('planExecute.limits');

  before(async () => {
    const pe = await api();
    await pe.test.setApiKey('sk-ant-honest-state-test');
    await vscode.workspace.getConfiguration('planExecute').update('approvalMode', 'all', vscode.ConfigurationTarget.Global);
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
    delete process.env.ANTHROPIC_BASE_URL;
    for (const f of ['src/farewell.js', 'src/wave.js']) rmSync(join(workspaceRoot(), f), { force: true });
  });

  after(async () => {
    await limits().update('maxReplans', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('planExecute').update('approvalMode', undefined, vscode.ConfigurationTarget.Global);
  });

  it('gives a rejection with a reason to the executor first: it fixes the edit, the step passes, nothing replans', async function () {
    this.timeout(120_000);
    const pe = await api();
    server = await startMessagesServer({ scenario: rejectionScenario() });
    process.env.ANTHROPIC_BASE_URL = server.url;
    const settings = vscode.workspace.getConfiguration('planExecute');
    await settings.update('approvalMode', 'ask', vscode.ConfigurationTarget.Global);
    try {
      const copy = workspaceCopy();
      const before = pe.test.sidebarState().mission?.missionId;
      pe.test.postFromWebview({ type: 'runTask', task: 'Add farewell and wave helpers' });
      const planned = await pe.test.waitForState((x) => x.mission?.missionId !== before && x.planAwaitingApproval === 1, 30_000);
      pe.test.postFromWebview({ type: 'approvePlan', version: planned.planAwaitingApproval! });
      let rejected = false;
      const done = await (async () => {
        for (;;) {
          const state = await pe.test.waitForState((x) => (stopped(x) && x.mission?.missionId !== before ? true : x.approvals.length > 0), 60_000);
          if (stopped(state) && state.mission?.missionId !== before) return state;
          for (const card of state.approvals) {
            if (!rejected && card.kind === 'write' && card.path === 'src/farewell.js') {
              rejected = true;
              pe.test.postFromWebview({ type: 'rejectAction', requestId: card.requestId, reason: 'no debug logging in library code, please' });
            } else {
              pe.test.postFromWebview({ type: 'approveAction', requestId: card.requestId });
            }
          }
          await pe.test.waitForState((x) => !x.approvals.some((a) => state.approvals.some((b) => b.requestId === a.requestId)), 15_000);
        }
      })();
      assert.ok(rejected, 'the noisy edit was offered and rejected');
      assert.equal(done.mission?.outcome, 'succeeded', done.mission?.summary ?? '');
      assert.equal(server.requests.filter((r) => r.role === 'replanner').length, 0, 'the rejection did not make the mission replan');
      assert.equal(done.mission?.versions.length, 1);
      assert.equal(readFileSync(join(workspaceRoot(), 'src/farewell.js'), 'utf8'), FAREWELL_JS, 'the clean version is on disk');
      const s1Calls = server.requests.filter((r) => r.rule === 's1');
      assert.ok(
        s1Calls.some((r) => JSON.stringify(r.body.messages).includes('no debug logging in library code, please')),
        "the executor read the user's reason",
      );
      // The replay answers the plan and every card as the user did, the rejection's words included.
      const replay = await replayWithCli(pe, done.mission!.missionId, copy);
      assert.equal(replay.status, 0, replay.output);
      assert.doesNotMatch(replay.output, /REPLAY (DIVERGED|STOPPED)/);
      assert.equal(readFileSync(join(copy, 'src/farewell.js'), 'utf8'), FAREWELL_JS);
    } finally {
      await settings.update('approvalMode', 'all', vscode.ConfigurationTarget.Global);
    }
  });

  it('shows a refused replan in words, names the setting the budget stop needs, and Continue finishes the mission', async function () {
    this.timeout(120_000);
    const pe = await api();
    const s = stateScenario();
    server = await startMessagesServer({ scenario: s.scenario });
    process.env.ANTHROPIC_BASE_URL = server.url;
    await limits().update('maxReplans', 1, vscode.ConfigurationTarget.Global);

    const before = workspaceCopy();
    const stop = await runUntilStopped(pe, 'Add farewell and wave helpers');
    const m = stop.mission!;
    assert.equal(m.outcome, 'budget_exceeded', m.summary ?? '');
    assert.match(m.summary ?? '', /the replan budget ran out: 1 of 1 replans used \(raise planExecute\.limits\.maxReplans, then continue the mission\)/);
    assert.deepEqual(
      m.replans.map((r) => ({ trigger: r.trigger, to: r.toVersion, why: r.refusedBecause })),
      [{ trigger: 'step s2 failed', to: null, why: ['the new plan changed finished step s1 (instructions) without saying why'] }],
    );
    assert.deepEqual(kinds(stop), ['continue', 'openSettings', 'revertMission']);
    assert.deepEqual(
      m.actions.find((a) => a.kind === 'openSettings'),
      { kind: 'openSettings', query: 'planExecute.limits.maxReplans', label: 'Raise the limit' },
    );
    assert.equal(readFileSync(join(workspaceRoot(), 'src/farewell.js'), 'utf8'), FAREWELL_JS, 'finished work is on disk');

    s.fix();
    const s1Runs = server.requests.filter((r) => r.rule === 's1').length;
    assert.equal(pe.test.postFromWebview({ type: 'continueMission' }), true);
    const done = await waitApprovingPlans(pe, (x) => stopped(x) && x.mission?.outcome === 'succeeded', 60_000);
    assert.equal(done.mission?.missionId, m.missionId, 'Continue goes on with the same mission');
    assert.equal(server.requests.filter((r) => r.rule === 's1').length, s1Runs, 'finished s1 was not run again');
    assert.equal(readFileSync(join(workspaceRoot(), 'src/wave.js'), 'utf8'), WAVE_JS);
    assert.deepEqual(kinds(done), ['revertMission']);

    // The exported trace replays: the budget stop, the Continue with the cap as it was then, the same files.
    const requests = server.requests.length;
    const replay = await replayWithCli(pe, m.missionId, before);
    assert.equal(replay.status, 0, replay.output);
    assert.doesNotMatch(replay.output, /REPLAY (DIVERGED|STOPPED)/);
    assert.match(replay.output, /\(continue\)/);
    assert.equal(server.requests.length, requests, 'the replay never called the model');
    assert.equal(readFileSync(join(before, 'src/wave.js'), 'utf8'), WAVE_JS);
  });

  it('reverts a step — state, summary and the offer follow — then the whole mission, newest first', async function () {
    this.timeout(60_000);
    const pe = await api();
    const s = stateScenario();
    s.fix();
    server = await startMessagesServer({ scenario: s.scenario });
    process.env.ANTHROPIC_BASE_URL = server.url;
    const before = workspaceCopy();
    const done = await runUntilStopped(pe, 'Add farewell and wave helpers');
    assert.equal(done.mission?.summary, 'all required steps verified');
    const farewell = join(workspaceRoot(), 'src/farewell.js');
    const wave = join(workspaceRoot(), 'src/wave.js');

    pe.test.answerConfirmations(true);
    try {
      pe.test.postFromWebview({ type: 'revertStep', stepId: 's2' });
      const one = await pe.test.waitForState((x) => x.mission?.steps.find((st) => st.id === 's2')?.status === 'reverted', 15_000);
      assert.equal(existsSync(wave), false, 'the file s2 created is gone');
      assert.equal(existsSync(farewell), true, "s1's work stays");
      assert.match(pe.test.lastConfirmation() ?? '', /^Revert step s2\? This deletes src\/wave\.js\.$/);
      assert.equal(one.mission?.summary, "reverted s2: the work of required step s2 is undone, so the mission's result no longer holds");
      assert.match(pe.test.recentLog(), /reverted s2: deleted src\/wave\.js/);
      assert.deepEqual(kinds(one), ['rerun', 'revertMission'], 'Run s2 again; s1 still has changes; s2 is not offered again');
      assert.deepEqual(one.mission?.actions[0], { kind: 'rerun', stepIds: ['s2'] });

      pe.test.postFromWebview({ type: 'revertMission' });
      const status = (x: SurfaceState, id: string) => x.mission?.steps.find((st) => st.id === id)?.status;
      const all = await pe.test.waitForState((x) => status(x, 's1') === 'reverted' && status(x, 's3') === 'pending', 15_000);
      assert.match(pe.test.lastConfirmation() ?? '', /^Revert the whole mission — steps s1, newest first\? This deletes src\/farewell\.js\.$/);
      assert.equal(existsSync(farewell), false);
      assert.match(all.mission?.summary ?? '', /^every change of this mission was reverted \(s1, s2\)/);
      assert.deepEqual(kinds(all), ['rerun'], 'nothing is left to undo; running it again is offered');
      const s3 = all.mission?.steps.find((st) => st.id === 's3');
      assert.equal(s3?.status, 'pending', 's3 checked what s1 made: it no longer claims a ✓');
      assert.equal(s3?.statusReason, 'needs a re-run: it depends on s1, which was reverted');

      // The trace replays the two reverts too, on the copy: the files come and go as they did here.
      const replay = await replayWithCli(pe, done.mission!.missionId, before);
      assert.equal(replay.status, 0, replay.output);
      assert.doesNotMatch(replay.output, /REPLAY (DIVERGED|STOPPED)/);
      assert.match(replay.output, /revert s2 \(as recorded\)[\s\S]*revert s1 \(as recorded\)/);
      assert.equal(existsSync(join(before, 'src/farewell.js')) || existsSync(join(before, 'src/wave.js')), false, 'the replay reverted both steps');
    } finally {
      pe.test.answerConfirmations(undefined);
    }
  });

  it('reads the plan-size cap from settings and names it when a plan is over it, offering to raise it', async function () {
    this.timeout(60_000);
    const pe = await api();
    const s = stateScenario();
    server = await startMessagesServer({ scenario: s.scenario });
    process.env.ANTHROPIC_BASE_URL = server.url;
    await limits().update('maxPlanSteps', 2, vscode.ConfigurationTarget.Global);
    try {
      const failed = await runUntilStopped(pe, 'Add farewell and wave helpers');
      assert.equal(failed.mission?.outcome, 'failed');
      assert.equal(failed.mission?.planVersion, null, 'no plan over the cap is kept');
      assert.match(failed.mission?.summary ?? '', /the plan has 3 steps, over the cap of 2 \(planExecute\.limits\.maxPlanSteps\)/);
      assert.deepEqual(failed.mission?.actions, [
        { kind: 'retry' },
        { kind: 'openSettings', query: 'planExecute.limits.maxPlanSteps', label: 'Raise the plan-size cap' },
      ]);
      assert.equal(server.requests.filter((r) => r.role === 'planner').length, 2, 'the planner got one repair turn');
    } finally {
      await limits().update('maxPlanSteps', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('after a refused key during planning keeps the task and offers Set API key and Plan again, which then plans it', async function () {
    this.timeout(120_000);
    const pe = await api();
    const s = stateScenario();
    s.fix();
    s.refuseKey();
    server = await startMessagesServer({ scenario: s.scenario });
    process.env.ANTHROPIC_BASE_URL = server.url;
    const failed = await runUntilStopped(pe, 'Add farewell and wave helpers');
    const m = failed.mission!;
    assert.equal(m.outcome, 'failed', m.summary ?? '');
    assert.equal(m.task, 'Add farewell and wave helpers', 'the task is kept');
    assert.equal(m.failure?.cause, 'auth');
    assert.deepEqual(kinds(failed), ['retry', 'setApiKey']);
    assert.doesNotMatch(m.summary ?? '', /cancel/);

    s.acceptKey();
    pe.test.postFromWebview({ type: 'retryMission' });
    const done = await waitApprovingPlans(pe, (x) => stopped(x) && x.mission?.missionId !== m.missionId, 60_000);
    assert.equal(done.mission?.outcome, 'succeeded', done.mission?.summary ?? '');
    assert.equal(done.mission?.task, m.task, 'Plan again planned the same task');
  });

  it('names the unreachable server, and offers Retry and Open settings', async function () {
    this.timeout(120_000);
    const pe = await api();
    process.env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:9';
    const failed = await runUntilStopped(pe, 'Add farewell and wave helpers');
    const m = failed.mission!;
    assert.equal(m.outcome, 'failed', m.summary ?? '');
    assert.equal(m.failure?.cause, 'connection', JSON.stringify(m.failure));
    assert.match(m.summary ?? '', /127\.0\.0\.1:9/, 'the message names where it tried to connect');
    assert.deepEqual(kinds(failed), ['retry', 'openSettings']);
    assert.deepEqual(m.actions[1], { kind: 'openSettings', query: 'planExecute.baseUrl', label: 'Open settings' });
  });

  it('shows a model call that waits on a rate limit, and clears it when the call goes on', async function () {
    this.timeout(120_000);
    const pe = await api();
    const s = stateScenario();
    server = await startMessagesServer({ scenario: s.scenario });
    process.env.ANTHROPIC_BASE_URL = server.url;
    const before = pe.test.sidebarState().mission?.missionId;
    pe.test.postFromWebview({ type: 'runTask', task: WAIT_TASK });
    const waiting = await waitApprovingPlans(pe, (x) => x.mission?.missionId !== before && (x.mission?.waits.length ?? 0) > 0, 60_000);
    const wait = waiting.mission!.waits[0]!;
    assert.deepEqual({ role: wait.role, stepId: wait.stepId, reason: wait.reason }, { role: 'executor', stepId: 'w1', reason: 'rate_limited' });
    const left = Date.parse(wait.until) - Date.now();
    assert.ok(left > 0 && left <= WAIT_MS + 1_000, `the wait ends within the provider's retry-after (${left} ms left)`);
    assert.match(pe.test.recentLog(), /waiting \d+ s \(rate_limited/);
    const done = await waitApprovingPlans(pe, (x) => stopped(x) && x.mission?.missionId === waiting.mission?.missionId, 60_000);
    assert.equal(done.mission?.outcome, 'succeeded', done.mission?.summary ?? '');
    assert.deepEqual(done.mission?.waits, []);
    assert.equal(readFileSync(join(workspaceRoot(), 'src/patience.js'), 'utf8'), PATIENCE_JS);
    rmSync(join(workspaceRoot(), 'src/patience.js'), { force: true });
  });

  it('retries a failed mission from the failing step: finished work is kept', async function () {
    this.timeout(120_000);
    const pe = await api();
    const s = directScenario();
    server = await startMessagesServer({ scenario: s.scenario });
    process.env.ANTHROPIC_BASE_URL = server.url;
    // With no surface in sight, the failure is announced once, with the way on.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    const failed = await runUntilStopped(pe, 'Add farewell and wave helpers');
    assert.equal(failed.mission?.outcome, 'failed', failed.mission?.summary ?? '');
    const notice = pe.test.lastStoppedNotice();
    assert.ok(notice, 'a notification said the mission failed');
    assert.match(notice.message, /^Plan & Execute: the mission failed — step s2 failed: the module layout is unknown/);
    assert.deepEqual(notice.labels, ['Retry', 'Show']);
    await vscode.commands.executeCommand('workbench.view.extension.planExecute');
    assert.match(failed.mission?.summary ?? '', /^step s2 failed: the module layout is unknown \(direct mode: a short plan is not replanned\)$/);
    assert.deepEqual(kinds(failed), ['retry', 'revertMission']);

    s.fix();
    pe.test.postFromWebview({ type: 'retryMission' });
    const done = await waitApprovingPlans(pe, (x) => stopped(x) && x.mission?.outcome === 'succeeded', 60_000);
    assert.equal(done.mission?.missionId, failed.mission?.missionId);
    assert.equal(server.requests.filter((r) => r.rule === 's1').length, 2, 's1 ran once (two turns), before the failure only');
    assert.equal(readFileSync(join(workspaceRoot(), 'src/wave.js'), 'utf8'), WAVE_JS);
  });
});
