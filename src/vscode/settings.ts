/** The extension's settings, read when used (so a change applies to the next mission without a reload). */
import * as vscode from 'vscode';
import type { ApproveMode } from '../core/mission/options';
import { SandboxModeSchema, type SandboxMode } from '../core/contracts/sandbox';
import { defaultSandboxMode } from '../core/policy/sandboxSpec';

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

/** The Messages API base URL: the setting, else the SDK's ANTHROPIC_BASE_URL, else the public API. */
export function baseURL(): string | undefined {
  return section().get<string>('baseUrl') || process.env.ANTHROPIC_BASE_URL || undefined;
}

export function isTrusted(): boolean {
  return vscode.workspace.isTrusted;
}
