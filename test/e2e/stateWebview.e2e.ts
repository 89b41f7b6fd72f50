/**
 * The webview app on its own (media/webview.js in headless Chromium), as the sidebar and as the board: a
 * model call that waits is shown as "waiting for the model" and counted down; a stopped mission's actions
 * are buttons that post protocol-valid messages (Continue, the setting to raise, Revert mission); a reverted
 * step says so and offers no Revert. Screenshots go to test-results/state/.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { restatus, syntheticState } from '../../bench/webview/fixture';
import { repoRoot } from '../support/host/hostPaths';
import type { WebviewPage } from '../support/webview/webviewPage';
import { useWebviewApp } from './support/webviewApp';
import { FromWebviewSchema, type SurfaceKind, type SurfaceState } from '../../src/webview/protocol';

function waitingState(): SurfaceState {
  const state = syntheticState(3, 10);
  const m = state.mission!;
  m.steps[0] = { ...m.steps[0]!, status: 'running', attempt: 1 };
  m.waits = [{ role: 'executor', stepId: 's1', reason: 'rate_limited', until: new Date(Date.now() + 8_000).toISOString(), message: '429 rate_limit_error' }];
  return restatus(state);
}

function stoppedState(): SurfaceState {
  const state = syntheticState(3, 20);
  const m = state.mission!;
  m.live = false;
  m.phase = 'failed';
  m.outcome = 'budget_exceeded';
  m.phaseLabel = 'stopped: budget';
  m.summary = 'the replan budget ran out: 3 of 3 replans used (raise planExecute.limits.maxReplans, then continue the mission)';
  m.steps = m.steps.map((s, i) => ({
    ...s,
    status: i === 0 ? 'succeeded' : i === 1 ? 'reverted' : 'failed',
    files: i < 2 ? [{ path: `src/m${i}.ts`, change: 'modified', beforeHash: 'a', afterHash: 'b' }] : [],
  }));
  m.actions = [{ kind: 'continue' }, { kind: 'openSettings', query: 'planExecute.limits.maxReplans', label: 'Raise the limit' }, { kind: 'revertMission' }];
  return restatus(state);
}

for (const surface of ['sidebar', 'board'] as SurfaceKind[]) {
  describe(`honest state webview (E2E, plain Chromium): the ${surface}`, () => {
    let view: WebviewPage;
    useWebviewApp({ surface }, (opened) => {
      view = opened;
    });

    it('shows a model call that waits, counting down to its retry', async () => {
      const { page } = view;
      await view.send({ type: 'state', state: waitingState() });
      const wait = page.locator('[data-testid="model-wait"]').first();
      await wait.waitFor({ state: 'visible', timeout: 15_000 });
      const first = (await wait.innerText()).trim();
      // Counted from 8 s; a loaded machine may take a second or two to draw it.
      assert.match(first, /^s1: waiting for the model \(rate limited\), [4-8] s$/);
      const seconds = Number(/(\d+) s$/.exec(first)?.[1]);
      await page.waitForFunction(
        (s) => {
          const m = /(\d+) s$/.exec(document.querySelector('[data-testid="model-wait"]')?.textContent ?? '');
          return m !== null && Number(m[1]) < s;
        },
        seconds,
        { timeout: 5_000 },
      );
      mkdirSync(join(repoRoot, 'test-results', 'state'), { recursive: true });
      await page.screenshot({ path: join(repoRoot, 'test-results', 'state', `webview-${surface}-waiting.png`) });
    });

    it("offers a stopped mission's actions as buttons that post valid messages; a reverted step offers no revert", async () => {
      const { page } = view;
      await view.send({ type: 'state', state: stoppedState() });
      await page.waitForSelector('[data-testid="continue-mission"]', { timeout: 15_000 });
      assert.equal(await page.locator('[data-testid="model-wait"]').count(), 0, 'the wait is gone with the snapshot that has none');
      assert.equal((await page.locator('[data-testid="mission-header"] .badge.phase').first().innerText()).trim(), 'stopped: budget');
      await page.evaluate('window.__posted.length = 0');
      await page.click('[data-testid="continue-mission"]');
      await page.click('[data-testid="open-settings"]');
      await page.click('[data-testid="revert-mission"]');
      const posted = await view.posted();
      for (const m of posted) assert.ok(FromWebviewSchema.safeParse(m).success, `invalid message posted: ${JSON.stringify(m)}`);
      assert.deepEqual(posted, [{ type: 'continueMission' }, { type: 'openSettings', query: 'planExecute.limits.maxReplans' }, { type: 'revertMission' }]);
      if (surface === 'board') {
        await page.click('.node[data-step-id="s2"]');
        await page.waitForSelector('[data-testid="step-details"][data-step-id="s2"]');
        assert.equal(await page.locator('[data-testid="step-details"] [data-testid="revert-step"]').count(), 0, 'a reverted step is not offered again');
        assert.match(await page.locator('[data-testid="step-details"]').innerText(), /Changed files \(1, reverted since\)/);
        await page.click('.node[data-step-id="s1"]');
        await page.waitForSelector('[data-testid="step-details"][data-step-id="s1"] [data-testid="revert-step"]');
      }
      await page.screenshot({ path: join(repoRoot, 'test-results', 'state', `webview-${surface}-stopped.png`) });
    });
  });
}
