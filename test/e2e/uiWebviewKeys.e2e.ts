/**
 * Keyboard approvals by intent, in the webview app on its own (plain Chromium, the page's clock under the
 * test's control so "too soon" is exact): Enter on an edit approves it and focus moves to the next card, a
 * command; holding Enter (a repeated keydown) does not run the command; a fresh Enter while the command card
 * has only just got focus is not taken and the card says so in words; a deliberate Enter once it has had
 * focus for a moment runs it. Meanwhile Approve all for this step (it would run the command too) waits as
 * well, and Skip, which runs nothing, is taken at once. A command card the user Tabs to takes Enter at once.
 */
import { strict as assert } from 'node:assert';
import { restatus, syntheticState } from '../../bench/webview/fixture';
import type { WebviewPage } from '../support/webview/webviewPage';
import { useWebviewApp } from './support/webviewApp';
import type { SurfaceState } from '../../src/webview/protocol';
import { ARM_MS } from '../../src/webview/keyIntent';
import { shot } from './support/surfaces';

describe('ui webview (E2E, plain Chromium): a key press decides only the card it was aimed at', () => {
  let view: WebviewPage;
  let rev = 200;
  const next = (change: (s: SurfaceState) => void = () => undefined): SurfaceState => {
    const s = syntheticState(3, ++rev);
    change(s);
    return restatus(s);
  };
  const decided = async (requestId: string): Promise<boolean> =>
    (await view.posted()).some(
      (m) => (m as { type: string; requestId?: string }).type === 'approveAction' && (m as { requestId?: string }).requestId === requestId,
    );
  const focusedCard = (): Promise<string | null> =>
    view.page.evaluate(() =>
      document.activeElement?.getAttribute('data-testid') === 'approve-action'
        ? (document.activeElement.closest('.card')?.getAttribute('data-request-id') ?? null)
        : null,
    );

  useWebviewApp(
    { surface: 'sidebar' },
    async (opened) => {
      view = opened;
      // The page's clock stands still unless the test moves it: "at once" and "a moment later" are exact.
      await view.page.clock.install();
      await view.page.clock.pauseAt(Date.now() + 1_000);
      await view.send({ type: 'state', state: next() });
      await view.page.waitForSelector('[data-request-id="r2"][data-testid="approval-command"]');
    },
    { each: true },
  );

  it('a held Enter approves the edit, never the command focus moved to; too soon is said; a deliberate Enter runs it', async () => {
    const { page } = view;
    await page.focus('[data-request-id="r1"] [data-testid="approve-action"]');
    await page.keyboard.down('Enter');
    assert.ok(await decided('r1'), 'the edit was approved');
    await view.send({ type: 'state', state: next((s) => (s.approvals = s.approvals.filter((a) => a.requestId !== 'r1'))) });
    await page.waitForFunction(() => document.activeElement?.closest('.card')?.getAttribute('data-request-id') === 'r2');
    assert.equal(await focusedCard(), 'r2', 'focus moved on to the command card (screen readers rely on it)');

    // The same key, still held: the browser repeats it. It runs nothing.
    await page.keyboard.down('Enter');
    await page.keyboard.down('Enter');
    await page.keyboard.up('Enter');
    assert.equal(await decided('r2'), false, 'a held Enter did not run the command');
    assert.equal(await page.locator('[data-request-id="r2"] [data-testid="key-too-soon"]').count(), 0, 'a held key is simply not taken');

    // A second press right away (a reflex, meant for the edit): not taken, and said on the card.
    await page.keyboard.press('Enter');
    assert.equal(await decided('r2'), false, 'a second Enter at once did not run the command');
    const note = await page.locator('[data-request-id="r2"] [data-testid="key-too-soon"]').innerText();
    assert.match(note, /had only just got focus.*Press Enter again to run the command/);
    assert.equal(await focusedCard(), 'r2', 'focus stays on the command');
    await page.locator('[data-request-id="r2"]').scrollIntoViewIfNeeded();
    await shot(page, 'surfaces', 'k09-key-too-soon');

    // A deliberate press, once the card has had focus for a moment: it runs.
    await page.clock.runFor(ARM_MS + 50);
    assert.equal(await page.locator('[data-request-id="r2"].arming').count(), 0);
    await page.keyboard.press('Enter');
    assert.ok(await decided('r2'), 'a deliberate Enter runs the command');
  });

  it('while a command card has only just got focus, Approve all for this step waits too, and Skip (it runs nothing) is taken at once', async () => {
    const { page } = view;
    const posted = async (type: string): Promise<boolean> =>
      (await view.posted()).some((m) => (m as { type: string; requestId?: string; stepId?: string }).type === type);
    await page.focus('[data-request-id="r1"] [data-testid="approve-action"]');
    await page.keyboard.press('Enter');
    assert.ok(await decided('r1'));
    await view.send({ type: 'state', state: next((s) => (s.approvals = s.approvals.filter((a) => a.requestId !== 'r1'))) });
    await page.waitForFunction(() => document.activeElement?.closest('.card')?.getAttribute('data-request-id') === 'r2');
    assert.equal(await page.locator('[data-request-id="r2"].arming').count(), 1, 'the clock stands still: the card is still arming');

    // Approve all for this step would run the command too: a press on it this soon is not taken.
    await page.focus('[data-request-id="r2"] [data-testid="approve-step"]');
    await page.keyboard.press('Enter');
    assert.equal(await posted('approveStep'), false, 'Approve all for this step did not run the command this soon');
    assert.equal(await page.locator('[data-request-id="r2"] [data-testid="key-too-soon"]').count(), 1, 'and the card says why');

    // Skip with a reason runs nothing: taken at once, arming or not.
    await page.fill('[data-request-id="r2"] [data-testid="reject-reason"] input', 'not now');
    await page.focus('[data-request-id="r2"] [data-testid="reject-action"]');
    await page.keyboard.press('Enter');
    const skip = (await view.posted()).find((m) => (m as { type: string }).type === 'rejectAction') as { requestId?: string; reason?: string } | undefined;
    assert.deepEqual(skip && { requestId: skip.requestId, reason: skip.reason }, { requestId: 'r2', reason: 'not now' });
    assert.equal(await decided('r2'), false, 'nothing approved the command');
  });

  it('a command card the user moved to takes Enter at once: the wait is only for focus the queue moved', async () => {
    const { page } = view;
    await page.focus('[data-request-id="r2"] [data-testid="approve-action"]');
    await page.keyboard.press('Enter');
    assert.ok(await decided('r2'));
  });
});
