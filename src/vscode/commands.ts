/**
 * What each palette command does (the activation side registers the ids in COMMAND_IDS and forwards here).
 * Each is a thin call into the controller or the surfaces; user-facing failures are shown as messages,
 * never thrown.
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import type { Store } from '../core/ports';
import type { ProviderId } from '../core/model/providers';
import type { ModelList } from './models/modelListing';
import type { KeyedProvider, ProviderKeys } from './models/providerKeys';
import type { MissionController } from './mission/missionController';
import type { SurfaceModel } from './surfaces/surfaceModel';
import type { SurfaceHub } from './surfaces/surfaceHub';
import { SIDEBAR_VIEW_ID } from './surfaces/sidebarView';
import type { Outcome } from './mission/engineBridge';
import type { CommandId } from './commandIds';
import type { PlanDocumentCommands } from './plans/planCommands';

export interface CommandDeps {
  controller: MissionController;
  model: SurfaceModel;
  hub: SurfaceHub;
  apiKeys: ProviderKeys;
  /** What a provider offers (loaded with the engine: it needs the model SDKs). */
  listModels(provider: ProviderId): Promise<ModelList>;
  store(): Promise<Store | undefined>;
  /** Opens (or reveals) the mission board, optionally with a step selected. */
  showBoard(stepId?: string): Promise<void>;
  /** Where the last trace export went (the save dialog starts there next time). */
  exportDir: { get(): string | undefined; set(dir: string): Thenable<void> };
  /** True when a scripted demo model answers (npm start -- --demo). */
  demo(): boolean;
  /** Open Plan as Document, Save Plan…, Run Saved Plan… (../plans/planCommands.ts). */
  plans: PlanDocumentCommands;
}

function show(outcome: Outcome): void {
  if (!outcome.ok) void vscode.window.showWarningMessage(outcome.error.message);
}

/** The active editor's selection as context for the task, with where it came from. */
function selectionContext(editor: vscode.TextEditor | undefined): string | null {
  if (!editor || editor.selection.isEmpty) return null;
  const text = editor.document.getText(editor.selection);
  if (!text.trim()) return null;
  const file = vscode.workspace.asRelativePath(editor.document.uri);
  const from = editor.selection.start.line + 1;
  const to = editor.selection.end.line + 1;
  return `\n\nContext (${file}, lines ${from}-${to}):\n\`\`\`\n${text}\n\`\`\`\n`;
}

/** Shows the sidebar and waits (bounded) for its webview: a panel layout may keep it hidden. */
async function focusSidebar(d: CommandDeps): Promise<boolean> {
  await vscode.commands.executeCommand(`${SIDEBAR_VIEW_ID}.focus`);
  return Promise.race([d.hub.whenReady('sidebar').then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 10_000))]);
}

export function commandHandlers(d: CommandDeps): Record<CommandId, (...args: unknown[]) => unknown> {
  return {
    'planExecute.run': async () => {
      const context = selectionContext(vscode.window.activeTextEditor);
      if (context) d.model.taskPrefill = context;
      if (!(await focusSidebar(d))) return;
      d.model.flush();
      d.hub.postTo('sidebar', { type: 'didRequestTaskFocus' });
    },
    'planExecute.setApiKey': async (provider?: unknown) => {
      if (d.demo()) {
        // The demo needs no key and claims no provider's: say so, rather than "Anthropic: key set".
        const anyway = 'Set a Key Anyway';
        const pick = await vscode.window.showInformationMessage(
          'Plan & Execute demo: no API key is needed — a scripted model on this machine answers, and nothing leaves this computer. ' +
            'A key you set is used once you run without --demo.',
          anyway,
        );
        if (pick !== anyway) return;
      }
      await d.apiKeys.prompt(provider === 'anthropic' || provider === 'openai' ? (provider as KeyedProvider) : undefined);
    },
    'planExecute.chooseModel': async () => {
      const { chooseModel } = await import('./models/modelPicker');
      await chooseModel(d.listModels, { demo: d.demo() });
    },
    'planExecute.cancel': async () => show(await d.controller.cancelAsked()),
    'planExecute.resume': async () => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage('This workspace is not trusted: Plan & Execute can plan here but will not execute.');
        return;
      }
      show(await d.controller.resume());
    },
    'planExecute.openBoard': (stepId?: unknown) => d.showBoard(typeof stepId === 'string' ? stepId : undefined),
    'planExecute.focusQueue': async () => {
      // With nothing waiting it says so, and still shows where cards will appear.
      const waiting = d.model.peek().status.waiting;
      if (waiting.count === 0) void vscode.window.showInformationMessage('Plan & Execute: nothing waits for your approval right now.');
      if (!(await focusSidebar(d))) return;
      d.hub.postTo('sidebar', { type: 'didRequestQueueFocus' });
    },
    'planExecute.openPlanDocument': () => d.plans.open(),
    'planExecute.savePlan': (target?: unknown) => d.plans.save(target),
    'planExecute.runSavedPlan': (target?: unknown) => {
      if (!vscode.workspace.isTrusted)
        void vscode.window.showWarningMessage('This workspace is not trusted: the plan opens for review, but it will not execute.');
      return d.plans.runSaved(target);
    },
    'planExecute.exportTrace': async (target?: unknown) => {
      const mission = d.controller.mission;
      const store = await d.store();
      if (!mission || !store) {
        void vscode.window.showWarningMessage('There is no mission trace to export.');
        return;
      }
      // Not the workspace root: a trace is a record of the mission, not a file of the project.
      const dir = d.exportDir.get() ?? homedir();
      const uri =
        target instanceof vscode.Uri
          ? target
          : await vscode.window.showSaveDialog({
              title: 'Export mission trace',
              defaultUri: vscode.Uri.joinPath(vscode.Uri.file(dir), `plan-execute-${mission.missionId}.jsonl`),
              filters: { 'JSON Lines': ['jsonl'] },
            });
      if (!uri) return;
      const events = await d.controller.readTrace(store, mission.missionId);
      const text = events.map((e) => JSON.stringify(e)).join('\n') + '\n';
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
      await d.exportDir.set(vscode.Uri.joinPath(uri, '..').fsPath);
      void vscode.window.showInformationMessage(`Exported ${events.length} trace events to ${uri.fsPath}.`);
    },
  };
}
