/**
 * Honest state in the real workbench (code-server + headless Chromium), the messages server playing the
 * model: a replan refused in words on the board, a budget stop that names its setting and offers Continue,
 * Continue finishing the same mission, Revert step through VS Code's modal with a toast listing what was
 * restored (the step then reads reverted), and Retry of a failed mission. Screenshots go to
 * test-results/state/.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { startMessagesServer, type MessagesServer } from '../support/messages-server/server';
import { DIRECT_TASK, FAREWELL_JS, PATIENCE_JS, WAIT_TASK, WAVE_JS, stateScenario } from '../integration/stateScenario';
import { runFromPalette } from './support/palette';
import { useWorkbench } from './support/session';
import { boardFrame, byTestId, ensureApiKey, shot as saveShot, updateUserSettings } from './support/surfaces';

const shot = (page: Page, name: string) => saveShot(page, 'state', name);
const TASK = 'Add farewell and wave helpers next to greet.js';

/** Starts a task from the task box — over a mission that has stopped, after "New mission" — and approves its plan. */
async function startTask(page: Page, sidebar: Frame, task: string): Promise<void> {
  if (await sidebar.locator('[data-testid="new-mission"]').count()) await byTestId(sidebar, 'new-mission').click();
  await sidebar.locator('[data-testid="task-input"] textarea').fill(task);
  await ensureApiKey(page, sidebar);
  await byTestId(sidebar, 'run-task').click();
  // Approval mode "all" runs an approved plan unattended; the plan itself still waits for the user.
  await sidebar.waitForSelector('[data-testid="approve-plan"]:not([disabled])', { timeout: 90_000 });
  await byTestId(sidebar, 'approve-plan').click();
}

/** Waits for `selector`, approving each plan version that waits meanwhile (a replan's, in "all" mode too). */
async function approvingPlansUntil(frame: Frame, selector: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await frame.locator(selector).count())) {
    assert.ok(Date.now() < deadline, `${selector} did not appear`);
    const plan = frame.locator('[data-testid="approve-plan"]:not([disabled])');
    if (await plan.count())
      await plan
        .first()
        .click()
        .catch(() => undefined);
    await frame.waitForTimeout(250);
  }
}

