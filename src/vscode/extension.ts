/**
 * Activation: wiring only. Every registration goes to `context.subscriptions`; the logic lives in the
 * files these lines construct.
 */
import * as vscode from 'vscode';
import type { PlanExecuteApi } from './api';
import { SIDEBAR_VIEW_ID, SidebarProvider } from './sidebar/sidebarProvider';

export function activate(context: vscode.ExtensionContext): PlanExecuteApi {
  const log = vscode.window.createOutputChannel('Plan & Execute', { log: true });
  context.subscriptions.push(log);
  let rev = 0;
  const sidebar = new SidebarProvider(context.extensionUri, {
    snapshot: () => ({ rev: ++rev }),
    handlers: {},
    log,
  });
  context.subscriptions.push(
    sidebar,
    vscode.window.registerWebviewViewProvider(SIDEBAR_VIEW_ID, sidebar),
    vscode.commands.registerCommand('planExecute.run', () => vscode.commands.executeCommand(`${SIDEBAR_VIEW_ID}.focus`)),
  );
  return {
    whenSidebarReady: () => sidebar.whenReady(),
    get sidebarReadyCount() {
      return sidebar.sidebarReadyCount;
    },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
