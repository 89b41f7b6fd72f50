/**
 * MCP servers the user configured in VS Code's settings (`mcp.servers`, VS Code's own setting). Only values
 * the user set count: the setting's default holds an example server. A value from the user's settings is
 * the user's own (it may read the whole environment); one from the workspace's `.vscode/settings.json` is
 * repository text like `.vscode/mcp.json`.
 *
 * Why not the servers VS Code itself runs: in VS Code 1.100 (code-server 1.100.3, checked in the real host)
 * `vscode.lm.tools` lists no MCP tool — not even after `workbench.mcp.startServer` — so an extension cannot
 * reach them; Plan & Execute reads the same configuration and runs the servers itself, confined.
 */
import * as vscode from 'vscode';
import type { ConfigSource } from '../../node/mcp/config';

export function mcpSettings(): { text: string; source: ConfigSource }[] {
  const inspected = vscode.workspace.getConfiguration('mcp').inspect<Record<string, unknown>>('servers');
  const out: { text: string; source: ConfigSource }[] = [];
  if (inspected?.globalValue)
    out.push({ text: JSON.stringify({ servers: inspected.globalValue }), source: { label: 'VS Code user settings (mcp.servers)', trusted: true } });
  if (inspected?.workspaceValue)
    out.push({ text: JSON.stringify({ servers: inspected.workspaceValue }), source: { label: 'workspace settings (mcp.servers)', trusted: false } });
  return out;
}
