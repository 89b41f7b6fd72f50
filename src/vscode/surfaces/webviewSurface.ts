/**
 * One webview surface (the sidebar view or the mission board) on the host side. It waits for the webview's
 * `ready` before posting anything, answers every `ready` with a full snapshot (the iframe reloads when hidden
 * and shown), and parses every inbound message against the shared protocol; what does not parse is logged,
 * counted and dropped. The handlers are one typed map shared by both surfaces.
 */
import type * as vscode from 'vscode';
import { FromWebviewSchema, type FromWebview, type FromWebviewHandlers, type SurfaceKind, type SurfaceState, type ToWebview } from '../../webview/protocol';
import type { Log } from '../log';
import { errorDetail } from '../../core/primitives/errorText';

export interface SurfaceHost {
  /** The current snapshot (called on every `ready`). */
  snapshot(): SurfaceState;
  /** Handlers for every command a webview can send (except `ready`, handled here). */
  handlers: Omit<FromWebviewHandlers, 'ready'>;
  log: Log;
  /** Called after each completed handshake. */
  onReady(surface: WebviewSurface): void;
  /** Called for every message dropped as invalid. */
  onDropped(): void;
}

export class WebviewSurface {
  private handshakes = 0;
  private readyWaiters: (() => void)[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(
    readonly kind: SurfaceKind,
    private readonly webview: Pick<vscode.Webview, 'onDidReceiveMessage' | 'postMessage'>,
    private readonly host: SurfaceHost,
    /** Whether the user can see this surface now (a hidden one gets no notices). */
    private readonly isVisible: () => boolean,
  ) {
    this.subscription = webview.onDidReceiveMessage((raw: unknown) => this.receive(raw));
  }

  get ready(): boolean {
    return this.handshakes > 0;
  }

  /** Resolves after this webview's first completed handshake (at once if it had one). */
  whenReady(): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  get visible(): boolean {
    return this.isVisible();
  }

  /** Entry point for every inbound message (also used by the test hook, so it sees the same checks). */
  receive(raw: unknown): boolean {
    const parsed = FromWebviewSchema.safeParse(raw);
    if (!parsed.success) {
      this.host.onDropped();
      this.host.log.warn(`${this.kind}: dropped an invalid message: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      return false;
    }
    void this.dispatch(parsed.data).catch((error: unknown) => {
      this.host.log.error(`${this.kind}: handler for ${parsed.data.type} failed: ${errorDetail(error)}`);
    });
    return true;
  }

  private async dispatch(message: FromWebview): Promise<void> {
    if (message.type === 'ready') {
      await this.post({ type: 'state', state: this.host.snapshot() });
      this.handshakes += 1;
      for (const resolve of this.readyWaiters.splice(0)) resolve();
      this.host.onReady(this);
      return;
    }
    const handler = this.host.handlers[message.type] as (m: FromWebview) => void | Promise<void>;
    await handler(message);
  }

  /** Posts to the webview; before its first `ready` nothing is posted (the handshake sends a snapshot). */
  async post(message: ToWebview): Promise<boolean> {
    if (!this.ready && message.type !== 'state') return false;
    try {
      return await this.webview.postMessage(message);
    } catch {
      return false; // the webview was disposed meanwhile (postMessage rejects): nothing to post to
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
