/**
 * The plan document in a real VS Code: Open Plan as Document shows the waiting plan (with its estimate);
 * saving an edit makes the next version ("edited by you"), which the approval follows; a broken save puts
 * each problem in the Problems panel at its line and changes nothing; Save Plan writes the document; Run
 * Saved Plan opens it as a mission waiting for approval without asking the planner, and the edited
 * instruction is what the executor gets.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SurfaceState } from '../../src/webview/protocol';
import { readPlanDocument } from '../../src/core/plan/document/read';
import { startMessagesServer, type MessagesServer } from '../support/messages-server/server';
import type { ScenarioInput } from '../support/messages-server/scenario';
import { createFile, done } from '../support/messages-server/toolUses';
import { wirePlan, wireStep } from '../support/fixtures';
import { api, withSettings, workspaceRoot } from './missionDriver';

const PLAN = wirePlan(
  [
    wireStep('s1', {
      title: 'Write the notes',
      instructions: 'Create notes/one.txt.',
      authority: { read: ['**'], edit: ['notes/**'], commands: [], network: false, mcp: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['notes/one.txt'] }], description: '' },
    }),
    wireStep('s2', {
      title: 'Write more notes',
      dependsOn: ['s1'],
      instructions: 'Create notes/two.txt.',
      authority: { read: ['**'], edit: ['notes/**'], commands: [], network: false, mcp: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['notes/two.txt'] }], description: '' },
    }),
    wireStep('s3', {
      title: 'Write the optional extra',
      required: false,
      dependsOn: ['s1'],
      instructions: 'Create notes/three.txt.',
      authority: { read: ['**'], edit: ['notes/three.txt'], commands: [], network: false, mcp: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['notes/three.txt'] }], description: '' },
    }),
  ],
  { goal: 'Write the notes' },
);

const scenario: ScenarioInput = {
  name: 'plan document',
  rules: [
    { name: 'plan', match: { role: 'planner' }, turns: [{ structured: PLAN }] },
    ...(['one', 'two', 'three'] as const).map((n, i) => ({
      name: `s${i + 1}`,
      match: { role: 'executor' as const, firstUserIncludes: `# Step s${i + 1}:` },
      turns: [{ toolUse: [createFile(`t${i}`, `notes/${n}.txt`, `${n}\n`)] }, done(`wrote notes/${n}.txt`)],
    })),
  ],
};

const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

/** The open editor document of the current mission's plan. */
function planEditorDocument(): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'plan-execute-plan');
}

async function replaceInDocument(doc: vscode.TextDocument, from: string, to: string): Promise<void> {
  const text = doc.getText();
  const at = text.indexOf(from);
  assert.ok(at >= 0, `the document holds ${JSON.stringify(from)}`);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + from.length)), to);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

