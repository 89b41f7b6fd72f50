/**
 * Activation: wiring only. Every registration goes to `context.subscriptions`; the logic lives in the
 * files these lines construct.
 */
import * as vscode from 'vscode';
import type { PlanExecuteApi } from './api';
import { VsCodeApprover } from './approvals/vscodeApprover';
import { registerCommands } from './commands';
import { Confirmations } from './confirmations';
import { BLOB_SCHEME, BlobContentProvider } from './diff/blobDiff';
import { TeeLog } from './log';
import { lazyEngine } from './mission/engineBridge';
import { MissionController } from './mission/missionController';
import { createMissionStore } from './mission/missionStore';
import { confirmAndRevert, sidebarHandlers } from './mission/sidebarHandlers';
import { lazyStore, missionStoreDir } from './mission/storeFactory';
import { ProviderKeys } from './models/providerKeys';
import { approveMode, isTrusted } from './settings';
import { SidebarModel } from './sidebar/sidebarModel';
import { SIDEBAR_VIEW_ID, SidebarProvider } from './sidebar/sidebarProvider';
import { MissionStatusBar } from './statusBar';

export function activate(context: vscode.ExtensionContext): PlanExecuteApi {
  const channel = vscode.window.createOutputChannel('Plan & Execute', { log: true });
  const log = new TeeLog(channel);
  const apiKeys = new ProviderKeys(context.secrets);
  const store = lazyStore(() => createMissionStore(missionStoreDir(context)));
  const confirmations = new Confirmations();
  const approver = new VsCodeApprover(() => model.changed(), isTrusted, () => approveMode() === 'plan');
  const model: SidebarModel = new SidebarModel({ post: (m): Promise<boolean> => sidebar.post(m) }, () => approver, { trusted: isTrusted, hasApiKey: () => apiKeys.ready });
  const engine = lazyEngine(async () => {
    const [{ createCoreEngine }, { windowAdapters }] = await Promise.all([import('./mission/coreEngine'), import('./mission/adapters')]);
    return createCoreEngine({
      adapters: windowAdapters,
      approveMode,
      consentToRerun: (ids) => confirmations.ask(`Steps ${ids.join(', ')} were running when the mission stopped. Run them again?`, 'Run again'),
    });
  });
  const controller = new MissionController({ engine, model, approver, store, log, modelSetup: () => apiKeys.setup(), redact: (t) => apiKeys.redact(t) });
  const handlers = sidebarHandlers({
    controller,
    approver,
    model,
    notify: (level, message) => sidebar.notify(level, message),
    trusted: isTrusted,
    command: (id) => vscode.commands.executeCommand(id),
    revertStep: (stepId) => confirmAndRevert(controller, stepId, (m, a) => confirmations.ask(m, a)),
  });
  const sidebar: SidebarProvider = new SidebarProvider(context.extensionUri, { snapshot: () => model.snapshot(), handlers, log });
  const statusBar = new MissionStatusBar();
  model.onDidChange((state) => statusBar.update(state.mission, state.busy?.label ?? null));

  context.subscriptions.push(
    channel,
    apiKeys,
    sidebar,
    statusBar,
    controller,
    { dispose: () => model.dispose() },
    vscode.window.registerWebviewViewProvider(SIDEBAR_VIEW_ID, sidebar),
    vscode.workspace.registerTextDocumentContentProvider(BLOB_SCHEME, new BlobContentProvider(store)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => model.changed()),
    apiKeys.onDidChange(() => model.changed()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('planExecute')) model.changed();
    }),
    ...registerCommands({ controller, model, sidebar, apiKeys, store }),
  );
  // After a window reload the sidebar shows the last mission from the store.
  void apiKeys.load().then(() => controller.restoreLatest()).then(() => model.changed());

  return {
    whenSidebarReady: () => sidebar.whenReady(),
    get sidebarReadyCount() {
      return sidebar.sidebarReadyCount;
    },
    test: {
      postFromWebview: (message) => sidebar.receive(message),
      get droppedMessages() {
        return sidebar.droppedMessages;
      },
      sidebarState: () => model.peek(),
      lastPostedState: () => sidebar.lastPostedState,
      missionStore: store,
      restoreFromStore: async () => {
        model.mission = null;
        const restored = await controller.restoreLatest();
        model.flush();
        return restored;
      },
      recentLog: () => log.recent(),
      setApiKey: (key, provider) => (provider === 'openai' ? apiKeys.openai : apiKeys.anthropic).set(key),
      listModels: async (provider) => {
        const { listModels } = await import('./models/modelPicker');
        return listModels(provider, apiKeys);
      },
      answerConfirmations: (answer) => {
        confirmations.answer = answer;
      },
      lastConfirmation: () => confirmations.last,
      waitForState: (predicate, timeoutMs) => model.waitFor(predicate, timeoutMs),
    },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
