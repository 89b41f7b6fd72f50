/**
 * Opens the code-server workbench in headless Chromium. Chromium is started here, detached in its own
 * process group (so it and its renderers die with the run), and Playwright attaches over CDP; Playwright
 * never owns the browser process, so its exit handling cannot leave one behind.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import type { CodeServer } from './codeServer';
import { chromiumPath, repoRoot } from './hostPaths';
import { removeOnExit, spawnGroup } from './processGroups';

/** Flags as docs/development.md ("The test host") lists them: without the networking ones Chromium keeps dialling hosts this network refuses. */
const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
];

export interface WorkbenchOptions {
  /** The folder to open (an absolute path on this machine). */
  folder: string;
  /** Load this extension under development (absolute path; default: the repository root). Null: none. */
  extensionDevelopmentPath?: string | null;
  /** The tests module the extension host runs (absolute path, without .js), for the integration tier. */
  extensionTestsPath?: string;
  /**
   * Lets extensions use the API proposals they declare (the web embedder's `enableProposedApi`, as
   * `--enable-proposed-api` without an id does on the desktop). The integration tier needs it for the
   * fixture extension that registers language models through the `chatProvider` proposal.
   */
  enableProposedApi?: boolean;
  viewport?: { width: number; height: number };
  /** Called with every browser console line (the extension host forwards its console there too). */
  onConsole?: (line: string) => void;
}

export interface Workbench {
  readonly page: Page;
  readonly browser: Browser;
  readonly url: string;
  /** Closes the page, ends Chromium's process group and removes its profile. Idempotent. */
  close(): Promise<void>;
}

/** The workbench URL: `?folder=` plus the extension-development payload, as VS Code's web embedder reads it. */
export function workbenchUrl(host: CodeServer, options: WorkbenchOptions): string {
  const remote = (path: string): string => `vscode-remote://${host.authority}${path}`;
  const payload: [string, string][] = [];
  const dev = options.extensionDevelopmentPath === undefined ? repoRoot : options.extensionDevelopmentPath;
  if (dev) payload.push(['extensionDevelopmentPath', remote(dev)]);
  if (options.extensionTestsPath) payload.push(['extensionTestsPath', remote(options.extensionTestsPath)]);
  if (options.enableProposedApi) payload.push(['enableProposedApi', '']);
  const query = new URLSearchParams({ folder: options.folder });
  if (payload.length > 0) query.set('payload', JSON.stringify(payload));
  return `${host.url}?${query.toString()}`;
}

/** Starts Chromium, attaches Playwright, and loads the workbench (waits for `.monaco-workbench`). */
export async function openWorkbench(host: CodeServer, options: WorkbenchOptions): Promise<Workbench> {
  const profile = mkdtempSync(join(tmpdir(), 'plan-execute-chromium-'));
  const forgetProfile = removeOnExit(profile);
  const viewport = options.viewport ?? { width: 1400, height: 900 };
  const proc = spawnGroup(
    chromiumPath(),
    [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-port=0', `--window-size=${viewport.width},${viewport.height}`, 'about:blank'],
    // XDG_CONFIG_HOME: Chromium's crash reporter writes under it whatever --user-data-dir says.
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, XDG_CONFIG_HOME: profile } },
  );
  let closed = false;
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await browser?.close().catch(() => undefined);
    await proc.stop(2000);
    killStragglers(profile);
    rmSync(profile, { recursive: true, force: true });
    forgetProfile();
  };
  try {
    const endpoint = await devToolsEndpoint(proc.child.stderr, proc.exited);
    browser = await chromium.connectOverCDP(endpoint);
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize(viewport);
    if (options.onConsole) {
      const forward = options.onConsole;
      page.on('console', (message: ConsoleMessage) => forward(`[${message.type()}] ${message.text()}`));
      page.on('pageerror', (error) => forward(`[pageerror] ${error.message}`));
    }
    const url = workbenchUrl(host, options);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
    return { page, browser, url, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Chromium prints "DevTools listening on ws://…" on stderr once it accepts CDP connections. */
function devToolsEndpoint(stderr: NodeJS.ReadableStream | null, exited: Promise<number | string>): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!stderr) return reject(new Error('Chromium has no stderr pipe'));
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not open its DevTools port within 30 s:\n${seen}`)), 30_000);
    stderr.on('data', (chunk: Buffer) => {
      seen = (seen + chunk.toString('utf8')).slice(-8192);
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((status) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${status}) before it was ready:\n${seen}`));
    });
  });
}

/**
 * Chromium's crash handler detaches into its own session, outside the group we kill. It exits by itself
 * once Chromium is gone (seen here), but a run must not rely on that: anything still naming our private
 * profile directory on its command line is ours, and is killed.
 */
function killStragglers(profile: string): void {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return; // no procfs (not Linux): nothing to scan
  }
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profile)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
}
