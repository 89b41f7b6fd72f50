/**
 * Drives one mission through the sidebar's own message path, approving each plan version when it waits
 * (approval mode "all": edits and commands need no further approval, but every plan version waits for the
 * user), until the mission ends.
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
  const state = await waitApprovingPlans(pe, (s) => isNew(s) && ENDED.has(s.mission!.phase) && !s.mission!.live, timeoutMs);
  return state.mission!;
}

/**
 * Waits until `done` holds, approving each plan version as the user would when it waits: in VS Code every
 * version — the first and each replanned one — waits for the user, whatever the approval mode.
 */
export async function waitApprovingPlans(pe: PlanExecuteApi, done: (s: SurfaceState) => boolean, timeoutMs = 60_000): Promise<SurfaceState> {
  const deadline = Date.now() + timeoutMs;
  const approved = new Set<string>();
  const key = (s: SurfaceState): string => `${s.mission?.missionId}:${s.planAwaitingApproval}`;
  for (;;) {
    const left = deadline - Date.now();
    assert.ok(left > 0, 'the mission did not get there in time');
    const state = await pe.test.waitForState((s) => done(s) || (s.planAwaitingApproval !== null && !approved.has(key(s))), left);
    if (done(state)) return state;
    approved.add(key(state));
    pe.test.postFromWebview({ type: 'approvePlan', version: state.planAwaitingApproval! });
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
