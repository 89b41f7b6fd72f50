/**
 * Surfaces that never contradict themselves, inside a real extension host (the messages server plays the
 * model): every plan version waits for the user even in approval mode "all"; one start at a time; Cancel
 * asks first; and after a revert, going on runs again what the revert undid.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SurfaceState } from '../../src/webview/protocol';
import { startMessagesServer, type MessagesServer } from '../support/messages-server/server';
import { api, waitApprovingPlans, withSettings, workspaceRoot } from './missionDriver';
import { providerScenario, removeNotes } from './providerScenario';

const TASK = 'Write two notes and a summary';
const stopped = (s: SurfaceState): boolean => !!s.mission && !s.mission.live && s.mission.outcome !== null;

describe('surfaces: one state, every plan approved, one start at a time', () => {
  let server: MessagesServer | undefined;
  let restore: (() => Promise<void>) | undefined;

  beforeEach(async () => {
    const pe = await api();
    server = await startMessagesServer({ scenario: providerScenario() });
    process.env.ANTHROPIC_BASE_URL = server.url;
    await pe.test.setApiKey('sk-ant-surfaces-test');
    restore = await withSettings({ approvalMode: 'all', provider: 'anthropic' });
  });

  afterEach(async () => {
    const pe = await api();
    pe.test.answerConfirmations(undefined);
    await restore?.();
    await server?.close();
    delete process.env.ANTHROPIC_BASE_URL;
    removeNotes(workspaceRoot());
    // Leave no mission running for the next test.
    if (pe.test.sidebarState().mission?.live) {
      pe.test.answerConfirmations(true);
      await vscode.commands.executeCommand('planExecute.cancel');
      await pe.test.waitForState((s) => !s.mission?.live, 30_000);
      pe.test.answerConfirmations(undefined);
    }
  });

  it('in approval mode "all", the new plan and the replanned one wait for the user; nothing inside them asks', async function () {
    this.timeout(120_000);
    const pe = await api();
    const before = pe.test.sidebarState().mission?.missionId;
    let cardsSeen = 0;
    pe.test.postFromWebview({ type: 'runTask', task: TASK });
    const first = await pe.test.waitForState((s) => {
      cardsSeen += s.approvals.length;
      return s.mission?.missionId !== before && s.planAwaitingApproval !== null;
    }, 30_000);
    const said = { kind: first.status.kind, label: first.status.label, count: first.status.waiting.count };
    assert.deepEqual(said, { kind: 'planWaiting', label: 'plan v1 waits for you', count: 1 });
    assert.match(pe.test.statusBarItem().text, /1 waiting/, 'the status bar says the plan waits');
    await new Promise((r) => setTimeout(r, 500));
    const statuses = pe.test.sidebarState().mission?.steps.map((s) => s.status);
    assert.deepEqual(statuses, ['pending', 'pending', 'pending', 'pending'], 'nothing ran before the approval');
    assert.equal(existsSync(join(workspaceRoot(), 'notes/one.txt')), false);

    pe.test.postFromWebview({ type: 'approvePlan', version: 1 });
    const replanned = await pe.test.waitForState((s) => {
      cardsSeen += s.approvals.length;
      return s.planAwaitingApproval === 2;
    }, 60_000);
    assert.equal(replanned.status.label, 'plan v2 waits for you', 'the replanned version waits too');
    assert.equal(replanned.mission?.versions.at(-1)?.author, 'replanner');
    assert.equal(existsSync(join(workspaceRoot(), 'notes/one.txt')), true, 'the approved plan ran without further prompts');
    pe.test.postFromWebview({ type: 'approvePlan', version: 2 });
    const done = await pe.test.waitForState((s) => {
      cardsSeen += s.approvals.length;
      return stopped(s);
    }, 60_000);
    assert.equal(done.mission?.outcome, 'succeeded', done.mission?.summary ?? '');
    assert.equal(cardsSeen, 0, 'no edit or command asked inside an approved plan');
    const events = await (await pe.test.missionStore())!.readEvents(done.mission!.missionId);
    const approvals = events.filter((e) => (e as { type: string }).type === 'plan_approved') as { by: string }[];
    assert.deepEqual(
      approvals.map((a) => a.by),
      ['user', 'user'],
    );
  });

  it('starts one mission for two starts sent at once, and a Continue racing them is refused', async function () {
    this.timeout(120_000);
    const pe = await api();
    const store = (await pe.test.missionStore())!;
    const count = (await store.listMissions()).length;
    pe.test.postFromWebview({ type: 'runTask', task: TASK });
    pe.test.postFromWebview({ type: 'runTask', task: TASK });
    pe.test.postFromWebview({ type: 'continueMission' });
    await pe.test.waitForState((s) => s.planAwaitingApproval === 1, 30_000);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await store.listMissions()).length, count + 1, 'one new mission, not two');
  });

  it('asks before Cancel Mission, and a "no" leaves the mission as it was', async function () {
    this.timeout(120_000);
    const pe = await api();
    pe.test.postFromWebview({ type: 'runTask', task: TASK });
    const waiting = await pe.test.waitForState((s) => s.planAwaitingApproval === 1, 30_000);
    pe.test.answerConfirmations(false);
    await vscode.commands.executeCommand('planExecute.cancel');
    assert.match(pe.test.lastConfirmation() ?? '', /^Cancel the mission\? Running steps are stopped/);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(pe.test.sidebarState().status.kind, 'planWaiting', 'still waiting: nothing was cancelled');
    pe.test.answerConfirmations(true);
    pe.test.postFromWebview({ type: 'cancelMission' });
    const cancelled = await pe.test.waitForState(stopped, 30_000);
    assert.equal(cancelled.mission?.missionId, waiting.mission?.missionId);
    const ended = { outcome: cancelled.mission?.outcome, kind: cancelled.status.kind, active: cancelled.status.active };
    assert.deepEqual(ended, { outcome: 'cancelled', kind: 'cancelled', active: false });
  });

  it('after a revert, dependents need a re-run; Resume Mission runs again what the revert undid, then says there is nothing left', async function () {
    this.timeout(180_000);
    const pe = await api();
    const before = pe.test.sidebarState().mission?.missionId;
    pe.test.postFromWebview({ type: 'runTask', task: TASK });
    const done = await waitApprovingPlans(pe, (s) => stopped(s) && s.mission?.missionId !== before, 90_000);
    assert.equal(done.mission?.outcome, 'succeeded', done.mission?.summary ?? '');

    pe.test.answerConfirmations(true);
    pe.test.postFromWebview({ type: 'revertStep', stepId: 's1' });
    const status = (s: SurfaceState, id: string) => s.mission?.steps.find((x) => x.id === id);
    const reverted = await pe.test.waitForState((s) => status(s, 's1')?.status === 'reverted' && status(s, 's4b')?.status === 'pending', 15_000);
    assert.equal(existsSync(join(workspaceRoot(), 'notes/one.txt')), false);
    const after = ['s1', 's2', 's3', 's4b'].map((id) => status(reverted, id)?.status);
    assert.deepEqual(after, ['reverted', 'succeeded', 'pending', 'pending'], 'no ✓ rests on the reverted step');
    assert.equal(status(reverted, 's3')?.statusReason, 'needs a re-run: it depends on s1, which was reverted');
    assert.match(pe.test.lastConfirmation() ?? '', /Revert step s1\?/);
    assert.deepEqual(reverted.mission?.actions[0], { kind: 'rerun', stepIds: ['s1', 's3', 's4b'] });
    assert.match(reverted.status.label, /reverted/);

    const s1Before = server!.requests.filter((r) => r.rule === 's1').length;
    const s2Before = server!.requests.filter((r) => r.rule === 's2').length;
    await vscode.commands.executeCommand('planExecute.resume');
    const sameMissionDone = (s: SurfaceState): boolean => stopped(s) && s.mission?.missionId === done.mission?.missionId && s.mission?.outcome === 'succeeded';
    const again = await waitApprovingPlans(pe, sameMissionDone, 90_000);
    assert.deepEqual(
      ['s1', 's2', 's3', 's4b'].map((id) => status(again, id)?.status),
      ['succeeded', 'succeeded', 'succeeded', 'succeeded'],
    );
    assert.equal(existsSync(join(workspaceRoot(), 'notes/one.txt')), true, "s1's file is back");
    assert.ok(server!.requests.filter((r) => r.rule === 's1').length > s1Before, 's1 ran again');
    assert.equal(server!.requests.filter((r) => r.rule === 's2').length, s2Before, 's2, untouched by the revert, did not');
    assert.deepEqual(
      again.mission?.actions.map((a) => a.kind),
      ['revertMission'],
      'nothing left to run',
    );
  });
});
