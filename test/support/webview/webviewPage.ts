/**
 * The webview app on its own, in headless Chromium: media/webview.js in a plain file:// page shaped like a
 * surface's shell (body[data-surface], the same stylesheets), acquireVsCodeApi stubbed to record what the
 * app posts, and a few theme variables as VS Code would inject them. Used by the webview E2E tests and the
 * webview bench; the real workbench tests use the real shell.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath, repoRoot } from '../host/hostPaths';
import type { SurfaceKind } from '../../../src/webview/protocol';

/** A few dark-theme variables, as VS Code would inject them. */
const DARK_THEME = `:root { --vscode-foreground: #cccccc; --vscode-descriptionForeground: #9d9d9d; --vscode-font-family: sans-serif; --vscode-font-size: 13px;
  --vscode-badge-background: #616161; --vscode-badge-foreground: #f8f8f8; --vscode-focusBorder: #0078d4; --vscode-editorWidget-background: #202020;
  --vscode-editor-background: #1f1f1f; --vscode-sideBar-background: #181818; --vscode-panel-border: #2b2b2b; --vscode-list-hoverBackground: #2a2d2e;
  --vscode-editor-font-family: monospace; --vscode-textLink-foreground: #4daafc; } body { background: #181818; }`;

export interface WebviewPage {
  page: Page;
  /** Posts a host message to the app. */
  send(message: unknown): Promise<void>;
  /** What the app has posted so far. */
  posted(): Promise<unknown[]>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export async function openWebviewPage(
  browser: Browser,
  options: { surface: SurfaceKind; viewport?: { width: number; height: number }; theme?: string; savedState?: unknown },
): Promise<WebviewPage> {
  const dir = mkdtempSync(join(tmpdir(), 'pe-webview-'));
  const media = pathToFileURL(join(repoRoot, 'media')).toString();
  const shell = join(dir, `${options.surface}.html`);
  const board = options.surface === 'board' ? `<link rel="stylesheet" href="${media}/board.css">` : '';
  writeFileSync(
    shell,
    `<!DOCTYPE html><html><head><link rel="stylesheet" href="${media}/codicon.css" id="vscode-codicon-stylesheet"><link rel="stylesheet" href="${media}/sidebar.css">${board}</head><body data-surface="${options.surface}"><div id="app"></div></body></html>`,
  );
  const page = await browser.newPage({
    viewport: options.viewport ?? (options.surface === 'board' ? { width: 1300, height: 800 } : { width: 400, height: 900 }),
  });
  await page.goto(pathToFileURL(shell).toString());
  // tsx compiles page functions with esbuild's keepNames helper; give the page that helper.
  await page.addScriptTag({ content: 'window.__name = (f) => f;' });
  await page.addScriptTag({
    content: `window.__posted = []; window.__saved = ${JSON.stringify(options.savedState ?? null)};
      window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => window.__saved ?? undefined, setState: (s) => { window.__saved = s; } });`,
  });
  await page.addStyleTag({ content: options.theme ?? DARK_THEME });
  await page.addScriptTag({ path: join(repoRoot, 'media', 'webview.js') });
  await page.waitForFunction('window.__posted.some((m) => m.type === "ready")');
  return {
    page,
    send: async (message) => {
      await page.evaluate(`window.postMessage(${JSON.stringify(message)}, '*')`);
    },
    posted: async () => (await page.evaluate('window.__posted')) as unknown[],
    close: async () => {
      await page.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
