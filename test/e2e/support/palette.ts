/**
 * The command palette, driven as a user drives it. The palette lists the commands known when it opens,
 * and an extension's contributions arrive a little after the workbench draws; so a palette opened too
 * early is closed and opened again until the row shows or the deadline passes; so is one that lost the
 * focus (and closed) while we typed.
 */
import type { Locator, Page } from 'playwright-core';

/**
 * Opens the palette (F1), types `query`, and returns the row whose command label is exactly `label` (a
 * string), or matches it (a RegExp). Exact, because "Plan & Execute" is also the category prefix of every
 * other command of the extension ("Plan & Execute: Cancel Mission").
 */
export async function findInCommandPalette(page: Page, query: string, label: string | RegExp = query, timeoutMs = 60_000): Promise<Locator> {
  const deadline = Date.now() + timeoutMs;
  const input = page.locator('.quick-input-widget input');
  const name = typeof label === 'string' ? new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) : label;
  const row = page
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: name }) })
    .first();
  for (;;) {
    try {
      if (!(await input.isVisible())) {
        // Take the focus back from whatever had it, such as a webview frame, so F1 reaches the workbench:
        // blur it (a webview may cover the whole editor area, so a click there would land in the webview).
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: 5_000 });
      }
      // A webview that finishes loading takes the focus, which closes the palette: every step here is
      // short and the whole attempt is retried.
      await input.fill(`>${query}`, { timeout: 5_000 });
      await row.waitFor({ state: 'visible', timeout: 5_000 });
      return row;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      if (await input.isVisible()) await page.keyboard.press('Escape');
      await input.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    }
  }
}

/**
 * Runs a command by its palette label, e.g. `runFromPalette(page, 'Plan & Execute')`. The focus can be
 * stolen between finding the row and clicking it too: a click that cannot land (the palette closed under
 * it) ran nothing, so the whole attempt is repeated. A click that landed is never repeated, even when the
 * command opens another quick input, so a command runs at most once.
 */
export async function runFromPalette(page: Page, label: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await findInCommandPalette(page, label, label, Math.max(0, deadline - Date.now()));
    try {
      await row.click({ timeout: 5_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}
