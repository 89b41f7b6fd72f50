/**
 * The webview app on its own (plain Chromium, as in uiWebview.e2e.ts): clicks while the host keeps sending.
 * During a mission snapshots arrive often and each one re-renders the surface; a click must never be lost to
 * that — neither one pressed while a snapshot lands (the pressed element would be gone at the release), nor one
 * that a card ignored because it had just moved (it must say so, and take the next click).
 */
import { strict as assert } from 'node:assert';
import { syntheticState } from '../../bench/webview/fixture';
import type { WebviewPage } from '../support/webview/webviewPage';
import { useWebviewApp } from './support/webviewApp';
import type { SurfaceState } from '../../src/webview/protocol';

describe('ui webview (E2E, plain Chromium): clicks while the host keeps sending', () => {
  let view: WebviewPage;
  let rev = 1;

  /** The same mission and cards in a new snapshot; `noticeAbove` adds a line above the queue. */
  function snapshot(noticeAbove: boolean): SurfaceState {
    const state = syntheticState(3, ++rev);
    state.notices = noticeAbove ? [{ id: 'n1', level: 'warning', message: 'A notice above the queue', actions: [] }] : [];
    return state;
  }

  useWebviewApp(
    { surface: 'sidebar' },
    async (opened) => {
      view = opened;
      await view.send({ type: 'state', state: snapshot(false) });
      await view.page.waitForSelector('[data-request-id="r1"]');
    },
    { each: true },
  );

  it('takes a click whose press and release straddle a snapshot, and draws the snapshot after it', async () => {
    const { page } = view;
    const box = await page.locator('[data-request-id="r1"] [data-testid="approve-action"]').boundingBox();
    assert.ok(box);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    // A snapshot lands while the pointer is down; one look, soon after, at what the page shows (well inside
    // the hold's 3 s limit even on a loaded machine: a single round trip).
    const next = snapshot(false);
    const shownWhilePressed = await page.evaluate(async (state) => {
      window.postMessage({ type: 'state', state }, '*');
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)));
      return document.querySelector('main')?.getAttribute('data-rev') ?? null;
    }, next);
    assert.equal(shownWhilePressed, String(next.rev - 1), 'nothing is re-rendered under a pressed pointer');
    await page.mouse.up();
    await page.waitForFunction((r) => document.querySelector('main')?.getAttribute('data-rev') === r, String(next.rev));
    assert.deepEqual(
      (await view.posted()).filter((m) => (m as { type: string }).type !== 'ready'),
      [{ type: 'approveAction', requestId: 'r1', remember: false }],
      'the click reached Approve',
    );
  });

  it('says so on a card that ignored a click because it had just moved, and takes the next click once it settled', async () => {
    const { page } = view;
    await view.send({ type: 'state', state: snapshot(true) }); // the notice pushes the cards down
    await page.waitForSelector('[data-testid="notice"]');
    await page.waitForSelector('[data-request-id="r1"]:not(.settling)');
    // The notice goes, the cards move up, and a pointer click lands right then (as a stray second click would).
    const clicked = await page.evaluate((state) => {
      return new Promise<{ settling: boolean } | null>((resolve) => {
        // Registered after the app's own listener, so it runs once the snapshot is drawn.
        window.addEventListener(
          'message',
          () => {
            const card = document.querySelector('[data-request-id="r1"]');
            const approve = card?.querySelector('[data-testid="approve-action"]');
            if (!card || !approve) return resolve(null);
            const settling = card.classList.contains('settling');
            approve.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, detail: 1 }));
            resolve({ settling });
          },
          { once: true },
        );
        window.postMessage({ type: 'state', state }, '*');
      });
    }, snapshot(false));
    assert.deepEqual(clicked, { settling: true }, 'the card that moved was there, settling, when clicked');
    assert.deepEqual(
      (await view.posted()).filter((m) => (m as { type: string }).type !== 'ready'),
      [],
      'the click on the moving card decided nothing',
    );
    await page.waitForSelector('[data-request-id="r1"][data-ignored-clicks="1"] [data-testid="click-ignored"]');
    assert.match(await page.locator('[data-request-id="r1"] [data-testid="click-ignored"]').innerText(), /Not taken.*Click again/);

    // The note outlives re-renders; once the card has settled, a click is taken.
    await view.send({ type: 'state', state: snapshot(false) });
    await page.waitForSelector('[data-request-id="r1"]:not(.settling) [data-testid="click-ignored"]');
    await page.click('[data-request-id="r1"] [data-testid="approve-action"]');
    assert.deepEqual(
      (await view.posted()).filter((m) => (m as { type: string }).type !== 'ready'),
      [{ type: 'approveAction', requestId: 'r1', remember: false }],
    );
  });
});
