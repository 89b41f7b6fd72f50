/**
 * Activation: registrations only, and nothing heavy. This file and what it imports are bundled to
 * dist/extension.js, which must stay free of zod, the model SDK and the engine (the build refuses them):
 * the host (dist/host.js: surfaces' model and protocol, controller, approver, status bar) is loaded the
 * first time something needs it, and the engine (dist/engine.js) on the first mission.
 */
import * as vscode from 'vscode';
import { join } from 'node:path';
import type { PlanExecuteApi } from './api';
import { COMMAND_IDS } from './commandIds';
import { BLOB_SCHEME } from './diff/blobDiff';
import type { Host } from './host';
import { BOARD_VIEW_TYPE, BoardPanel } from './surfaces/boardPanel';
import { SIDEBAR_VIEW_ID, SidebarView } from './surfaces/sidebarView';
import { LazyFileSystem, PLAN_SCHEME } from './plans/planScheme';

export function activate(context: vscode.ExtensionContext): PlanExecuteApi {
  let loaded: Host | undefined;
  const host = (): Host => {
    if (!loaded) {
      const module = require(join(__dirname, 'host.js')) as typeof import('./host');
      loaded = module.createHost({ context, sidebar, board });
    }
    return loaded;
  };
  const sidebar = new SidebarView(context.extensionUri, (webview, isVisible) => host().connect('sidebar', webview, isVisible));
  const board = new BoardPanel(context.extensionUri, (webview, isVisible) => host().connect('board', webview, isVisible));
  const planFs = new LazyFileSystem(() => host().planFs);

  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(SIDEBAR_VIEW_ID, sidebar),
    vscode.window.registerWebviewPanelSerializer(BOARD_VIEW_TYPE, board),
    board,
    vscode.workspace.registerTextDocumentContentProvider(BLOB_SCHEME, {
      provideTextDocumentContent: (uri, token) => host().blobs.provideTextDocumentContent(uri, token),
    }),
    vscode.workspace.registerFileSystemProvider(PLAN_SCHEME, planFs, { isCaseSensitive: true }),
    planFs,
    ...COMMAND_IDS.map((id) => vscode.commands.registerCommand(id, (...args: unknown[]) => host().commands[id](...args))),
    { dispose: () => loaded?.dispose() },
  );
  // After a window reload the surfaces show the last mission from the store; not inside activation.
  setTimeout(() => void host().restore(), 0);

  return {
    whenSidebarReady: () => host().api.whenSidebarReady(),
    get sidebarReadyCount() {
      return host().api.sidebarReadyCount;
    },
    whenBoardReady: () => host().api.whenBoardReady(),
    get boardReadyCount() {
      return host().api.boardReadyCount;
    },
    get test() {
      return host().api.test;
    },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
