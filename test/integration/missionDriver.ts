/**
 * Drives one mission through the sidebar's own message path, approving each plan version when it waits
 * (approval mode "all": edits and commands need no further approval), until the mission ends.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { PlanExecuteApi } from '../../src/vscode/api';
import type { SurfaceState } from '../../src/webview/protocol';

export async function api(): Promise<PlanExecuteApi> {
  const ext = vscode.extensions.getExtension<PlanExecuteApi>('plan-execute.plan-execute');
  assert.ok(ext, 'the extension is not installed in this host');
  return ext.isActive ? ext.exports : ext.activate();
}

export function workspaceRoot(): string {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(root, 'the integration host should open the fixture workspace');
  return root;
}

const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

export async function runMission(pe: PlanExecuteApi, task: string, timeoutMs = 60_000): Promise<NonNullable<SurfaceState['mission']>> {
  const previous = pe.test.sidebarState().mission?.missionId;
  assert.equal(pe.test.postFromWebview({ type: 'runTask', task }), true);
  const isNew = (s: SurfaceState): boolean => s.mission !== null && s.mission.missionId !== previous;
  const deadline = Date.now() + timeoutMs;
  const approved = new Set<number>();
  for (;;) {
    const left = deadline - Date.now();
    assert.ok(left > 0, 'the mission did not end in time');
    const state = await pe.test.waitForState(
      (s) => isNew(s) && ((ENDED.has(s.mission!.phase) && !s.mission!.live) || (s.planAwaitingApproval !== null && !approved.has(s.planAwaitingApproval))),
      left,
    );
    if (state.mission && ENDED.has(state.mission.phase) && !state.mission.live) return state.mission;
    const version = state.planAwaitingApproval!;
    approved.add(version);
    pe.test.postFromWebview({ type: 'approvePlan', version });
  }
}

/** Sets planExecute.* user settings for a test; returns a function that puts them back. */
export async function withSettings(values: Record<string, unknown>): Promise<() => Promise<void>> {
  const c = vscode.workspace.getConfiguration('planExecute');
  const before = Object.fromEntries(Object.keys(values).map((k) => [k, c.inspect(k)?.globalValue]));
  for (const [k, v] of Object.entries(values)) await c.update(k, v, vscode.ConfigurationTarget.Global);
  return async () => {
    for (const [k, v] of Object.entries(before)) await vscode.workspace.getConfiguration('planExecute').update(k, v, vscode.ConfigurationTarget.Global);
  };
}
