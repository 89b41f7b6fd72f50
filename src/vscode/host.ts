/**
 * Everything the extension does beyond activation, built on first use (bundled to dist/host.js and loaded
 * by extension.ts when a surface, a command or the restore after a reload first needs it): the surfaces'
 * model and protocol, the approver, the mission controller, the status bar and the waiting indicators.
 * The mission engine (core + model SDK) is one more step away, in dist/engine.js, loaded on the first mission.
 * Wiring only: the logic lives in the files constructed here.
 *
 * Construction order is explicit: each part is built from parts declared above it, and no closure here
 * reaches a part declared below it. The few edges that point back up (a part that must reach one built after
 * it) go through `HostRelay`, connected once every part exists (./hostRelay.ts).
 */
import * as vscode from 'vscode';
import { join } from 'node:path';
import type { PlanExecuteApi } from './api';
import { VsCodeApprover } from './approvals/vscodeApprover';
import { commandHandlers } from './commands';
import type { CommandId } from './commandIds';
import { Confirmations } from './confirmations';
import { BlobContentProvider, closeBlobDiff } from './diff/blobDiff';
import { TeeLog } from './log';
import { lazyEngine, type MissionEngine } from './mission/engineBridge';
import { MissionController } from './mission/missionController';
import { fileOwnerStore } from './mission/missionOwner';
import { createMissionStore } from './mission/missionStore';
import { surfaceHandlers } from './mission/surfaceHandlers';
import { confirmAndRevert } from './mission/revertFlow';
import { readLimits } from './limits';
import { lazyStore, missionStoreDir } from './mission/storeFactory';
import type { ProviderId } from '../core/model/providers';
import type { ModelList } from './models/modelListing';
import { ProviderKeys } from './models/providerKeys';
import { approveMode, isDemo, isTrusted, notifyWhenWaiting, sandboxMode } from './settings';
import { sandboxStatus } from './sandboxStatus';
import { MissionStatusBar } from './statusBar';
import type { SurfaceConnection } from './surfaces/surfaceConnection';
import { SurfaceHub } from './surfaces/surfaceHub';
import { SurfaceModel } from './surfaces/surfaceModel';
import { approvalContext, blobText } from './approvals/approvalContext';
import { firstChange } from './diff/diffPlacement';
import { WaitingIndicators } from './waiting';
import { StoppedNotice } from './stoppedNotice';
import { InstructionsHost } from './setup/instructionsHost';
import { HooksHost } from './setup/hooksHost';
import { HostRelay } from './hostRelay';
import { mcpSettings } from './setup/mcpSettings';
import { demoTask, offScriptMessage, sameTask } from './demoScript';
import type { SurfaceKind } from '../webview/protocol';
import { PlanDocumentFileSystem } from './plans/planDocumentFs';
import { useHostLog } from '../node/hostLog';
import { planDocumentCommands, planDocumentSource, type PlanDocumentCommands, type PlanDocumentDeps } from './plans/planCommands';

/** What the activation side owns and hands over. */
export interface HostGlue {
  context: vscode.ExtensionContext;
  sidebar: { readonly visible: boolean; readonly badgeCount: number; setBadge(count: number, tooltip: string): void };
  board: { readonly visible: boolean; readonly column: vscode.ViewColumn | undefined; show(stepId?: string): Promise<void> };
}

export interface Host extends vscode.Disposable {
  connect(kind: SurfaceKind, webview: vscode.Webview, isVisible: () => boolean): SurfaceConnection;
  commands: Record<CommandId, (...args: unknown[]) => unknown>;
  blobs: vscode.TextDocumentContentProvider;
  /** The current mission's plan document, where saving makes the next plan version (plans/planDocumentFs.ts). */
  planFs: vscode.FileSystemProvider;
  /** Shows the latest mission from the store (after a window reload). */
  restore(): Promise<void>;
  api: PlanExecuteApi;
}

const TASK_DRAFT_KEY = 'planExecute.taskDraft';
const EXPORT_DIR_KEY = 'planExecute.lastExportDir';

/** The parts every later step of createHost wires together. */
interface HostParts {
  glue: HostGlue;
  log: TeeLog;
  apiKeys: ProviderKeys;
  store: ReturnType<typeof lazyStore>;
  confirmations: Confirmations;
  instructions: InstructionsHost;
  hooks: HooksHost;
  model: SurfaceModel;
  approver: VsCodeApprover;
  controller: MissionController;
  listModels: (provider: ProviderId) => Promise<ModelList>;
  /** Open Plan as Document, Save Plan…, Run Saved Plan…. */
  plans: PlanDocumentCommands;
}

