/**
 * Mocha glue for E2E tests. One code-server serves the whole E2E run (starting it costs seconds); every
 * `useWorkbench()` block gets its own fresh workspace copy and its own Chromium, opened before its tests
 * and closed after them.
 *
 *   describe('my feature (E2E)', () => {
 *     const session = useWorkbench();
 *     it('does something visible', async () => {
 *       await session.page.keyboard.press('F1');
 *       const frame = await session.sidebarFrame();
 *     });
 *   });
 */
import type { Frame, Page } from 'playwright-core';
import { startCodeServer, type CodeServer, type CodeServerOptions } from '../../support/host/codeServer';
import { findWebviewFrame } from '../../support/host/webviewFrame';
import { openWorkbench, type Workbench } from '../../support/host/workbench';
import { copyWorkspace, type TempWorkspace } from '../../support/host/workspace';
import { consoleRecorder, postMortemOnFailure } from './postMortem';

let shared: Promise<CodeServer> | undefined;

/** The code-server shared by this E2E run, started on first use. */
export function sharedHost(options: CodeServerOptions = {}): Promise<CodeServer> {
  shared ??= startCodeServer(options);
  return shared;
}

/** Stops the shared host (the root hook calls this; process exit would kill it anyway). */
export async function stopSharedHost(): Promise<void> {
  const host = shared;
  shared = undefined;
  if (host) await (await host.catch(() => undefined))?.stop();
}

export interface SessionOptions {
  /** The workspace to copy (default: the integration fixture). */
  workspace?: string;
  /** Browser viewport (default 1400×900). */
  viewport?: { width: number; height: number };
}

export interface Session {
  readonly page: Page;
  readonly workbench: Workbench;
  /** Absolute path of this block's workspace copy. */
  readonly workspace: string;
  /** Opens the Plan & Execute sidebar and returns the frame holding its `#app` root, once rendered. */
  sidebarFrame(): Promise<Frame>;
}

/** Registers before/after hooks that open a fresh workbench for the enclosing `describe`. */
export function useWorkbench(options: SessionOptions = {}): Session {
  let workbench: Workbench | undefined;
  let workspace: TempWorkspace | undefined;
  const browserConsole = consoleRecorder();

  before(async function () {
    // Generous: run on its own (not through scripts/test.ts), the first use may install code-server.
    this.timeout(30 * 60_000);
    const host = await sharedHost();
    workspace = copyWorkspace(options.workspace);
    workbench = await openWorkbench(host, {
      folder: workspace.path,
      ...(options.viewport ? { viewport: options.viewport } : {}),
      onConsole: browserConsole.record,
    });
  });

  postMortemOnFailure(async () =>
    workbench ? { page: workbench.page, consoleLines: browserConsole.lines, userDataDir: (await sharedHost()).userDataDir } : undefined,
  );

  after(async () => {
    await workbench?.close();
    workspace?.remove();
    workbench = undefined;
    workspace = undefined;
  });

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is only available inside the tests of a useWorkbench() block`);
    return value;
  };

  return {
    get page() {
      return need(workbench, 'page').page;
    },
    get workbench() {
      return need(workbench, 'workbench');
    },
    get workspace() {
      return need(workspace, 'workspace').path;
    },
    sidebarFrame() {
      return openSidebar(need(workbench, 'page').page);
    },
  };
}

/** Opens the Plan & Execute sidebar and returns the frame holding its `#app` root, once rendered. */
export async function openSidebar(page: Page): Promise<Frame> {
  // The activity-bar entry exists once the extension's contributions are in. Clicking the entry of the
  // container already shown would hide the sidebar, so click only when it is not the checked one.
  const entry = page.locator('[aria-label^="Plan & Execute"]');
  const item = page.locator('.activitybar .action-item', { has: entry }).first();
  const shown = page.locator('.activitybar .action-item.checked', { has: entry }).first();
  await item.waitFor({ state: 'visible', timeout: 60_000 });
  // A command run just before may open the container at any moment (after activating the extension), so
  // one look is not enough: a click that crossed that opening closed it again. Click until it stays shown.
  const deadline = Date.now() + 60_000;
  while (!(await shown.isVisible())) {
    if (Date.now() > deadline) throw new Error('the Plan & Execute sidebar did not open');
    await item.click({ timeout: 5_000 }).catch(() => undefined);
    await shown.waitFor({ state: 'visible', timeout: 2_000 }).catch(() => undefined);
  }
  // The board's webview has an #app too: look for the sidebar's.
  const frame = await findWebviewFrame(page, 'body[data-surface="sidebar"] #app', { timeoutMs: 60_000 });
  // Rendered means the host answered `ready` with a snapshot and the app drew it.
  await frame.waitForSelector('#app > *', { timeout: 60_000 });
  return frame;
}
