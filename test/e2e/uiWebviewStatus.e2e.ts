/**
 * The webview app on its own (plain Chromium): a step's status change that the host sends alone
 * (`didChangeStepStatus`, painted in place without a snapshot) leaves nothing on screen that was drawn from
 * the old status — the step's glyph, the steps-done count and the header's strip of steps running now —
 * and a card that the repainted header moved settles before it takes a click, as after a full render.
 */
import { strict as assert } from 'node:assert';
import { restatus, syntheticState } from '../../bench/webview/fixture';
import type { WebviewPage } from '../support/webview/webviewPage';
import { useWebviewApp } from './support/webviewApp';
import type { SurfaceKind, SurfaceState } from '../../src/webview/protocol';

/** A running mission of four steps: s1 done, s2 and s3 running side by side, s4 waiting for them. */
function runningState(): SurfaceState {
  const state = syntheticState(4);
  const m = state.mission!;
  m.steps = m.steps.map((s, i) => ({
    ...s,
    required: true,
    dependsOn: i === 3 ? ['s2', 's3'] : [],
    status: i === 0 ? 'succeeded' : i < 3 ? 'running' : 'pending',
  }));
  state.approvals = state.approvals.filter((a) => a.kind === 'command');
  return restatus(state);
}

for (const surface of ['sidebar', 'board'] as SurfaceKind[]) {
  describe(`ui webview (E2E, plain Chromium): the ${surface} paints a step's status change in place`, () => {
    let view: WebviewPage;
    useWebviewApp({ surface }, (opened) => {
      view = opened;
    });

    /** What the header shows: the chips of the running strip, and the steps-done count. */
    const header = () =>
      view.page.evaluate(() => ({
        running: [...document.querySelectorAll('[data-testid="mission-header"] .running-strip .chip')].map((c) => (c.textContent ?? '').trim()),
        done: document.querySelector('[data-testid="mission-header"] [data-testid="steps-done"]')?.textContent ?? '',
      }));

    it("keeps the header's running strip and count true to the steps, without a snapshot", async () => {
      const { page } = view;
      await view.send({ type: 'state', state: runningState() });
      await page.waitForSelector('[data-testid="mission-header"] .running-strip');
      assert.deepEqual(await header(), { running: ['s2', 's3'], done: '1/4 steps' });

      // Whether the card was marked settling at any moment: it settles for 450 ms only, which a loaded
      // machine can spend between the message and a look at the class (the check flaked under load).
      await page.evaluate(() => {
        const w = window as unknown as { __settled?: boolean };
        w.__settled = false;
        const root = document.querySelector('[data-testid="approvals"]');
        if (!root) return;
        new MutationObserver(() => {
          if (root.querySelector('.card[data-request-id="r2"].settling')) w.__settled = true;
        }).observe(root, { subtree: true, attributes: true, attributeFilter: ['class'], childList: true });
      });
      await view.send({ type: 'didChangeStepStatus', rev: 2, stepId: 's2', status: 'succeeded' });
      await page.waitForSelector('[data-step-id="s2"][data-status="succeeded"]');
      assert.deepEqual(await header(), { running: [], done: '2/4 steps' }, 'one step running is no longer "in parallel"');
      if (surface === 'sidebar') {
        // The strip above the queue is gone, so the card moved up: like after a render, it settles first.
        assert.equal(await page.evaluate(() => (window as unknown as { __settled?: boolean }).__settled), true);
      }

      await view.send({ type: 'didChangeStepStatus', rev: 3, stepId: 's4', status: 'running' });
      await page.waitForSelector('[data-step-id="s4"][data-status="running"]');
      assert.deepEqual(await header(), { running: ['s3', 's4'], done: '2/4 steps' });
    });
  });
}
