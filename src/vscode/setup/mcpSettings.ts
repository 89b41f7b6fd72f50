/**
 * MCP servers the user configured in VS Code's settings (`mcp.servers`, VS Code's own setting). Only values
 * the user set count: the setting's default holds an example server. A value from the user's settings is
 * the user's own (it may read the whole environment); one from the workspace's `.vscode/settings.json` (or
 * a `.code-workspace` file) is repository text like `.vscode/mcp.json`. Each is labelled by the file it
 * came from. VS Code also merges `.vscode/mcp.json` into the workspace's value: those servers are read from
 * that file itself (src/node/mcp/userSetup.ts), labelled by it, and left out here.
 *
 * Why not the servers VS Code itself runs: in VS Code 1.100 (code-server 1.100.3, checked in the real host)
 * `vscode.lm.tools` lists no MCP tool — not even after `workbench.mcp.startServer` — so an extension cannot
 * reach them; Plan & Execute reads the same configuration and runs the servers itself, confined.
 */
import * as vscode from 'vscode';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { serversNotInFile, type ConfigSource } from '../../node/mcp/config';

type Servers = Record<string, unknown>;

/** The workspace folder's `.vscode/mcp.json`, if there is one to read. */
function folderMcpJson(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) return undefined;
  try {
    return readFileSync(join(folder, '.vscode', 'mcp.json'), 'utf8');
  } catch {
    // No such file (the usual case): no server to leave out.
    return undefined;
  }
}

export function mcpSettings(): { text: string; source: ConfigSource }[] {
  const inspected = vscode.workspace.getConfiguration('mcp').inspect<Servers>('servers');
  const out: { text: string; source: ConfigSource }[] = [];
  const add = (servers: Servers | undefined, label: string, trusted: boolean): void => {
    if (servers && Object.keys(servers).length > 0) out.push({ text: JSON.stringify({ servers }), source: { label, trusted } });
  };
  add(inspected?.globalValue, 'VS Code user settings (mcp.servers)', true);
  const mcpJson = folderMcpJson();
  const workspaceFile = vscode.workspace.workspaceFile;
  const workspaceLabel = workspaceFile?.scheme === 'file' ? `${basename(workspaceFile.fsPath)} (mcp.servers)` : '.vscode/settings.json (mcp.servers)';
  if (inspected?.workspaceValue) add(serversNotInFile(inspected.workspaceValue, mcpJson), workspaceLabel, false);
  if (inspected?.workspaceFolderValue) add(serversNotInFile(inspected.workspaceFolderValue, mcpJson), '.vscode/settings.json (mcp.servers)', false);
  return out;
}
