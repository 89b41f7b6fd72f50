/**
 * The webview app on its own (plain Chromium): no flicker. A surface shown again draws its last snapshot at
 * once, before the host has answered (marked busy and inert until it does); a snapshot that changes one
 * section keeps every other section's elements (and the focus in them); buttons carry their codicons in
 * the light DOM (no per-button stylesheet to wait for); and the focus model's rules hold: a decision moves
 * focus to the next card, a card that arrives while nothing is focused gets it, the queue asked for with
 * nothing waiting says so.
 */
import { strict as assert } from 'node:assert';
import { restatus, syntheticState } from '../../bench/webview/fixture';
import type { WebviewPage } from '../support/webview/webviewPage';
import { useWebviewApp } from './support/webviewApp';
import type { SurfaceState } from '../../src/webview/protocol';

const cached = syntheticState(3, 40);
const saved = { ui: { selectedStepId: null, drafts: {}, collapsed: {} }, snapshot: cached };

describe('ui webview (E2E, plain Chromium): a sidebar shown again draws at once', () => {
  let view: WebviewPage;
  useWebviewApp({ surface: 'sidebar', savedState: saved }, (opened) => {
    view = opened;
  });

  it('draws the last snapshot before the host answers, inert until it does, then the fresh one', async () => {
    const { page } = view;
    // No host message was sent yet: what shows is the cached snapshot.
    await page.waitForSelector('[data-request-id="r1"]', { timeout: 5_000 });
    assert.equal(await page.locator('#app[aria-busy]').count(), 1, 'marked busy until the host answers');
    const pointer = await page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="approve-action"]')!).pointerEvents);
    assert.equal(pointer, 'none', 'its buttons take no click yet');
    const fresh = syntheticState(3, 1); // a new host numbers from 1 again: still newer than the cached one
    fresh.approvals = fresh.approvals.filter((a) => a.requestId !== 'r1');
    await view.send({ type: 'state', state: restatus(fresh) });
    await page.waitForSelector('[data-request-id="r1"]', { state: 'detached', timeout: 5_000 });
    assert.equal(await page.locator('#app[aria-busy]').count(), 0);
  });
});

describe('ui webview (E2E, plain Chromium): steady sections, icons and focus', () => {
  let view: WebviewPage;
  let rev = 100;
  const next = (change: (s: SurfaceState) => void = () => undefined): SurfaceState => {
    const s = syntheticState(3, ++rev);
    change(s);
    return restatus(s);
  };

  useWebviewApp(
    { surface: 'sidebar' },
    async (opened) => {
      view = opened;
      await view.send({ type: 'state', state: next() });
      await view.page.waitForSelector('[data-request-id="r1"]');
    },
    { each: true },
  );

  it('keeps unchanged sections as they are (the same elements) when another one changes', async () => {
    const { page } = view;
    await page.evaluate(() => {
      (window as unknown as { __steps: Element | null }).__steps = document.querySelector('[data-testid="step-list"]');
      (window as unknown as { __rules: Element | null }).__rules = document.querySelector('[data-testid="rules"]');
    });
    await view.send({ type: 'state', state: next((s) => (s.approvals = s.approvals.filter((a) => a.requestId !== 'r2'))) });
    await page.waitForSelector('[data-request-id="r2"]', { state: 'detached' });
    assert.deepEqual(
      await page.evaluate(() => ({
        rules: (window as unknown as { __rules: Element | null }).__rules === document.querySelector('[data-testid="rules"]'),
      })),
      { rules: true },
      'the rules section is the same element',
    );
  });

  it('draws button icons in the light DOM: no <vscode-icon> to load a stylesheet per button', async () => {
    const { page } = view;
    const counts = await page.evaluate(() => ({
      buttons: document.querySelectorAll('vscode-button').length,
      withIconAttribute: document.querySelectorAll('vscode-button[icon]').length,
      shadowIcons: [...document.querySelectorAll('vscode-button')].filter((b) => b.shadowRoot?.querySelector('vscode-icon')).length,
      lightIcons: document.querySelectorAll('vscode-button > .codicon').length,
    }));
    assert.ok(counts.buttons > 5 && counts.lightIcons > 5, JSON.stringify(counts));
    assert.equal(counts.withIconAttribute, 0);
    assert.equal(counts.shadowIcons, 0);
  });

  it('moves focus to the next card after a decision, and to a card that arrives while nothing is focused', async () => {
    const { page } = view;
    await page.focus('[data-request-id="r1"] [data-testid="approve-action"]');
    await page.keyboard.press('Enter');
    const approvals = (await view.posted()).filter((m) => (m as { type: string }).type === 'approveAction');
    assert.deepEqual(approvals, [{ type: 'approveAction', requestId: 'r1', remember: false }]);
    // The host answers: r1 is gone; focus is already on r2, the next card.
    await view.send({ type: 'state', state: next((s) => (s.approvals = s.approvals.filter((a) => a.requestId !== 'r1'))) });
    await page.waitForFunction(() => document.activeElement?.closest('.card')?.getAttribute('data-request-id') === 'r2');
    assert.match(await page.locator('#announcer').innerText(), /^Next: Verification run npm test, step s3\. 1 waiting for your approval\.$/);

    // r2 decided too (a command the queue focused takes a key once it has had focus a moment: keyIntent.ts):
    // nothing left, focus rests on the queue; then a card arrives and takes it.
    await page.waitForSelector('[data-request-id="r2"]:not(.arming)');
    await page.keyboard.press('Enter');
    await view.send({ type: 'state', state: next((s) => (s.approvals = [])) });
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'approvals');
    assert.equal(await page.locator('#announcer').innerText(), 'Nothing else waits for your approval.');
    const arrives = next((s) => (s.approvals = s.approvals.filter((a) => a.requestId === 'r1').map((a) => ({ ...a, requestId: 'r3' }))));
    await view.send({ type: 'state', state: arrives });
    await page.waitForFunction(() => document.activeElement?.closest('.card')?.getAttribute('data-request-id') === 'r3');
    assert.match(await page.locator('#announcer').innerText(), /^Waiting for your approval: Edit src\/module1\.ts/);
  });

  it('says so when the queue is asked for and nothing waits', async () => {
    const { page } = view;
    await view.send({ type: 'state', state: next((s) => (s.approvals = [])) });
    await page.waitForSelector('[data-request-id]', { state: 'detached' });
    await view.send({ type: 'didRequestQueueFocus' });
    await page.waitForFunction(() => document.getElementById('announcer')?.textContent === 'Nothing waits for your approval.');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'approvals');
  });
});
