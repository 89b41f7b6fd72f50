/**
 * Every live webview surface of this window (at most one sidebar view and one mission board). State goes to
 * all of them; a notice goes to the visible ones, else to a VS Code message. Counts handshakes and dropped
 * messages for the integration tests.
 */
import * as vscode from 'vscode';
import type { FromWebviewHandlers, SurfaceKind, SurfaceState, ToWebview } from '../../webview/protocol';
import type { Log } from '../log';
import type { SurfaceConnection } from './surfaceConnection';
import { WebviewSurface, type SurfaceHost } from './webviewSurface';

export class SurfaceHub {
  private readonly surfaces = new Set<WebviewSurface>();
  private readyCounts: Record<SurfaceKind, number> = { sidebar: 0, board: 0 };
  private dropped = 0;
  private lastState: SurfaceState | undefined;
  private waiters: { kind: SurfaceKind; resolve: () => void }[] = [];
  private readonly host: SurfaceHost;

  constructor(deps: { snapshot(): SurfaceState; handlers: Omit<FromWebviewHandlers, 'ready'>; log: Log }) {
    this.host = {
      snapshot: () => {
        const state = deps.snapshot();
        this.lastState = state;
        return state;
      },
      handlers: deps.handlers,
      log: deps.log,
      onReady: (surface) => {
        this.readyCounts[surface.kind] += 1;
        this.waiters = this.waiters.filter((w) => (w.kind === surface.kind ? (w.resolve(), false) : true));
      },
      onDropped: () => {
        this.dropped += 1;
      },
    };
  }

  /** Connects a webview to the protocol; disposing the returned connection disconnects it. */
  attach(kind: SurfaceKind, webview: vscode.Webview, isVisible: () => boolean): SurfaceConnection {
    const surface = new WebviewSurface(kind, webview, this.host, isVisible);
    this.surfaces.add(surface);
    return {
      whenReady: () => surface.whenReady(),
      post: (message) => surface.post(message),
      dispose: () => {
        surface.dispose();
        this.surfaces.delete(surface);
      },
    };
  }

  readyCount(kind: SurfaceKind): number {
    return this.readyCounts[kind];
  }

  get droppedMessages(): number {
    return this.dropped;
  }

  get lastPostedState(): SurfaceState | undefined {
    return this.lastState;
  }

  /** Resolves after the next completed handshake of `kind`, or at once if one already happened. */
  whenReady(kind: SurfaceKind): Promise<void> {
    if (this.readyCounts[kind] > 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ kind, resolve }));
  }

  isVisible(kind: SurfaceKind): boolean {
    return [...this.surfaces].some((s) => s.kind === kind && s.visible);
  }

  /** The inbound path of a surface of `kind` (the first one), for the test hook; false when dropped. */
  receive(kind: SurfaceKind, raw: unknown): boolean {
    const surface = [...this.surfaces].find((s) => s.kind === kind);
    if (surface) return surface.receive(raw);
    // No webview of that kind exists (a test host without the view open): the same checks, no surface.
    const detached = { onDidReceiveMessage: () => ({ dispose: () => undefined }), postMessage: () => Promise.resolve(false) };
    return new WebviewSurface(kind, detached, this.host, () => false).receive(raw);
  }

  post(message: ToWebview): void {
    if (message.type === 'state') this.lastState = message.state;
    for (const s of this.surfaces) void s.post(message);
  }

  /** Posts to the surfaces of one kind only (e.g. select a step on the board). */
  postTo(kind: SurfaceKind, message: ToWebview): void {
    for (const s of this.surfaces) if (s.kind === kind) void s.post(message);
  }

  /** A one-line notice: in the visible surfaces, else as a VS Code message. */
  notify(level: 'info' | 'warning' | 'error', message: string): void {
    const visible = [...this.surfaces].filter((s) => s.visible && s.ready);
    if (visible.length > 0) {
      for (const s of visible) void s.post({ type: 'didNotify', level, message });
    } else if (level === 'error') void vscode.window.showErrorMessage(message);
    else if (level === 'warning') void vscode.window.showWarningMessage(message);
    else void vscode.window.showInformationMessage(message);
  }

  dispose(): void {
    for (const s of this.surfaces) s.dispose();
    this.surfaces.clear();
  }
}
