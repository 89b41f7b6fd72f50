/**
 * Activation: wiring only. Every registration goes to `context.subscriptions`; the logic lives in the
 * files these lines construct.
 */
import * as vscode from 'vscode';
import type { PlanExecuteApi } from './api';
import type { SidebarState } from '../webview/protocol';
import { VsCodeApprover } from './approvals/vscodeApprover';
import { registerCommands } from './commands';
import { BLOB_SCHEME, BlobContentProvider } from './diff/blobDiff';
import { TeeLog } from './log';
import { windowAdapters } from './mission/adapters';
import { createCoreEngine } from './mission/coreEngine';
import { MissionController } from './mission/missionController';
import { confirmAndRevert, confirmModal, sidebarHandlers } from './mission/sidebarHandlers';
import { createMissionStore } from './mission/missionStore';
import { lazyStore, missionStoreDir } from './mission/storeFactory';
import { ApiKeyStore } from './secrets';
import { SidebarModel } from './sidebar/sidebarModel';
import { SIDEBAR_VIEW_ID, SidebarProvider } from './sidebar/sidebarProvider';
import { MissionStatusBar } from './statusBar';

export function activate(context: vscode.ExtensionContext): PlanExecuteApi {
  const channel = vscode.window.createOutputChannel('Plan & Execute', { log: true });
  const log = new TeeLog(channel);
  const apiKeys = new ApiKeyStore(context.secrets);
  const store = lazyStore(() => createMissionStore(missionStoreDir(context)));
  const trusted = (): boolean => vscode.workspace.isTrusted;
  const approveMode = (): 'ask' | 'plan' | 'all' => vscode.workspace.getConfiguration('planExecute').get<'ask' | 'plan' | 'all'>('approvalMode', 'ask');
  const approver = new VsCodeApprover(() => model.changed(), trusted, () => approveMode() === 'plan');
  const model: SidebarModel = new SidebarModel({ post: (m): Promise<boolean> => sidebar.post(m) }, () => approver, { trusted, hasApiKey: () => apiKeys.hasKey });
  const engine = createCoreEngine({
    adapters: windowAdapters,
    approveMode,
    consentToRerun: async (ids) => (await vscode.window.showWarningMessage(`Steps ${ids.join(', ')} were running when the mission stopped. Run them again?`, { modal: true }, 'Run again')) === 'Run again',
  });
  const baseURL = (): string | undefined => vscode.workspace.getConfiguration('planExecute').get<string>('baseUrl') || process.env.ANTHROPIC_BASE_URL || undefined;
  const controller = new MissionController({ engine, model, approver, store, apiKeys, log, baseURL });
  const notify = (level: 'info' | 'warning' | 'error', message: string): void => {
    if (sidebar.visible) void sidebar.post({ type: 'didNotify', level, message });
    else void (level === 'error' ? vscode.window.showErrorMessage(message) : vscode.window.showWarningMessage(message));
  };
  const revert = async (stepId: string, dryRun: boolean) => {
    const root = controller.workspaceRoot();
    const s = await store();
    const missionId = controller.mission?.missionId;
    if (!root || !s || !missionId) return { ok: false as const, reason: 'not_ready', message: 'There is no mission to revert in.' };
    return engine.revertStep(missionId, stepId, { store: s, workspaceRoot: root, dryRun });
  };
  const confirmations: { answer: boolean | undefined; last: string | undefined } = { answer: undefined, last: undefined };
  const confirm = (message: string, action: string): Promise<boolean> => {
    confirmations.last = message;
    return confirmations.answer === undefined ? confirmModal(message, action) : Promise.resolve(confirmations.answer);
  };
  const handlers = sidebarHandlers({
    controller,
    approver,
    model,
    notify,
    trusted,
    command: (id) => vscode.commands.executeCommand(id),
    revertStep: (stepId) => confirmAndRevert(controller, revert, stepId, confirm),
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
    ...registerCommands({ controller, model, sidebar, apiKeys, store }),
  );
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
      setApiKey: (key) => apiKeys.set(key),
      answerConfirmations: (answer) => {
        confirmations.answer = answer;
      },
      lastConfirmation: () => confirmations.last,
      waitForState: (predicate, timeoutMs) => waitForState(model, predicate, timeoutMs),
    },
  };
}

/** Test helper: the first state (now or after a change) that satisfies `predicate`. */
function waitForState(model: SidebarModel, predicate: (s: SidebarState) => boolean, timeoutMs: number): Promise<SidebarState> {
  return new Promise((resolve, reject) => {
    let done = false;
    const check = (state: SidebarState): void => {
      if (done || !predicate(state)) return;
      done = true;
      clearTimeout(timer);
      unsubscribe?.();
      resolve(state);
    };
    const timer = setTimeout(() => {
      done = true;
      unsubscribe?.();
      reject(new Error(`the sidebar state did not reach the expected condition in ${timeoutMs} ms; last: ${JSON.stringify(model.peek()).slice(0, 2000)}`));
    }, timeoutMs);
    const unsubscribe: (() => void) | undefined = model.onDidChange(check);
    check(model.peek());
  });
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
