/**
 * What a failed E2E test leaves behind, so a timeout on a loaded machine says what the product did:
 * test-results/failures/<title>/ with a screenshot, the body of every webview frame, the browser console's
 * last lines (the extension host forwards its console there too), the host's user and machine settings and the
 * extension's newest log (the mission as its output channel showed it).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../../support/host/hostPaths';

export interface ConsoleRecorder {
  readonly lines: readonly string[];
  /** Pass as `onConsole` to openWorkbench. */
  record(line: string): void;
}

/** Keeps the last `max` console lines, timestamped. */
export function consoleRecorder(max = 400): ConsoleRecorder {
  const lines: string[] = [];
  return {
    lines,
    record: (line) => {
      lines.push(`${new Date().toISOString()} ${line}`);
      if (lines.length > max) lines.shift();
    },
  };
}

export interface PostMortemSource {
  page: Page;
  consoleLines: readonly string[];
  /** code-server's --user-data-dir (settings and logs). */
  userDataDir: string;
}

/** Registers an afterEach that saves a post-mortem of every failed test of the enclosing block. */
export function postMortemOnFailure(source: () => Promise<PostMortemSource | undefined>): void {
  afterEach(async function () {
    const test = this.currentTest;
    if (test?.state !== 'failed') return;
    this.timeout(30_000);
    const from = await source();
    if (!from) return;
    const dir = await savePostMortem(from, test.fullTitle()).catch((error: unknown) => `(not saved: ${String(error)})`);
    console.log(`      post-mortem: ${dir}`);
  });
}

async function savePostMortem(from: PostMortemSource, title: string): Promise<string> {
  const dir = join(repoRoot, 'test-results', 'failures', title.replace(/[^\w-]+/g, '-').slice(0, 80));
  mkdirSync(dir, { recursive: true });
  const copy = (path: string | undefined, to: string): void => {
    if (path && existsSync(path)) copyFileSync(path, join(dir, to));
  };
  copy(join(from.userDataDir, 'User', 'settings.json'), 'settings.json');
  copy(join(from.userDataDir, 'Machine', 'settings.json'), 'machine-settings.json');
  copy(newestFile(join(from.userDataDir, 'logs'), 'Plan & Execute.log'), 'extension.log');
  await from.page.screenshot({ path: join(dir, 'page.png') }).catch(() => undefined);
  writeFileSync(join(dir, 'console.txt'), `${from.consoleLines.join('\n')}\n`);
  let n = 0;
  for (const frame of from.page.frames()) {
    if (frame.isDetached()) continue;
    const html = await frame.evaluate(() => (document.body.dataset.surface ? document.body.outerHTML : null)).catch(() => null);
    if (html) writeFileSync(join(dir, `webview-${++n}.html`), html);
  }
  return dir;
}

/** The most recently written file called `name` under `root` (the extension host of the newest window). */
function newestFile(root: string, name: string): string | undefined {
  let best: { path: string; mtime: number } | undefined;
  const walk = (dir: string): void => {
    for (const entry of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === name) {
        const mtime = statSync(path).mtimeMs;
        if (!best || mtime > best.mtime) best = { path, mtime };
      }
    }
  };
  walk(root);
  return best?.path;
}
