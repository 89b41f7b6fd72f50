/**
 * The palette commands. Each is a thin call into the controller or the sidebar; user-facing failures are
 * shown as messages, never thrown.
 */
import * as vscode from 'vscode';
import type { Store } from '../core/ports';
import type { KeyedProvider, ProviderKeys } from './models/providerKeys';
import type { MissionController } from './mission/missionController';
import type { SidebarModel } from './sidebar/sidebarModel';
import type { SidebarProvider } from './sidebar/sidebarProvider';
import { SIDEBAR_VIEW_ID } from './sidebar/sidebarProvider';
import type { Outcome } from './mission/engineBridge';

export interface CommandDeps {
  controller: MissionController;
  model: SidebarModel;
  sidebar: SidebarProvider;
  apiKeys: ProviderKeys;
  store(): Promise<Store | undefined>;
}

function show(outcome: Outcome): void {
  if (!outcome.ok) void vscode.window.showWarningMessage(outcome.message);
}

/** The active editor's selection as context for the task, with where it came from. */
export function selectionContext(editor: vscode.TextEditor | undefined): string | null {
  if (!editor || editor.selection.isEmpty) return null;
  const text = editor.document.getText(editor.selection);
  if (!text.trim()) return null;
  const file = vscode.workspace.asRelativePath(editor.document.uri);
  const from = editor.selection.start.line + 1;
  const to = editor.selection.end.line + 1;
  return `\n\nContext (${file}, lines ${from}-${to}):\n\`\`\`\n${text}\n\`\`\`\n`;
}

export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('planExecute.run', async () => {
      const context = selectionContext(vscode.window.activeTextEditor);
      if (context) d.model.taskPrefill = context;
      await vscode.commands.executeCommand(`${SIDEBAR_VIEW_ID}.focus`);
      // The view may stay hidden (e.g. a panel layout without it); never hang the command on it.
      const ready = await Promise.race([d.sidebar.whenReady().then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 10_000))]);
      if (!ready) return;
      d.model.flush();
      await d.sidebar.post({ type: 'didRequestTaskFocus' });
    }),
    vscode.commands.registerCommand('planExecute.setApiKey', (provider?: KeyedProvider) => d.apiKeys.prompt(provider === 'anthropic' || provider === 'openai' ? provider : undefined)),
    vscode.commands.registerCommand('planExecute.chooseModel', async () => {
      const { chooseModel } = await import('./models/modelPicker');
      await chooseModel(d.apiKeys);
    }),
    vscode.commands.registerCommand('planExecute.cancel', () => show(d.controller.cancel())),
    vscode.commands.registerCommand('planExecute.resume', async () => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage('This workspace is not trusted: Plan & Execute can plan here but will not execute.');
        return;
      }
      show(await d.controller.resume());
    }),
    vscode.commands.registerCommand('planExecute.exportTrace', async (target?: vscode.Uri) => {
      const mission = d.controller.mission;
      const store = await d.store();
      if (!mission || !store) {
        void vscode.window.showWarningMessage('There is no mission trace to export.');
        return;
      }
      const uri =
        target ??
        (await vscode.window.showSaveDialog({
          title: 'Export mission trace',
          defaultUri: vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file('/'), `plan-execute-${mission.missionId}.jsonl`),
          filters: { 'JSON Lines': ['jsonl'] },
        }));
      if (!uri) return;
      const events = await d.controller.readTrace(store, mission.missionId);
      const text = events.map((e) => JSON.stringify(e)).join('\n') + '\n';
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
      void vscode.window.showInformationMessage(`Exported ${events.length} trace events to ${vscode.workspace.asRelativePath(uri)}.`);
    }),
  ];
}