type Handlers = ReturnType<typeof surfaceHandlers>;

export function createHost(glue: HostGlue): Host {
  const { context } = glue;
  const channel = vscode.window.createOutputChannel('Plan & Execute', { log: true });
  const log = new TeeLog(channel);
  useHostLog(log);
  const apiKeys = new ProviderKeys(context.secrets);
  const store = lazyStore(() => createMissionStore(missionStoreDir(context)));
  const confirmations = new Confirmations();
  const relay = new HostRelay();
  const instructions = new InstructionsHost(context.workspaceState, () => relay.changed());
  const hooks = new HooksHost(
    context.workspaceState,
    () => relay.changed(),
    isTrusted,
    (m) => log.warn(m),
  );
  const model = new SurfaceModel(relay, () => relay.approver(), surfaceFacts(context, apiKeys, instructions, hooks));
  const approver = createApprover(model, store);
  const { engine, listModels } = engineLoaders(apiKeys, instructions, hooks, log, confirmations);
  const controller = createController({ context, engine, model, approver, store, log, apiKeys, confirmations });
  const plans = planDocumentDeps(glue, controller, model, log);
  const planSource = planDocumentSource(plans);
  const planFs = new PlanDocumentFileSystem(planSource, plans.problems, log);
  const planCommands = planDocumentCommands(plans, { document: () => planSource.document(), reopen: (id) => planFs.reopen(id) });
  const parts: HostParts = { glue, log, apiKeys, store, confirmations, instructions, hooks, model, approver, controller, listModels, plans: planCommands };
  model.onDidChange(() => planFs.planChanged());
  const statusBar = showProgress(parts);
  const handlers = surfaceHandlers(handlerDeps(parts, relay));
  const hub = new SurfaceHub({ snapshot: () => model.snapshot(), handlers, log });
  relay.connect({ model, hub, approver });
  const stopped = stoppedNotice(glue, handlers);
  model.onDidChange((state) => stopped.update(state));
  // The demo suggests its task (npm start -- --demo); what the user typed always wins.
  if (isDemo() && !taskDraft(context)) model.taskPrefill = process.env.PLAN_EXECUTE_DEMO_TASK || null;
  const commands = hostCommands(parts, hub);
  const disposables = [...hostDisposables(parts, channel, statusBar, hub), planFs, plans.problems];
  return {
    connect: (kind, webview, isVisible) => hub.attach(kind, webview, isVisible),
    commands,
    blobs: new BlobContentProvider(store),
    planFs,
    restore: () => restore(parts),
    api: hostApi(parts, hub, statusBar, stopped),
    dispose: () => {
      for (const d of disposables.splice(0)) d.dispose();
    },
  };
}

/** What the plan-document commands and the editor's plan documents reach. */
function planDocumentDeps(glue: HostGlue, controller: MissionController, model: SurfaceModel, log: TeeLog): PlanDocumentDeps {
  return {
    controller,
    model,
    maxPlanSteps: () => readLimits((m) => log.warn(m)).maxPlanSteps,
    problems: vscode.languages.createDiagnosticCollection('planExecute.plan'),
    showBoard: () => glue.board.show(),
    log,
  };
}

/** The task the user typed and has not yet turned into a mission with a plan. */
function taskDraft(context: vscode.ExtensionContext): string | null {
  return context.workspaceState.get<string>(TASK_DRAFT_KEY) || null;
}

/** What the surfaces show beside the mission: trust, key, demo, draft, sandbox, instructions and hooks. */
function surfaceFacts(
  context: vscode.ExtensionContext,
  apiKeys: ProviderKeys,
  instructions: InstructionsHost,
  hooks: HooksHost,
): ConstructorParameters<typeof SurfaceModel>[2] {
  return {
    trusted: isTrusted,
    hasApiKey: () => apiKeys.ready,
    demo: isDemo,
    taskDraft: () => taskDraft(context),
    sandbox: () => sandboxStatus(sandboxMode()),
    instructions: () => instructions.view(),
    hooks: () => hooks.view(),
  };
}

function createApprover(model: SurfaceModel, store: ReturnType<typeof lazyStore>): VsCodeApprover {
  const approver = new VsCodeApprover(
    () => model.changed(),
    isTrusted,
    () => approveMode() === 'plan',
    approvalContext(model, store),
  );
  // A decided proposal's diff tab has nothing left to review.
  approver.onDidDecide((r) => {
    if (r.kind === 'write') void closeBlobDiff({ path: r.path, afterHash: r.afterHash, afterLabel: 'proposed' });
  });
  return approver;
}