async function until<T>(probe: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    assert.ok(Date.now() < deadline, 'timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('plan documents in VS Code', () => {
  let server: MessagesServer | undefined;
  let restoreSettings: (() => Promise<void>) | undefined;
  const saved = (): string => join(workspaceRoot(), 'plan-saved.md');
  before(async () => {
    // Every plan version waits for the user whatever the mode; "all" leaves the steps' writes unasked.
    restoreSettings = await withSettings({ approvalMode: 'all' });
  });
  after(async () => {
    await restoreSettings?.();
    await server?.close();
    delete process.env.ANTHROPIC_BASE_URL;
    rmSync(saved(), { force: true });
    rmSync(join(workspaceRoot(), 'notes'), { recursive: true, force: true });
  });

  it('opens the waiting plan as a document; a saved edit becomes the next version; a broken save lands in Problems', async function () {
    this.timeout(120_000);
    const pe = await api();
    server = await startMessagesServer({ scenario });
    process.env.ANTHROPIC_BASE_URL = server.url;
    await pe.test.setApiKey('sk-ant-plan-doc-test');
    assert.equal(pe.test.postFromWebview({ type: 'runTask', task: 'Write the notes' }), true);
    const waiting = await pe.test.waitForState((s) => s.planAwaitingApproval === 1, 30_000);
    const estimate = waiting.mission?.costEstimate;
    assert.match(estimate?.total ?? '', /^[\d,]+ tokens, \$\d+\.\d{4} for 3 steps$/, 'the estimate waits beside Approve');
    assert.match(estimate?.steps.s1 ?? '', /on claude-haiku-5-5$/);

    await vscode.commands.executeCommand('planExecute.openPlanDocument');
    const doc = await until(planEditorDocument, 10_000);
    assert.match(doc.getText(), /^## s1 · Write the notes$/m);
    assert.match(doc.getText(), /^- estimate: [\d,]+ tokens, \$\d+\.\d{4} on `claude-haiku-5-5`$/m);

    const files = vscode.workspace.getConfiguration('files');
    const autoSave = files.inspect('autoSave')?.globalValue;
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    try {
      await replaceInDocument(doc, 'Create notes/one.txt.', 'EDITED IN THE DOCUMENT: create notes/one.txt.');
      assert.equal(await doc.save(), true, 'a valid document saves');
      const v2 = await pe.test.waitForState((s: SurfaceState) => s.planAwaitingApproval === 2, 15_000);
      const last = v2.mission?.versions.at(-1);
      assert.equal(last?.author, 'user');
      assert.equal(last?.reason, 'edited by you');
      assert.deepEqual(last?.diff?.changed, [{ stepId: 's1', fields: ['instructions'] }]);
      assert.equal(v2.mission?.steps.find((s) => s.id === 's1')?.instructions, 'EDITED IN THE DOCUMENT: create notes/one.txt.');
      await until(() => (/^version: 2$/m.test(doc.getText()) && /^reason: edited by you$/m.test(doc.getText()) ? true : undefined), 15_000);

      // A broken save changes nothing: its problem is in Problems at its line, and the text stays as typed.
      await replaceInDocument(doc, '- after: s1\n', '- after: s9\n');
      await doc.save();
      const line = doc.getText().split('\n').indexOf('- after: s9');
      await until(() => (vscode.languages.getDiagnostics(doc.uri).length > 0 ? true : undefined), 10_000);
      const problems = vscode.languages.getDiagnostics(doc.uri);
      assert.ok(
        problems.some((p) => p.range.start.line === line && /depends on "s9", which is not a step/.test(p.message)),
        JSON.stringify(problems.map((p) => [p.range.start.line, p.message])),
      );
      assert.equal(pe.test.sidebarState().mission?.planVersion, 2, 'nothing changed');
      assert.ok(doc.getText().includes('- after: s9'), 'the text is kept as typed');
      // Fixed again: it reads, nothing changed, the problem is gone.
      await replaceInDocument(doc, '- after: s9\n', '- after: s1\n');
      await doc.save();
      await until(() => (vscode.languages.getDiagnostics(doc.uri).length === 0 ? true : undefined), 10_000);
      assert.equal(pe.test.sidebarState().mission?.planVersion, 2);
    } finally {
      await files.update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
    }

    // With auto save on, an edit becomes a version once the editor saves it by itself.
    await files.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    try {
      await replaceInDocument(doc, 'EDITED IN THE DOCUMENT: create notes/one.txt.', 'EDITED TWICE: create notes/one.txt.');
      const v3 = await pe.test.waitForState((s: SurfaceState) => s.planAwaitingApproval === 3, 30_000);
      assert.equal(v3.mission?.steps.find((s) => s.id === 's1')?.instructions, 'EDITED TWICE: create notes/one.txt.');
    } finally {
      await files.update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('saves the plan as a document, and runs a saved document as a mission waiting for approval, without the planner', async function () {
    this.timeout(180_000);
    const pe = await api();
    assert.ok(server);
    await vscode.commands.executeCommand('planExecute.savePlan', vscode.Uri.file(saved()));
    const text = readFileSync(saved(), 'utf8');
    const read = readPlanDocument(text);
    assert.ok(read.ok, JSON.stringify(!read.ok && read.error));
    assert.equal(read.value.plan.steps[0]?.instructions, 'EDITED TWICE: create notes/one.txt.');
    pe.test.answerConfirmations(true);
    pe.test.postFromWebview({ type: 'cancelMission' });
    await pe.test.waitForState((s) => ENDED.has(s.mission?.phase ?? '') && !s.mission?.live, 30_000);
    pe.test.answerConfirmations(undefined);

    // A broken copy: its problem in Problems at its line, and no mission, no model call.
    const broken = join(workspaceRoot(), 'plan-broken.md');
    const brokenLines = text.replace('## s3 · ', '## s2 · ').split('\n');
    writeFileSync(broken, brokenLines.join('\n'));
    const first = brokenLines.findIndex((l) => l.startsWith('## s2 · '));
    const line = brokenLines.findIndex((l, i) => i > first && l.startsWith('## s2 · '));
    const requests = server.requests.length;
    const before = pe.test.sidebarState().mission?.missionId;
    await vscode.commands.executeCommand('planExecute.runSavedPlan', vscode.Uri.file(broken));
    const problems = vscode.languages.getDiagnostics(vscode.Uri.file(broken));
    assert.ok(
      problems.some((p) => p.range.start.line === line && /duplicate step id "s2"/.test(p.message)),
      JSON.stringify(problems.map((p) => [p.range.start.line, p.message])),
    );
    assert.equal(pe.test.sidebarState().mission?.missionId, before);
    assert.equal(server.requests.length, requests);
    rmSync(broken, { force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    await vscode.commands.executeCommand('planExecute.runSavedPlan', vscode.Uri.file(saved()));
    const opened = await pe.test.waitForState((s) => s.mission?.missionId !== before && s.planAwaitingApproval === 1, 30_000);
    assert.match(opened.mission?.versions[0]?.reason ?? '', /^from the plan document plan-saved\.md/);
    assert.equal(server.requests.filter((r) => r.role === 'planner').length, 1, 'the planner was asked once, for the first mission only');
    pe.test.postFromWebview({ type: 'approvePlan', version: 1 });
    const finished = await pe.test.waitForState((s) => ENDED.has(s.mission?.phase ?? '') && !s.mission?.live, 90_000);
    assert.equal(finished.mission?.phase, 'succeeded', finished.mission?.summary ?? '');
    const s1 = server.requests.find((r) => r.role === 'executor' && JSON.stringify(r.body).includes('EDITED TWICE'));
    assert.ok(s1, "the edited instruction reached s1's executor");
    assert.ok(existsSync(join(workspaceRoot(), 'notes', 'one.txt')));
    assert.match((finished.mission?.costReport ?? [])[0] ?? '', /^Estimate → actual/);
  });
});
