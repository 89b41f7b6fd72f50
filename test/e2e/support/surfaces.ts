/**
 * The extension's surfaces in the real workbench, as a user sees them: the mission board's webview frame,
 * the status-bar item, the view's badge on the activity bar, the API key set through the sidebar's button,
 * and the shared host's settings pointed at a scripted model server.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { repoRoot } from '../../support/host/hostPaths';
import { findWebviewFrame } from '../../support/host/webviewFrame';
import type { MessagesServer } from '../../support/messages-server/server';
import { runFromPalette } from './palette';
import { sharedHost } from './session';

/** The mission board's frame, once it has rendered a snapshot. */
export async function boardFrame(page: Page, timeoutMs = 60_000): Promise<Frame> {
  const frame = await findWebviewFrame(page, 'body[data-surface="board"] [data-testid="board"]', { timeoutMs });
  return frame;
}

/** The Plan & Execute status-bar item (whatever it says). */
export function statusBarItem(page: Page): Locator {
  return page.locator('.statusbar-item[id$="planExecute.status"]').first();
}

/** The number on the Plan & Execute activity-bar entry (null when there is no badge). */
async function viewBadge(page: Page): Promise<string | null> {
  const badge = page
    .locator('.activitybar .action-item', { has: page.locator('[aria-label^="Plan & Execute"]') })
    .locator('.badge .badge-content')
    .first();
  if (!(await badge.isVisible().catch(() => false))) return null;
  return ((await badge.textContent()) ?? '').trim() || null;
}

/** Waits until the activity-bar badge reads `expected` (null: no badge); returns what it last read. */
export async function waitForBadge(page: Page, expected: string | null, timeoutMs = 15_000): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await viewBadge(page);
    if (now === expected || Date.now() > deadline) return now;
    await page.waitForTimeout(200);
  }
}

export const byTestId = (frame: Frame, testId: string): Locator => frame.locator(`[data-testid="${testId}"]`).first();

export async function waitEnabled(frame: Frame, testId: string, timeoutMs: number): Promise<void> {
  await frame.waitForSelector(`[data-testid="${testId}"]:not([disabled])`, { timeout: timeoutMs });
}

/** Stores a key through the sidebar's "Set API key" button (the command's password box) when none is set. */
export async function ensureApiKey(page: Page, frame: Frame): Promise<void> {
  const setKey = byTestId(frame, 'set-api-key');
  if (!(await setKey.isVisible().catch(() => false))) return;
  await setKey.click();
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill('sk-ant-e2e-key');
  await page.keyboard.press('Enter');
  await frame.waitForSelector('[data-testid="set-api-key"]', { state: 'detached', timeout: 15_000 });
}

/** Merges `values` into the shared host's user settings (picked up live by open workbenches). */
export async function updateUserSettings(values: Record<string, unknown>): Promise<void> {
  mergeSettingsFile(join((await sharedHost()).userDataDir, 'User', 'settings.json'), values);
}

/**
 * Merges `values` into the shared host's remote settings (code-server's Machine/settings.json; the Settings
 * editor's Remote tab), where a remote window reads machine-scoped settings such as planExecute.baseUrl.
 * Written into the User file instead, such a setting counts only while the workbench has not yet learnt
 * the extension's schema when it parses that file: after a window reload it often has, drops the value,
 * and the extension falls back to the public API (seen: "could not reach https://api.anthropic.com").
 */
async function updateMachineSettings(values: Record<string, unknown>): Promise<void> {
  mergeSettingsFile(join((await sharedHost()).userDataDir, 'Machine', 'settings.json'), values);
}

function mergeSettingsFile(file: string, values: Record<string, unknown>): void {
  const settings = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...settings, ...values }, null, 2));
}

/** Picks a colour theme the way a user does: "Preferences: Color Theme", type its label, Enter. */
export async function selectColorTheme(page: Page, label: string): Promise<void> {
  await runFromPalette(page, 'Preferences: Color Theme');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(label);
  await page
    .locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${label}\\s*$`) }) })
    .first()
    .waitFor({ state: 'visible', timeout: 15_000 });
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: 15_000 });
}

/** Points the shared host at `server` (before the workbench opens; open workbenches pick it up live). */
export async function useModelServer(server: MessagesServer): Promise<void> {
  await updateMachineSettings({ 'planExecute.baseUrl': server.url });
  await updateUserSettings({ 'planExecute.approvalMode': 'ask' });
}

/** Saves a screenshot of the page under test-results/<dir>/<name>.png. */
export async function shot(page: Page, dir: string, name: string): Promise<string> {
  const target = join(repoRoot, 'test-results', dir);
  mkdirSync(target, { recursive: true });
  const file = join(target, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}