/** dist/engine.js: src/core's mission loop, the model SDKs and this window's adapters (see engineEntry.ts), loaded on first use. */
function engineLoaders(
  apiKeys: ProviderKeys,
  instructions: InstructionsHost,
  hooks: HooksHost,
  log: TeeLog,
  confirmations: Confirmations,
): { engine: MissionEngine; listModels: (provider: ProviderId) => Promise<ModelList> } {
  const engineModule = (): typeof import('./mission/engineEntry') => require(join(__dirname, 'engine.js')) as typeof import('./mission/engineEntry');
  const listModels = (provider: ProviderId): Promise<ModelList> => engineModule().listModels(provider, apiKeys.listingAccess());
  const engine: MissionEngine = lazyEngine(async () => {
    const entry = engineModule();
    return entry.createWindowEngine({
      approveMode,
      sandboxMode,
      excludedInstructions: () => instructions.excluded(),
      hookSet: () => hooks.missionSet(),
      mcpSettings,
      trusted: isTrusted,
      log,
      confirm: (message, action) => confirmations.ask(message, action),
    });
  });
  return { engine, listModels };
}

function createController(p: {
  context: vscode.ExtensionContext;
  engine: MissionEngine;
  model: SurfaceModel;
  approver: VsCodeApprover;
  store: ReturnType<typeof lazyStore>;
  log: TeeLog;
  apiKeys: ProviderKeys;
  confirmations: Confirmations;
}): MissionController {
  const { log, apiKeys, confirmations } = p;
  return new MissionController({
    engine: p.engine,
    model: p.model,
    approver: p.approver,
    store: p.store,
    log,
    modelSetup: () => apiKeys.setup(),
    redact: (t) => apiKeys.redact(t),
    limits: () => readLimits((m) => log.warn(m)),
    confirm: (message, action) => confirmations.ask(message, action),
    owner: fileOwnerStore(join(missionStoreDir(p.context), 'owner.json')),
  });
}

/** The status bar, the waiting badge and notice, and the task draft, kept in step with the surfaces' state. */
function showProgress({ glue, model }: HostParts): MissionStatusBar {
  const statusBar = new MissionStatusBar();
  const waiting = new WaitingIndicators({
    setBadge: (count, tooltip) => glue.sidebar.setBadge(count, tooltip),
    surfaceVisible: () => glue.sidebar.visible || glue.board.visible,
    notifyEnabled: notifyWhenWaiting,
    showQueue: () => vscode.commands.executeCommand('planExecute.focusQueue'),
  });
  model.onDidChange((state) => {
    waiting.update(state);
    statusBar.update(state.status, state.mission ? state.mission.goal || state.mission.task : null);
  });
  // The typed task leaves the host's keeping once it has become a mission with a plan.
  model.onDidChange((state) => {
    const draft = taskDraft(glue.context);
    if (draft !== null && state.mission?.planVersion !== null && state.mission?.task.trim() === draft.trim())
      void glue.context.workspaceState.update(TASK_DRAFT_KEY, undefined);
  });
  return statusBar;
}

/** What the surfaces' message handlers reach; their notices go to the hub they are then attached to, through the relay. */
function handlerDeps(parts: HostParts, relay: HostRelay): Parameters<typeof surfaceHandlers>[0] {
  const { glue, controller, approver, model, confirmations, store } = parts;
  let boardWidth: number | undefined;
  return {
    controller,
    approver,
    model,
    notify: (level, message) => relay.notify(level, message),
    trusted: isTrusted,
    command: (id, ...args) => vscode.commands.executeCommand(id, ...args),
    revert: (target) =>
      confirmAndRevert(controller, target, { confirm: (m, a) => confirmations.ask(m, a), inform: (m) => void vscode.window.showInformationMessage(m) }),
    saveTaskDraft: (text) => void glue.context.workspaceState.update(TASK_DRAFT_KEY, text || undefined),
    // Diffs open beside or below a visible board, never over it (../diff/diffPlacement.ts).
    diffRoom: () => ({ boardColumn: glue.board.column, boardWidth, groups: vscode.window.tabGroups.all.map((g) => g.viewColumn) }),
    firstChange: async (beforeHash, afterHash) => {
      const s = await store();
      if (!s) return undefined;
      const [before, after] = await Promise.all([blobText(s, beforeHash), blobText(s, afterHash)]);
      return typeof before === 'string' && typeof after === 'string' ? firstChange(before, after) : undefined;
    },
    surfaceSize: (width) => {
      boardWidth = width;
    },
    instructions: parts.instructions,
    hooks: parts.hooks,
    // The demo's scripted model has a plan for one task: another is refused here, in words (./demoScript.ts).
    refusedTask: (task) => {
      const demo = demoTask();
      return demo !== null && !sameTask(task, demo) ? offScriptMessage(task, demo) : undefined;
    },
  };
}

