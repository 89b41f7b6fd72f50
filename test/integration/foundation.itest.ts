import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { PlanExecuteApi } from '../../src/vscode/api';
import { hostSnapshot } from '../support/host/extensionHostSnapshot';

const EXTENSION_ID = 'plan-execute.plan-execute';

function extension(): vscode.Extension<PlanExecuteApi> {
  const found = vscode.extensions.getExtension<PlanExecuteApi>(EXTENSION_ID);
  assert.ok(found, `${EXTENSION_ID} is not loaded in this extension host`);
  return found;
}

/** Activates the extension the way a user does, through its command, and returns its API. */
async function activateThroughCommand(): Promise<PlanExecuteApi> {
  await vscode.commands.executeCommand('planExecute.run');
  const ext = extension();
  assert.equal(ext.isActive, true, 'executing planExecute.run should have activated the extension');
  return ext.exports;
}

interface Manifest {
  activationEvents?: string[];
  capabilities?: {
    untrustedWorkspaces?: { supported?: boolean | string; description?: string };
    virtualWorkspaces?: boolean | { supported?: boolean | string };
  };
  contributes?: { views?: Record<string, { id: string; type?: string }[]> };
}

describe('foundation: the extension inside a real VS Code', () => {
  it('runs in VS Code 1.100.x', () => {
    console.log(`[foundation] ${vscode.env.appName} ${vscode.version}`);
    assert.match(vscode.version, /^1\.100\.\d+$/);
  });

  it('is installed but not active before its command or view is used', () => {
    const snapshot = hostSnapshot();
    assert.equal(snapshot.extensionFound, true, `${EXTENSION_ID} was not found when the runner started`);
    assert.equal(snapshot.extensionActiveAtStart, false, 'the extension was already active before any test used it');
  });

  it('declares only lazy activation events, never *', () => {
    const manifest = extension().packageJSON as Manifest;
    const events = manifest.activationEvents ?? [];
    assert.ok(!events.includes('*'), `activationEvents contains '*': ${events.join(', ')}`);
    assert.ok(!events.includes('onStartupFinished'), 'activationEvents contains onStartupFinished');
    assert.ok(events.includes('onView:planExecute.sidebar'), `activationEvents lacks onView:planExecute.sidebar: ${events.join(', ')}`);
  });

  it('declares limited support for untrusted workspaces and none for virtual ones', () => {
    const capabilities = (extension().packageJSON as Manifest).capabilities;
    assert.equal(capabilities?.untrustedWorkspaces?.supported, 'limited');
    assert.ok((capabilities?.untrustedWorkspaces?.description ?? '').length > 20, 'the limited-trust description should say what is limited');
    assert.equal(capabilities?.virtualWorkspaces, false);
  });

  it('activates when planExecute.run is executed and returns its API', async () => {
    const api = await activateThroughCommand();
    assert.equal(typeof api.whenSidebarReady, 'function');
    assert.equal(typeof api.sidebarReadyCount, 'number');
  });

  it('registers planExecute.run', async () => {
    await activateThroughCommand();
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('planExecute.run'), 'planExecute.run is not among the registered commands');
  });

  it('resolves the sidebar view, whose webview answers the ready handshake', async function () {
    this.timeout(60_000);
    const api = await activateThroughCommand();
    await vscode.commands.executeCommand('workbench.view.extension.planExecute');
    await api.whenSidebarReady();
    assert.ok(api.sidebarReadyCount >= 1, `sidebarReadyCount is ${api.sidebarReadyCount} after the handshake`);
  });
});
