/**
 * Webview bench: a 500-step plan rendered by the real bundle (media/webview.js) in headless Chromium
 * (playwright-core, Debian's chromium), in a plain page shaped like each surface's shell with a stubbed
 * acquireVsCodeApi (test/support/webview/webviewPage.ts). For the sidebar and for the mission board it
 * measures (1) the first render of the snapshot, (2) painting one step's status change, and on the board
 * (3) selecting another step (details pane and graph highlight). Times are wall-clock in the page, from
 * posting the message to the next frame after the DOM settled; ratios are within one run.
 *
 *   node esbuild.mjs --production && npx tsx bench/webview/index.ts [--steps 500] [--runs 5] [--screenshot DIR]
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, openWebviewPage } from '../../test/support/webview/webviewPage';
import type { SurfaceKind } from '../../src/webview/protocol';
import { syntheticState } from './fixture';

const root = resolve(__dirname, '..', '..');
const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? (process.argv[i + 1] as string) : fallback;
};
const STEPS = Number(arg('steps', '500'));
const RUNS = Number(arg('runs', '5'));
const SCREENSHOTS = arg('screenshot', '');

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const fmt = (xs: number[]): string => `${median(xs).toFixed(1)} ms   [runs: ${xs.map((x) => x.toFixed(0)).join(', ')}]`;

/** A plan with some width: each step depends on the one three before it (three parallel chains, joins every 7th). */
function benchState(steps: number, rev: number): ReturnType<typeof syntheticState> {
  const state = syntheticState(steps, rev);
  const m = state.mission!;
  m.steps = m.steps.map((s, k) => {
    const i = k + 1;
    return { ...s, dependsOn: i <= 3 ? [] : i % 7 === 0 ? [`s${i - 3}`, `s${i - 1}`] : [`s${i - 3}`] };
  });
  return state;
}

/** Posts a snapshot; resolves when `expected` step elements exist (and, on the board, the curves are drawn), one frame later. */
async function timeRender(page: Page, state: unknown, expected: number, surface: SurfaceKind): Promise<number> {
  return page.evaluate(
    async ({ state, expected, board }) => {
      const t0 = performance.now();
      window.postMessage({ type: 'state', state }, '*');
      await new Promise<void>((r) => {
        const poll = (): void => {
          const items = document.querySelectorAll(board ? '.node[data-step-id]' : '.step-row[data-step-id]');
          const drawn = !board || document.querySelectorAll('svg.edges path').length > 0;
          if (items.length === expected && drawn) requestAnimationFrame(() => setTimeout(r, 0));
          else setTimeout(poll, 0);
        };
        poll();
      });
      return performance.now() - t0;
    },
    { state, expected, board: surface === 'board' },
  );
}

async function timeStatus(page: Page, stepId: string): Promise<number> {
  return page.evaluate(async (id) => {
    const t0 = performance.now();
    window.postMessage({ type: 'didChangeStepStatus', rev: 3, stepId: id, status: 'running' }, '*');
    await new Promise<void>((r) => {
      const poll = (): void => {
        if (document.querySelector(`[data-step-id="${id}"]`)?.getAttribute('data-status') === 'running') requestAnimationFrame(() => setTimeout(r, 0));
        else setTimeout(poll, 0);
      };
      poll();
    });
    return performance.now() - t0;
  }, stepId);
}

async function timeSelect(page: Page, stepId: string): Promise<number> {
  return page.evaluate(async (id) => {
    const t0 = performance.now();
    window.postMessage({ type: 'didSelectStep', stepId: id }, '*');
    await new Promise<void>((r) => {
      const poll = (): void => {
        if (document.querySelector(`[data-testid="step-details"][data-step-id="${id}"]`)) requestAnimationFrame(() => setTimeout(r, 0));
        else setTimeout(poll, 0);
      };
      poll();
    });
    return performance.now() - t0;
  }, stepId);
}

async function frameFloor(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const t0 = performance.now();
    await new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return performance.now() - t0;
  });
}

async function main(): Promise<void> {
  const bundle = join(root, 'media', 'webview.js');
  if (!existsSync(bundle)) throw new Error('media/webview.js is missing: run `node esbuild.mjs --production` first');
  const browser = await launchChromium();
  const results: Record<SurfaceKind, { renders: number[]; small: number[]; updates: number[]; selects: number[]; floors: number[]; inDom: number }> = {
    sidebar: { renders: [], small: [], updates: [], selects: [], floors: [], inDom: 0 },
    board: { renders: [], small: [], updates: [], selects: [], floors: [], inDom: 0 },
  };
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const surface of ['sidebar', 'board'] as SurfaceKind[]) {
        const r = results[surface];
        const view = await openWebviewPage(browser, { surface });
        // A warm-up render of a small plan, so the big one does not pay only for first-use element upgrades.
        r.small.push(await timeRender(view.page, benchState(5, 1), 5, surface));
        r.renders.push(await timeRender(view.page, benchState(STEPS, 2), STEPS, surface));
        r.inDom = await view.page.locator('[data-step-id]').count();
        r.floors.push(await frameFloor(view.page));
        r.updates.push(await timeStatus(view.page, `s${Math.ceil(STEPS / 2)}`));
        if (surface === 'board') r.selects.push(await timeSelect(view.page, `s${STEPS - 1}`));
        if (SCREENSHOTS && run === 0) await view.page.screenshot({ path: join(SCREENSHOTS, `bench-${surface}.png`) });
        await view.close();
      }
    }
  } finally {
    await browser.close();
  }
  console.log(`webview bench: ${STEPS}-step plan, ${RUNS} runs, Chromium headless, media/webview.js (${(statSync(bundle).size / 1024).toFixed(0)} KB)`);
  for (const surface of ['sidebar', 'board'] as SurfaceKind[]) {
    const r = results[surface];
    console.log(`  ${surface}:`);
    console.log(`    elements with a step id:        ${r.inDom}`);
    console.log(`    first render (median):          ${fmt(r.renders)}`);
    console.log(`    5-step render (median):         ${fmt(r.small)}`);
    console.log(`    one status change (median):     ${fmt(r.updates)}`);
    if (surface === 'board') console.log(`    select another step (median):   ${fmt(r.selects)}`);
    console.log(`    empty frame floor (median):     ${median(r.floors).toFixed(2)} ms`);
    console.log(`    ratio first render / one update: ${(median(r.renders) / median(r.updates)).toFixed(0)}x`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