/** The notice shown when a mission stops while no surface is visible; its actions go through the surfaces' handlers. */
function stoppedNotice(glue: HostGlue, handlers: Handlers): StoppedNotice {
  return new StoppedNotice({
    surfaceVisible: () => glue.sidebar.visible || glue.board.visible,
    act: (action) => {
      switch (action.kind) {
        case 'retry':
          return handlers.retryMission({ type: 'retryMission' });
        case 'continue':
          return handlers.continueMission({ type: 'continueMission' });
        case 'setApiKey':
          return handlers.setApiKey({ type: 'setApiKey' });
        case 'openSettings':
          return handlers.openSettings({ type: 'openSettings', query: action.query });
        default:
          return glue.board.show();
      }
    },
  });
}

function hostCommands({ glue, controller, model, apiKeys, listModels, store, plans }: HostParts, hub: SurfaceHub): Host['commands'] {
  const { context } = glue;
  return commandHandlers({
    controller,
    model,
    hub,
    apiKeys,
    listModels,
    store,
    showBoard: (stepId) => glue.board.show(stepId),
    exportDir: { get: () => context.globalState.get<string>(EXPORT_DIR_KEY), set: (dir) => context.globalState.update(EXPORT_DIR_KEY, dir) },
    demo: isDemo,
    plans,
  });
}

function hostDisposables(
  { instructions, hooks, apiKeys, controller, model }: HostParts,
  channel: vscode.Disposable,
  statusBar: MissionStatusBar,
  hub: SurfaceHub,
): vscode.Disposable[] {
  return [
    channel,
    instructions,
    hooks,
    apiKeys,
    statusBar,
    controller,
    { dispose: () => hub.dispose() },
    { dispose: () => model.dispose() },
    vscode.workspace.onDidGrantWorkspaceTrust(() => void hooks.refresh()),
    vscode.workspace.onDidChangeConfiguration((e) => (e.affectsConfiguration('planExecute') ? model.changed() : undefined)),
    apiKeys.onDidChange(() => model.changed()),
  ];
}

async function restore({ log, instructions, hooks, apiKeys, controller, model }: HostParts): Promise<void> {
  log.info('restoring the latest mission from the store');
  void instructions.refresh();
  void hooks.refresh();
  await apiKeys.load();
  await controller.restoreLatest();
  model.changed();
}

/** The extension's exported API: readiness for everyone, and the hooks the integration and e2e tests drive. */
function hostApi(parts: HostParts, hub: SurfaceHub, statusBar: MissionStatusBar, stopped: StoppedNotice): PlanExecuteApi {
  const { glue, log, apiKeys, store, confirmations, model, controller, listModels } = parts;
  return {
    whenSidebarReady: () => hub.whenReady('sidebar'),
    get sidebarReadyCount() {
      return hub.readyCount('sidebar');
    },
    whenBoardReady: () => hub.whenReady('board'),
    get boardReadyCount() {
      return hub.readyCount('board');
    },
    test: {
      postFromWebview: (message, surface = 'sidebar') => hub.receive(surface, message),
      get droppedMessages() {
        return hub.droppedMessages;
      },
      sidebarState: () => model.peek(),
      lastPostedState: () => hub.lastPostedState,
      missionStore: store,
      restoreFromStore: async () => {
        model.clearMission();
        const restored = await controller.restoreLatest();
        model.flush();
        return restored;
      },
      recentLog: () => log.recent(),
      setApiKey: (key, provider) => (provider === 'openai' ? apiKeys.openai : apiKeys.anthropic).set(key),
      listModels,
      answerConfirmations: (answer) => {
        confirmations.answer = answer;
      },
      lastConfirmation: () => confirmations.last,
      waitForState: (predicate, timeoutMs) => model.waitFor(predicate, timeoutMs),
      badgeCount: () => glue.sidebar.badgeCount,
      statusBarItem: () => statusBar.shown,
      lastStoppedNotice: () => stopped.last,
    },
  };
}
