/**
 * The VS Code experience inside a real extension host: the sidebar's inbound checks, a whole mission
 * driven through the sidebar's own message path (the messages server plays the model), the API key's
 * absence from trace and log, and the mission coming back from the store after a reload.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SurfaceState } from '../../src/webview/protocol';
import { startMessagesServer, type MessagesServer } from '../support/messages-server/server';
import { api, workspaceRoot } from './missionDriver';
import { FAREWELL_JS, XSS_TITLE, uiScenario } from './uiScenario';

const API_KEY = 'sk-ant-uitest-9f8e7d6c5b4a-DO-NOT-LOG';

const phaseIs = (phase: string) => (s: SurfaceState) => s.mission?.phase === phase;

describe('ui: the sidebar and the mission in a real VS Code', () => {
  let server: MessagesServer | undefined;
  let missionId = '';

  after(async () => {
    await server?.close();
    delete process.env.ANTHROPIC_BASE_URL;
  });

  it('drops forged webview messages and logs them', async () => {
    const pe = await api();
    const before = pe.test.droppedMessages;
    assert.equal(pe.test.postFromWebview({ type: 'approveAction' }), false, 'a command without its requestId must not parse');
    assert.equal(pe.test.postFromWebview({ type: 'runShell', command: 'rm -rf /' }), false, 'an unknown message type must not parse');
    assert.equal(pe.test.postFromWebview({ type: 'runTask', task: { toString: 'x' } }), false, 'a task that is not a string must not parse');
    assert.equal(pe.test.postFromWebview('ready'), false, 'a bare string is not a message');
    assert.equal(pe.test.droppedMessages, before + 4);
    assert.match(pe.test.recentLog(), /dropped an invalid message/);
    // A well-formed message naming a request that does not exist is handled, and changes nothing.
    assert.equal(pe.test.postFromWebview({ type: 'approveAction', requestId: 'forged-request' }), true);
    assert.deepEqual(pe.test.sidebarState().approvals, []);
  });

  it("opens the mission board, whose inbound messages pass the same checks as the sidebar's", async function () {
    this.timeout(60_000);
    const pe = await api();
    await vscode.commands.executeCommand('planExecute.openBoard');
    await pe.whenBoardReady();
    assert.ok(pe.boardReadyCount >= 1, 'the board answered the ready handshake');
    const before = pe.test.droppedMessages;
    assert.equal(pe.test.postFromWebview({ type: 'approveStep' }, 'board'), false, 'approveStep without a step does not parse');
    assert.equal(pe.test.postFromWebview({ type: 'openBoard', stepId: 42 }, 'board'), false, 'a step id that is not a string does not parse');
    assert.equal(pe.test.postFromWebview({ type: 'saveTaskDraft', text: 'x'.repeat(20_001) }, 'board'), false, 'an oversized draft does not parse');
    assert.equal(pe.test.droppedMessages, before + 3);
    assert.match(pe.test.recentLog(), /board: dropped an invalid message/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('prefills the task with the editor selection as context when run from the palette', async function () {
    this.timeout(60_000);
    const pe = await api();
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(workspaceRoot(), 'src/greet.js')));
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(0, 0, 2, 0);
    await vscode.commands.executeCommand('planExecute.run');
    const prefill = pe.test.sidebarState().taskPrefill ?? '';
    assert.match(prefill, /Context \(src\/greet\.js, lines 1-3\)/);
    assert.ok(prefill.includes(doc.getText(editor.selection)), 'the selected text is in the task box');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('runs a mission through the sidebar: plan, approve, review and approve the edit, skip the command, replan, finish', async function () {
    this.timeout(120_000);
    const pe = await api();
    server = await startMessagesServer({ scenario: uiScenario(XSS_TITLE) });
    process.env.ANTHROPIC_BASE_URL = server.url;
    await pe.test.setApiKey(API_KEY);
    await vscode.workspace.getConfiguration('planExecute').update('approvalMode', 'ask', vscode.ConfigurationTarget.Global);

    assert.equal(pe.test.postFromWebview({ type: 'runTask', task: 'Add a farewell module' }), true);
    const planned = await pe.test.waitForState(phaseIs('awaiting_approval'), 30_000);
    missionId = planned.mission?.missionId ?? '';
    const s1 = planned.mission?.steps.find((s) => s.id === 's1');
    assert.equal(s1?.title, XSS_TITLE, 'the hostile title reaches the webview verbatim, as data (the webview renders it with textContent)');
    assert.deepEqual(
      planned.mission?.steps.map((s) => s.status),
      ['pending', 'pending', 'pending'],
      'nothing runs before approval',
    );

    // An edit makes a new version, and the approval follows it.
    pe.test.postFromWebview({ type: 'editStep', stepId: 's2', instructions: 'Run node src/farewell.js once.' });
    const edited = await pe.test.waitForState((s) => s.mission?.planVersion === 2 && s.planAwaitingApproval === 2, 15_000);
    assert.equal(edited.mission?.versions.at(-1)?.author, 'user');
    assert.equal(edited.mission?.steps.find((s) => s.id === 's2')?.instructions, 'Run node src/farewell.js once.');

    pe.test.postFromWebview({ type: 'approvePlan', version: 2 });
    const write = await pe.test.waitForState((s) => s.approvals.some((a) => a.kind === 'write'), 30_000);
    const card = write.approvals.find((a) => a.kind === 'write');
    assert.ok(card && card.kind === 'write');
    assert.equal(card.path, 'src/farewell.js');
    assert.equal(card.stepTitle, XSS_TITLE, 'the card names its step');
    assert.equal(card.verification, false);
    assert.equal(existsSync(join(workspaceRoot(), 'src/farewell.js')), false, 'no write before approval');
    // Waiting is visible outside the webviews: the status bar in the warning colour (and the view's badge once the view exists).
    const bar = pe.test.statusBarItem();
    assert.equal(bar.text.includes('1 waiting'), true, `status bar: ${bar.text}`);
    assert.equal(bar.warning, true, 'the status bar item wears the warning colour');

    // "Review diff" opens VS Code's diff editor on the proposed content, served from the mission store.
    pe.test.postFromWebview({ type: 'openDiff', target: { kind: 'approval', requestId: card.requestId }, focus: false });
    const proposed = await waitFor(
      () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'plan-execute-blob' && d.getText() === FAREWELL_JS),
      15_000,
    );
    assert.ok(proposed, 'the proposed content is open in an editor');

    pe.test.postFromWebview({ type: 'approveAction', requestId: card.requestId });
    const command = await pe.test.waitForState((s) => s.approvals.some((a) => a.kind === 'command'), 30_000);
    const cmd = command.approvals.find((a) => a.kind === 'command');
    assert.ok(cmd && cmd.kind === 'command');
    assert.equal(cmd.command, 'node src/farewell.js');
    assert.equal(cmd.cwd, workspaceRoot(), 'the command card shows the directory it really runs in');
    assert.equal(readFileSync(join(workspaceRoot(), 'src/farewell.js'), 'utf8'), FAREWELL_JS);

    pe.test.postFromWebview({ type: 'rejectAction', requestId: cmd.requestId, reason: 'do not run it; just check the file' });
    // The replan is shown as a new version, and (approval mode "ask") waits for the user like the first plan.
    const replanned = await pe.test.waitForState((s) => s.planAwaitingApproval === 3, 60_000);
    const v3 = replanned.mission?.versions.at(-1);
    assert.equal(v3?.author, 'replanner');
    assert.deepEqual(v3?.diff?.added, ['s2b']);
    assert.deepEqual(v3?.diff?.removed, ['s2']);
    assert.equal(replanned.mission?.steps.find((s) => s.id === 's2')?.status, 'replaced', 'the replaced step stays visible, marked');
    pe.test.postFromWebview({ type: 'approvePlan', version: 3 });
    const done = await pe.test.waitForState((s) => ['succeeded', 'failed', 'cancelled'].includes(s.mission?.phase ?? ''), 60_000);
    const m = done.mission;
    assert.equal(m?.phase, 'succeeded', `mission ended ${m?.phase}: ${m?.summary}`);
    const replans = m?.versions.filter((v) => v.author === 'replanner') ?? [];
    assert.equal(replans.length, 1, 'one replan after the skipped command');
    assert.deepEqual(replans[0]?.diff?.added, ['s2b']);
    assert.equal(m?.steps.find((s) => s.id === 's1')?.files[0]?.path, 'src/farewell.js', 's1 lists the file it changed');
    assert.equal(m?.steps.find((s) => s.id === 's2b')?.status, 'succeeded');
    assert.ok(
      server.requests.length > 0 && server.requests.every((r) => (r.headers['x-api-key'] ?? r.headers.authorization) === '<redacted>'),
      `every model call carried the key (header names: ${Object.keys(server.requests[0]?.headers ?? {}).join(', ')})`,
    );
  });

  it('never writes the API key into the trace or the log', async () => {
    const pe = await api();
    assert.ok(missionId, 'needs the mission of the previous test');
    const store = await pe.test.missionStore();
    assert.ok(store);
    const trace = JSON.stringify(await store.readEvents(missionId));
    assert.ok(trace.length > 1000, 'the trace has content');
    assert.ok(!trace.includes(API_KEY), 'the API key is in the trace');
    assert.ok(!pe.test.recentLog().includes(API_KEY), 'the API key is in the log');
    const settings = vscode.workspace.getConfiguration('planExecute');
    assert.ok(!JSON.stringify(settings).includes(API_KEY), 'the API key is in the settings');
  });

  it('exports the trace as JSON Lines, one event per line', async () => {
    const pe = await api();
    const store = await pe.test.missionStore();
    assert.ok(store && missionId);
    const target = vscode.Uri.file(join(workspaceRoot(), 'mission-trace.jsonl'));
    await vscode.commands.executeCommand('planExecute.exportTrace', target);
    const lines = readFileSync(target.fsPath, 'utf8').trim().split('\n');
    assert.equal(lines.length, (await store.readEvents(missionId)).length);
    assert.equal((JSON.parse(lines[0] ?? '{}') as { type?: string }).type, 'mission_started');
  });

  it('reverts a finished step to its checkpoint after confirming', async () => {
    const pe = await api();
    const file = join(workspaceRoot(), 'src/farewell.js');
    assert.ok(existsSync(file), 's1 created the file');
    pe.test.answerConfirmations(true);
    try {
      assert.equal(pe.test.postFromWebview({ type: 'revertStep', stepId: 's1' }), true);
      await waitFor(() => (existsSync(file) ? undefined : true), 15_000);
      assert.equal(existsSync(file), false, 'the file s1 created is gone again');
      assert.match(pe.test.lastConfirmation() ?? '', /Revert step s1\? This deletes src\/farewell\.js\./);
      // The state says so: s1 reads reverted, and the summary no longer claims its verified work.
      // s3 checked what s1 made: it is set back to pending ("needs a re-run") in the same revert.
      const statusOf = (s: SurfaceState, id: string) => s.mission?.steps.find((x) => x.id === id)?.status;
      const after = await pe.test.waitForState((s) => statusOf(s, 's1') === 'reverted' && statusOf(s, 's3') === 'pending', 15_000);
      assert.doesNotMatch(after.mission?.summary ?? '', /all required steps verified/);
      assert.match(after.mission?.summary ?? '', /every change of this mission was reverted \(s1\)/, 's1 was the only step that changed files');
      assert.match(pe.test.recentLog(), /reverted s1: deleted src\/farewell\.js/);
      // Reverting twice is impossible: the host refuses and nothing is recorded.
      const store = await pe.test.missionStore();
      const count = (await store!.readEvents(missionId)).length;
      assert.equal(pe.test.postFromWebview({ type: 'revertStep', stepId: 's1' }), true);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal((await store!.readEvents(missionId)).length, count);
    } finally {
      pe.test.answerConfirmations(undefined);
    }
  });

  it('restores the mission from the store after a reload, marking an interrupted step and offering resume', async () => {
    const pe = await api();
    const store = await pe.test.missionStore();
    assert.ok(store && missionId);
    // The finished mission comes back as it ended.
    assert.equal(await pe.test.restoreFromStore(), true);
    const restored = pe.test.sidebarState().mission;
    assert.equal(restored?.missionId, missionId);
    assert.equal(restored?.phase, 'succeeded');
    assert.equal(restored?.live, false);

    // A mission cut off while s1 ran (its trace up to that point, as after a crash or window reload).
    const events = (await store.readEvents(missionId)) as { type: string; stepId?: string; status?: string; missionId: string; at: string }[];
    const cut = events.findIndex((e) => e.type === 'step_status' && e.stepId === 's1' && e.status === 'running');
    assert.ok(cut > 0);
    const interruptedId = `${missionId}-cut`;
    const now = new Date().toISOString();
    for (const e of events.slice(0, cut + 1)) await store.appendEvent(interruptedId, { ...e, missionId: interruptedId, at: now } as never);
    assert.equal(await pe.test.restoreFromStore(), true);
    const view = pe.test.sidebarState().mission;
    assert.equal(view?.missionId, interruptedId);
    assert.equal(view?.phase, 'interrupted');
    assert.equal(view?.steps.find((s) => s.id === 's1')?.status, 'interrupted');
    assert.equal(view?.live, false, 'resume is offered (the webview shows Resume for a non-live, interrupted mission)');
  });
});

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}
