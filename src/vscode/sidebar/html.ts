/**
 * The sidebar's HTML shell: a strict CSP (nonce-only scripts, no inline script, resources only from
 * media/), the bundled webview script, and the stylesheets. No data is ever interpolated into it.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';

export function sidebarHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(18).toString('base64');
  const media = (file: string): string => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', file)).toString();
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `style-src ${webview.cspSource} 'unsafe-inline'`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  // 'unsafe-inline' for styles only: @vscode-elements uses constructable/inline styles in shadow roots.
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media('codicon.css')}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${media('sidebar.css')}">
<title>Plan &amp; Execute</title>
</head>
<body>
<div id="app" aria-live="polite"></div>
<script nonce="${nonce}" src="${media('webview.js')}"></script>
</body>
</html>`;
}
