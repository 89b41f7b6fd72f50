/**
 * The `planExecute.sidebar` webview view (activation side: no protocol code here). It sets the shell and
 * hands the webview to the host (`connect`), which runs the protocol; it also carries the view's native
 * badge, the count of what waits for the user.
 */
import * as vscode from 'vscode';
import type { SurfaceConnection } from './surfaceConnection';
import { surfaceHtml, surfaceOptions } from './surfaceHtml';

export const SIDEBAR_VIEW_ID = 'planExecute.sidebar';

export class SidebarView implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private badge: vscode.ViewBadge | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly connect: (webview: vscode.Webview, isVisible: () => boolean) => SurfaceConnection,
  ) {}

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = surfaceOptions(this.extensionUri);
    view.webview.html = surfaceHtml(view.webview, this.extensionUri, 'sidebar');
    view.badge = this.badge;
    const connection = this.connect(view.webview, () => view.visible);
    view.onDidDispose(() => {
      connection.dispose();
      if (this.view === view) this.view = undefined;
    });
  }

  /** The badge's number as last set (0: no badge). */
  get badgeCount(): number {
    return this.badge?.value ?? 0;
  }

  /** The view's badge: how many things wait for the user (0 clears it). */
  setBadge(count: number, tooltip: string): void {
    // Not `undefined` for "none": VS Code's webview view never clears a badge set back to undefined (its
    // tree views do); a badge of 0 is not drawn.
    this.badge = { value: Math.max(0, count), tooltip: count > 0 ? tooltip : '' };
    if (this.view) this.view.badge = this.badge;
  }
}
