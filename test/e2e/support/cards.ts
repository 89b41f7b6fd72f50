/**
 * Deciding an approval card as a user does, without racing the queue. A card that has just moved (a card above
 * it went, the header above the queue changed) ignores pointer clicks for a moment and says so on the card
 * (src/webview/render/approvals.ts). So: wait until it has settled, click, then wait for the outcome the card
 * shows — gone (the host has the decision) or "not taken" (it moved again just then: click again).
 */
import type { Frame, Locator } from 'playwright-core';

export type CardAction = 'approve-action' | 'reject-action' | 'approve-step';

/** Clicks `action` on `card` until the card is gone. A rejection needs its reason typed first. */
export async function decideCard(frame: Frame, card: Locator, action: CardAction, timeoutMs = 60_000): Promise<void> {
  const id = await card.getAttribute('data-request-id', { timeout: timeoutMs });
  if (!id) throw new Error('decideCard: the locator is not an approval card (no data-request-id)');
  const selector = `.card[data-request-id="${id}"]`;
  const deadline = Date.now() + timeoutMs;
  const left = (): number => Math.max(1, deadline - Date.now());
  for (let attempt = 1; attempt <= 5; attempt++) {
    const ignoredBefore = Number((await frame.locator(selector).getAttribute('data-ignored-clicks', { timeout: left() })) ?? 0);
    await frame.locator(`${selector}:not(.settling)`).waitFor({ state: 'visible', timeout: left() });
    await frame.locator(`${selector} [data-testid="${action}"]`).click({ timeout: left() });
    const outcome = await frame.waitForFunction(
      ({ sel, before }) => {
        const el = document.querySelector(sel);
        if (!el) return 'taken';
        return Number(el.getAttribute('data-ignored-clicks') ?? 0) > before ? 'ignored' : false;
      },
      { sel: selector, before: ignoredBefore },
      { timeout: left() },
    );
    if ((await outcome.jsonValue()) === 'taken') return;
  }
  throw new Error(`card ${id}: ${action} was not taken after 5 clicks (the card kept moving)`);
}
