/** The extension's settings, read when used (so a change applies to the next mission without a reload). */
import * as vscode from 'vscode';
import type { ApproveMode } from '../core/mission/options';
import { defaultSandboxMode, SandboxModeSchema, type SandboxMode } from '../core/contracts/sandbox';

const section = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('planExecute');

export function approveMode(): ApproveMode {
  const mode = section().get<string>('approvalMode', 'ask');
  return mode === 'plan' || mode === 'all' ? mode : 'ask';
}

/** `planExecute.sandbox`; unset (or not a known value): the platform's default (defaultSandboxMode). */
export function sandboxMode(): SandboxMode {
  const parsed = SandboxModeSchema.safeParse(section().get<unknown>('sandbox'));
  return parsed.success ? parsed.data : defaultSandboxMode(process.platform);
}

export function isTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

/** Whether to announce waiting approvals with a notification when no Plan & Execute surface is in sight. */
export function notifyWhenWaiting(): boolean {
  return section().get<boolean>('notifyWhenWaiting', true);
}

/**
 * True when `npm start -- --demo` started this window: a scripted demo model answers on loopback, and the
 * surfaces say so plainly.
 */
export function isDemo(): boolean {
  return process.env.PLAN_EXECUTE_DEMO === '1';
}
