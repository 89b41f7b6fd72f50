/**
 * The mission board: the mission in an editor tab (a WebviewPanel), opened by "Plan & Execute: Open Mission
 * Board" or from the sidebar, and restored after a window reload by a serializer. Activation side: it sets
 * the shell and hands the webview to the host, which runs the protocol. One board per window.
 */
import * as vscode from 'vscode';
import type { SurfaceConnection } from './surfaceConnection';
import { surfaceHtml, surfaceOptions } from './surfaceHtml';

export const BOARD_VIEW_TYPE = 'planExecute.board';

export class BoardPanel implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private connection: SurfaceConnection | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly connect: (webview: vscode.Webview, isVisible: () => boolean) => SurfaceConnection,
  ) {}

  get visible(): boolean {
    return this.panel?.visible ?? false;
  }

  /** The editor group the board shows in (undefined: not shown). */
  get column(): vscode.ViewColumn | undefined {
    return this.panel?.visible ? this.panel.viewColumn : undefined;
  }

  /** Opens (or reveals) the board; with `stepId`, that step is selected once the board is ready. */
  async show(stepId?: string): Promise<void> {
    if (this.panel) this.panel.reveal(undefined, false);
    else
      this.adopt(
        vscode.window.createWebviewPanel(
          BOARD_VIEW_TYPE,
          'Mission Board',
          { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
          surfaceOptions(this.extensionUri),
        ),
      );
    if (stepId && this.connection) {
      const connection = this.connection;
      await connection.whenReady();
      await connection.post({ type: 'didSelectStep', stepId });
    }
  }

  /** The serializer: a board that was open before the reload comes back (its webview state restores the selection). */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.options = surfaceOptions(this.extensionUri);
    this.adopt(panel);
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel?.dispose();
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'planExecute.svg');
    panel.webview.html = surfaceHtml(panel.webview, this.extensionUri, 'board');
    const connection = this.connect(panel.webview, () => panel.visible);
    this.connection = connection;
    panel.onDidDispose(() => {
      connection.dispose();
      if (this.panel === panel) {
        this.panel = undefined;
        this.connection = undefined;
      }
    });
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
