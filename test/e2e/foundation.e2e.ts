import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../support/host/hostPaths';
import { useWorkbench } from './support/session';

const SCREENSHOTS = join(repoRoot, 'test-results', 'e2e');

/**
 * Opens the command palette and types `query` until a row labelled `label` shows. The palette lists the
 * commands known when it opens, and the extension's contributions arrive a little after the workbench
 * draws; so a palette opened too early is closed and opened again, until the deadline.
 */
async function findInCommandPalette(page: Page, query: string, label: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
  for (;;) {
    await page.locator('.monaco-workbench').click({ position: { x: 700, y: 300 } });
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(`>${query}`);
    try {
      await row.waitFor({ state: 'visible', timeout: 5_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

describe('foundation (E2E): the workbench with Plan & Execute', () => {
  const session = useWorkbench();

  it('lists "Plan & Execute" in the command palette', async function () {
    this.timeout(120_000);
    await findInCommandPalette(session.page, 'Plan & Execute', 'Plan & Execute');
    const labels = await session.page.locator('.quick-input-list .monaco-list-row').allTextContents();
    assert.ok(labels.some((text) => text.includes('Plan & Execute')), `palette rows: ${labels.join(' | ')}`);
  });

  it('runs the command, which opens the sidebar, and saves a screenshot of it', async function () {
    this.timeout(120_000);
    const { page } = session;
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Plan & Execute' }).first();
    if (!(await row.isVisible())) await findInCommandPalette(page, 'Plan & Execute', 'Plan & Execute');
    await row.click();
    const frame = await session.sidebarFrame();
    const text = await frame.locator('#app').innerText();
    assert.ok(text.trim().length > 0, 'the sidebar rendered nothing');
    mkdirSync(SCREENSHOTS, { recursive: true });
    const file = join(SCREENSHOTS, 'foundation-sidebar.png');
    await page.screenshot({ path: file });
    console.log(`      screenshot: ${file}`);
  });
});
