/**
 * The HTML shell of both webview surfaces: a strict CSP (nonce-only scripts, no inline script, resources
 * only from media/), the one bundled webview script, and the stylesheets. The surface kind is the only
 * value written into it (a fixed word, never data); the app reads it from `body[data-surface]`.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { SurfaceKind } from '../../webview/protocol';

let fontFile: { query: string } | null | undefined;

/**
 * The codicon font as codicon.css names it (with its cache-busting query), so the shell can preload it:
 * fetched with the page instead of when the first glyph is drawn, icons never sit blank after a reload.
 */
function codiconFont(extensionUri: vscode.Uri): { query: string } | null {
  if (fontFile === undefined) {
    try {
      const css = readFileSync(vscode.Uri.joinPath(extensionUri, 'media', 'codicon.css').fsPath, 'utf8');
      const query = /url\("\.\/codicon\.ttf(\?[^"]*)?"\)/.exec(css);
      fontFile = query ? { query: query[1] ?? '' } : null;
    } catch {
      fontFile = null; // no codicon.css in media/ (a build without assets): icons load when drawn, not before
    }
  }
  return fontFile;
}

export function surfaceHtml(webview: vscode.Webview, extensionUri: vscode.Uri, surface: SurfaceKind): string {
  const nonce = randomBytes(18).toString('base64');
  const media = (file: string): string => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', file)).toString();
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `style-src ${webview.cspSource} 'unsafe-inline'`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  const kind: SurfaceKind = surface === 'board' ? 'board' : 'sidebar';
  const font = codiconFont(extensionUri);
  const preload = font ? `<link rel="preload" href="${media('codicon.ttf')}${font.query}" as="font" type="font/ttf" crossorigin>\n` : '';
  const title = kind === 'board' ? 'Mission Board' : 'Plan &amp; Execute';
  // 'unsafe-inline' for styles only: @vscode-elements uses constructable/inline styles in shadow roots.
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${preload}<link rel="stylesheet" href="${media('codicon.css')}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${media('sidebar.css')}">
${kind === 'board' ? `<link rel="stylesheet" href="${media('board.css')}">\n` : ''}<title>${title}</title>
</head>
<body data-surface="${kind}">
<div id="app"></div>
<script nonce="${nonce}" src="${media('webview.js')}"></script>
</body>
</html>`;
}

/** What every surface's webview may do: run its script, load from media/ only. */
export function surfaceOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')] };
}
