/**
 * The `planExecute.sidebar` webview view. It waits for the webview's `ready` before posting anything,
 * answers every `ready` with a full snapshot (the iframe reloads when hidden and shown), and parses every
 * inbound message against the shared protocol; what does not parse is logged and dropped.
 */
import * as vscode from 'vscode';
import { FromWebviewSchema, type FromWebview, type FromWebviewHandlers, type SidebarState, type ToWebview } from '../../webview/protocol';
import { sidebarHtml } from './html';
import type { Log } from '../log';

export const SIDEBAR_VIEW_ID = 'planExecute.sidebar';

export interface SidebarHost {
  /** The current snapshot (called on every `ready`). */
  snapshot(): SidebarState;
  /** Handlers for every command the webview can send (except `ready`, handled here). */
  handlers: Omit<FromWebviewHandlers, 'ready'>;
  log: Log;
}

export class SidebarProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readyCount = 0;
  private dropped = 0;
  private lastState: SidebarState | undefined;
  private readyWaiters: (() => void)[] = [];
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: SidebarHost,
  ) {}

  get sidebarReadyCount(): number {
    return this.readyCount;
  }

  get droppedMessages(): number {
    return this.dropped;
  }

  /** The last snapshot posted to the webview. */
  get lastPostedState(): SidebarState | undefined {
    return this.lastState;
  }

  /** Resolves after the next completed handshake, or at once if one already happened. */
  whenReady(): Promise<void> {
    if (this.readyCount > 0) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    view.webview.html = sidebarHtml(view.webview, this.extensionUri);
    this.disposables.push(
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
      }),
    );
  }

  /** Entry point for every inbound message (also used by the test hook, so it sees the same checks). */
  receive(raw: unknown): boolean {
    const parsed = FromWebviewSchema.safeParse(raw);
    if (!parsed.success) {
      this.dropped += 1;
      this.host.log.warn(`sidebar: dropped an invalid message: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      return false;
    }
    void this.dispatch(parsed.data).catch((error: unknown) => {
      this.host.log.error(`sidebar: handler for ${parsed.data.type} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    });
    return true;
  }

  private async dispatch(message: FromWebview): Promise<void> {
    if (message.type === 'ready') {
      await this.post({ type: 'state', state: this.host.snapshot() });
      this.readyCount += 1;
      for (const resolve of this.readyWaiters.splice(0)) resolve();
      return;
    }
    const handler = this.host.handlers[message.type] as (m: FromWebview) => void | Promise<void>;
    await handler(message);
  }

  /** Posts to the webview if it exists; messages to a hidden view are dropped (the next `ready` resyncs). */
  async post(message: ToWebview): Promise<boolean> {
    if (message.type === 'state') this.lastState = message.state;
    if (!this.view) return false;
    return this.view.webview.postMessage(message);
  }

  /** A one-line notice: in the sidebar when it is visible, else as a VS Code message. */
  notify(level: 'info' | 'warning' | 'error', message: string): void {
    if (this.visible) void this.post({ type: 'didNotify', level, message });
    else if (level === 'error') void vscode.window.showErrorMessage(message);
    else if (level === 'warning') void vscode.window.showWarningMessage(message);
    else void vscode.window.showInformationMessage(message);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
