/**
 * Webview bench: renders a 500-step plan in headless Chromium (playwright-core, Debian's chromium) from
 * the real bundle media/webview.js in a plain page with a stubbed acquireVsCodeApi, then measures
 * (1) the full render of the snapshot and (2) painting one step's status change. Times are wall-clock
 * from posting the message to the next frame after the DOM settled, measured in the page.
 *
 *   node esbuild.mjs --production && npx tsx bench/webview/index.ts [--steps 500] [--runs 5] [--screenshot FILE]
 */
import { chromium } from 'playwright-core';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { syntheticState } from './fixture';

const root = resolve(__dirname, '..', '..');
const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? (process.argv[i + 1] as string) : fallback;
};
const STEPS = Number(arg('steps', '500'));
const RUNS = Number(arg('runs', '5'));
const SCREENSHOT = arg('screenshot', '');

/** A few dark-theme variables, as VS Code would inject them, so screenshots look like the sidebar. */
const THEME = `:root { --vscode-foreground: #cccccc; --vscode-descriptionForeground: #9d9d9d; --vscode-font-family: sans-serif; --vscode-font-size: 13px;
  --vscode-badge-background: #616161; --vscode-badge-foreground: #f8f8f8; --vscode-focusBorder: #0078d4; --vscode-editorWidget-background: #202020;
  --vscode-editor-font-family: monospace; --vscode-textLink-foreground: #4daafc; } body { background: #181818; }`;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

async function main(): Promise<void> {
  const bundle = join(root, 'media', 'webview.js');
  if (!existsSync(bundle)) throw new Error('media/webview.js is missing: run `node esbuild.mjs --production` first');
  const browser = await chromium.launch({
    executablePath: process.env.PLAN_EXECUTE_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const renders: number[] = [];
    const firsts: number[] = [];
    const floors: number[] = [];
    const updates: number[] = [];
    const smallRenders: number[] = [];
    let stepsInDom = 0;
    // A file:// page, so codicon.css can load its font the way the webview loads it from media/.
    const shell = join(mkdtempSync(join(tmpdir(), 'pe-bench-')), 'sidebar.html');
    const media = pathToFileURL(join(root, 'media')).toString();
    writeFileSync(shell, `<!DOCTYPE html><html><head><link rel="stylesheet" href="${media}/codicon.css" id="vscode-codicon-stylesheet"><link rel="stylesheet" href="${media}/sidebar.css"></head><body class="vscode-dark"><div id="app"></div></body></html>`);
    for (let run = 0; run < RUNS; run++) {
      const page = await browser.newPage({ viewport: { width: 400, height: 900 } });
      await page.goto(pathToFileURL(shell).toString());
      // tsx compiles the page functions below with esbuild's keepNames helper; give the page that helper.
      await page.addScriptTag({ content: 'window.__name = (f) => f;' });
      await page.evaluate(() => {
        const posted: unknown[] = [];
        (window as unknown as { __posted: unknown[] }).__posted = posted;
        (window as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => ({
          postMessage: (m: unknown) => posted.push(m),
          getState: () => undefined,
          setState: () => undefined,
        });
      });
      await page.addStyleTag({ content: THEME });
      await page.addScriptTag({ path: bundle });
      await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));

      // A warm-up render of a small plan, so the big one does not pay for first-use element upgrades only.
      smallRenders.push((await timeRender(page, syntheticState(5, 1), 5)).full);
      const big = await timeRender(page, syntheticState(STEPS, 2), STEPS);
      renders.push(big.full);
      firsts.push(big.first);
      floors.push(await frameFloor(page));
      stepsInDom = await page.locator('vscode-tree-item[data-step-id]').count();

      updates.push(
        await page.evaluate(async (stepId) => {
          const t0 = performance.now();
          window.postMessage({ type: 'didChangeStepStatus', rev: 3, stepId, status: 'running' }, '*');
          await new Promise<void>((r) => {
            const poll = (): void => {
              const el = document.querySelector(`vscode-tree-item[data-step-id="${stepId}"]`);
              if (el?.getAttribute('data-status') === 'running') requestAnimationFrame(() => setTimeout(r, 0));
              else setTimeout(poll, 0);
            };
            poll();
          });
          return performance.now() - t0;
        }, `s${Math.ceil(STEPS / 2)}`),
      );
      if (SCREENSHOT && run === 0) await page.screenshot({ path: SCREENSHOT, fullPage: false });
      await page.close();
    }
    const r = median(renders);
    const u = median(updates);
    console.log(`webview bench: ${STEPS}-step plan, ${RUNS} runs, Chromium headless, media/webview.js (${bundleKb(bundle)} KB)`);
    console.log(`  steps in DOM after render:       ${stepsInDom}`);
    console.log(`  first screen (median):           ${median(firsts).toFixed(1)} ms   [runs: ${firsts.map((x) => x.toFixed(0)).join(', ')}]`);
    console.log(`  full render (median):            ${r.toFixed(1)} ms   [runs: ${renders.map((x) => x.toFixed(0)).join(', ')}]`);
    console.log(`  5-step render (median):          ${median(smallRenders).toFixed(1)} ms`);
    console.log(`  one status change (median):      ${u.toFixed(2)} ms   [runs: ${updates.map((x) => x.toFixed(1)).join(', ')}]`);
    console.log(`  empty frame floor (median):      ${median(floors).toFixed(2)} ms`);
    console.log(`  ratio full render / one update:  ${(r / u).toFixed(0)}x`);
  } finally {
    await browser.close();
  }
}

function bundleKb(path: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { statSync } = require('node:fs') as typeof import('node:fs');
  return (statSync(path).size / 1024).toFixed(0);
}

/**
 * Posts a snapshot; returns the time until the first step item has rendered (first screen) and until
 * `expected` step items exist and the last has rendered (complete), each followed by one more frame.
 */
async function timeRender(page: import('playwright-core').Page, state: unknown, expected: number): Promise<{ first: number; full: number }> {
  return page.evaluate(
    async ({ state, expected }) => {
      const t0 = performance.now();
      let first = NaN;
      window.postMessage({ type: 'state', state }, '*');
      await new Promise<void>((r) => {
        const poll = (): void => {
          const items = document.querySelectorAll('vscode-tree-item[data-step-id]');
          const screenful = Math.min(60, expected);
          if (Number.isNaN(first) && items.length >= screenful) {
            first = -1; // measuring
            const item = items[screenful - 1] as HTMLElement & { updateComplete?: Promise<unknown> };
            void (item.updateComplete ?? Promise.resolve()).then(() => requestAnimationFrame(() => (first = performance.now() - t0)));
          }
          const last = items[items.length - 1] as (HTMLElement & { updateComplete?: Promise<unknown> }) | undefined;
          if (items.length === expected && last?.shadowRoot) {
            void (last.updateComplete ?? Promise.resolve()).then(() => requestAnimationFrame(() => setTimeout(r, 0)));
          } else setTimeout(poll, 0);
        };
        poll();
      });
      const full = performance.now() - t0;
      while (first < 0) await new Promise((r) => setTimeout(r, 1));
      return { first, full };
    },
    { state, expected },
  );
}

/** One frame with no change: the floor under every "until the next frame" figure above. */
async function frameFloor(page: import('playwright-core').Page): Promise<number> {
  return page.evaluate(async () => {
    const t0 = performance.now();
    await new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return performance.now() - t0;
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