describe('honest state (E2E): refused replan, Continue, Revert step, Retry', () => {
  let server: MessagesServer | undefined;
  const scenario = stateScenario();

  before(async function () {
    this.timeout(180_000);
    server = await startMessagesServer({ scenario: scenario.scenario });
    await updateUserSettings({ 'planExecute.baseUrl': server.url, 'planExecute.approvalMode': 'all', 'planExecute.limits.maxReplans': 1 });
  });

  const session = useWorkbench({ viewport: { width: 1400, height: 1000 } });

  after(async () => {
    await updateUserSettings({ 'planExecute.approvalMode': 'ask', 'planExecute.limits.maxReplans': 3 });
    await server?.close();
  });

  it('shows the refused replan in words, names the setting, and Continue finishes the same mission', async function () {
    this.timeout(300_000);
    const { page } = session;
    await runFromPalette(page, 'Plan & Execute');
    const sidebar = await session.sidebarFrame();
    await startTask(page, sidebar, TASK);

    // The replan was refused and used up the budget of one: the mission stops and says what to raise.
    await sidebar.waitForSelector('[data-testid="mission-header"][data-phase="failed"]', { timeout: 90_000 });
    const summary = await byTestId(sidebar, 'mission-summary').innerText();
    assert.match(summary, /the replan budget ran out: 1 of 1 replans used \(raise planExecute\.limits\.maxReplans, then continue the mission\)/);
    await byTestId(sidebar, 'continue-mission').waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal((await byTestId(sidebar, 'open-settings').innerText()).trim(), 'Raise the limit');
    await shot(page, '01-stopped-sidebar');

    // On the board, the versions tab says why the replan was refused, in words.
    await byTestId(sidebar, 'open-board').click();
    const board = await boardFrame(page);
    await byTestId(board, 'tab-versions').click();
    const reason = board.locator('[data-testid="replan-refused"] [data-testid="refusal-reason"]').first();
    await reason.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal((await reason.innerText()).trim(), 'the new plan changed finished step s1 (instructions) without saying why');
    assert.match(await board.locator('[data-testid="replan-refused"]').first().innerText(), /Replan refused: after step s2 failed/);
    await shot(page, '02-refused-replan');

    // Fixed behind the scenes; Continue goes on from s2 with finished s1 kept.
    scenario.fix();
    const s1Calls = server!.requests.filter((r) => r.rule === 's1').length;
    await byTestId(board, 'continue-mission').click();
    await approvingPlansUntil(board, '[data-testid="mission-header"][data-phase="succeeded"]');
    assert.equal(server!.requests.filter((r) => r.rule === 's1').length, s1Calls, 'finished s1 did not run again');
    assert.equal(readFileSync(join(session.workspace, 'src', 'wave.js'), 'utf8'), WAVE_JS);
    await shot(page, '03-continued');
  });

  it('reverts a step through the modal: a toast lists what was restored and the step reads reverted', async function () {
    this.timeout(120_000);
    const { page } = session;
    const board = await boardFrame(page);
    await byTestId(board, 'tab-details')
      .click()
      .catch(() => undefined);
    await board.locator('.node[data-step-id="s2"]').click();
    await board.waitForSelector('[data-testid="step-details"][data-step-id="s2"] [data-testid="revert-step"]', { timeout: 30_000 });
    await byTestId(board, 'revert-step').click();

    const dialog = page.locator('.monaco-dialog-box').first();
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await dialog.innerText(), /Revert step s2\? This deletes src\/wave\.js\./);
    await shot(page, '04-revert-confirm');
    await dialog.locator('.monaco-button', { hasText: 'Revert step' }).first().click();

    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Reverted s2: deleted src/wave.js.' }).first();
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    await board.waitForSelector('.node[data-step-id="s2"][data-status="reverted"]', { timeout: 30_000 });
    assert.equal(existsSync(join(session.workspace, 'src', 'wave.js')), false, 'the file s2 created is gone');
    assert.equal(readFileSync(join(session.workspace, 'src', 'farewell.js'), 'utf8'), FAREWELL_JS, "s1's work stays");
    const summary = await byTestId(board, 'mission-summary').innerText();
    assert.doesNotMatch(summary, /all required steps verified/);
    assert.match(summary, /reverted s2: the work of required step s2 is undone/);
    assert.equal(await board.locator('[data-testid="step-details"][data-step-id="s2"] [data-testid="revert-step"]').count(), 0, 'no second revert is offered');
    assert.equal((await board.locator('[data-testid="mission-header"] .badge.phase').first().innerText()).trim(), 'partly reverted');
    await shot(page, '05-reverted');
  });

  it('retries a failed mission from the failing step', async function () {
    this.timeout(300_000);
    const { page } = session;
    scenario.breakAgain();
    const sidebar = await session.sidebarFrame();
    const s1Before = server!.requests.filter((r) => r.rule === 's1').length;
    await startTask(page, sidebar, DIRECT_TASK);

    await sidebar.waitForSelector('[data-testid="mission-header"][data-phase="failed"] [data-testid="retry-mission"]', { timeout: 90_000 });
    assert.match(
      await byTestId(sidebar, 'mission-summary').innerText(),
      /step s2 failed: the module layout is unknown \(direct mode: a short plan is not replanned\)/,
    );
    await shot(page, '06-failed-retry');

    scenario.fix();
    await byTestId(sidebar, 'retry-mission').click();
    await approvingPlansUntil(sidebar, '[data-testid="mission-header"][data-phase="succeeded"]');
    assert.equal(server!.requests.filter((r) => r.rule === 's1').length - s1Before, 2, 's1 ran once (two model turns), before the failure only');
    assert.equal(readFileSync(join(session.workspace, 'src', 'wave.js'), 'utf8'), WAVE_JS);
    await shot(page, '07-retried');
  });

  it('shows a model call that waits on a rate limit, counted down, and goes on', async function () {
    this.timeout(180_000);
    const { page } = session;
    const sidebar = await session.sidebarFrame();
    await startTask(page, sidebar, WAIT_TASK);
    const wait = sidebar.locator('[data-testid="model-wait"]').first();
    await wait.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match((await wait.innerText()).trim(), /^w1: waiting for the model \(rate limited\), \d s$/);
    await shot(page, '08-waiting-for-the-model');
    await sidebar.waitForSelector('[data-testid="mission-header"][data-phase="succeeded"]', { timeout: 90_000 });
    assert.equal(await sidebar.locator('[data-testid="model-wait"]').count(), 0, 'the wait line is gone');
    assert.equal(readFileSync(join(session.workspace, 'src', 'patience.js'), 'utf8'), PATIENCE_JS);
  });
});
