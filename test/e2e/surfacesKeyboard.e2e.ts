/**
 * Keyboard only, in the real workbench (the messages server plays the demo's script on a copy of demo/):
 * type the task, plan it (a double Ctrl+Enter starts one mission), approve the plan and decide every card
 * of a queue that changes while you work — two steps asking side by side, a rejected edit's replacement
 * arriving, a command, a replanned version, the verifier asking again — with focus landing, after every
 * decision and every arrival, on what waits next (document.activeElement inside the webview's frame), and
 * the live region saying so. Also: the status bar's "N waiting", Show Waiting Approvals and a notification's
 * Show each put focus on the oldest card; an empty reject reason is said in words; Cancel asks first.
 * Screenshots go to test-results/surfaces/.
 */
import { strict as assert } from 'node:assert';
import type { Frame, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMessagesServer, type MessagesServer } from '../support/messages-server/server';
import { DEMO_TASK, demoTourScenario } from '../support/messages-server/scenarios/demoTour';
import { DEMO_WORKSPACE } from '../support/host/workspace';
import { focusIn, waitFocusOn, waitFocusOnCard } from './support/focus';
import { runFromPalette } from './support/palette';
import { useWorkbench } from './support/session';
import { ensureApiKey, shot as saveShot, statusBarItem, useModelServer, waitForBadge } from './support/surfaces';

const shot = (page: Page, name: string) => saveShot(page, 'surfaces', name);

/** Moves the keyboard out of the webview (into the editor area), as a user switching to their code would. */
async function leaveWebview(page: Page): Promise<void> {
  await runFromPalette(page, 'View: Focus Active Editor Group');
}

describe('surfaces (E2E): keyboard-only approval of a queue that changes while you work', () => {
  let server: MessagesServer | undefined;

  before(async function () {
    this.timeout(180_000);
    server = await startMessagesServer({ scenario: demoTourScenario() });
    await useModelServer(server);
  });

  const session = useWorkbench({ workspace: DEMO_WORKSPACE, viewport: { width: 1400, height: 1000 } });

  after(async () => {
    await server?.close();
  });

  it('plans by keyboard, and after every decision and arrival focus is on what waits next, announced', async function () {
    this.timeout(480_000);
    const { page } = session;
    await runFromPalette(page, 'Plan & Execute');
    const frame = await session.sidebarFrame();
    await ensureApiKey(page, frame);

    // The palette command puts the keyboard in the task box.
    await runFromPalette(page, 'Plan & Execute');
    await waitFocusOn(frame, 'task-input');
    await page.keyboard.type(DEMO_TASK);
    // Two Ctrl+Enter in a row start one mission.
    await page.keyboard.press('Control+Enter');
    await page.keyboard.press('Control+Enter');

    // The plan arrives and focus lands on "Approve plan" (the only thing waiting).
    await waitFocusOn(frame, 'approve-plan', 60_000);
    assert.equal((await focusIn(frame)).hasFocus, true);
    assert.equal(server!.requests.filter((r) => r.role === 'planner').length, 1, 'one start: the planner was asked once');
    await shot(page, 'k01-plan-focused');
    await page.keyboard.press('Enter');

    // s1 and s2 ask side by side; focus lands on the oldest card.
    const first = await waitFocusOnCard(frame);
    await frame.waitForSelector('[data-testid="approvals"] .card >> nth=1', { timeout: 60_000 });
    const order = await frame.locator('[data-testid="approvals"] .card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-request-id')));
    assert.equal(first, order[0], 'focus is on the oldest card');
    assert.match((await focusIn(frame)).announced, /Waiting for your approval:/);
    await shot(page, 'k02-two-cards');

    // Elsewhere, then the status bar's "2 waiting": focus comes back to the oldest card.
    await leaveWebview(page);
    assert.equal((await focusIn(frame)).hasFocus, false);
    await statusBarItem(page).filter({ hasText: 'waiting' }).click();
    assert.equal(await waitFocusOnCard(frame, 15_000), order[0]);
    assert.equal((await focusIn(frame)).hasFocus, true, 'the keyboard is in the sidebar now');
    assert.match((await focusIn(frame)).announced, /^2 waiting for your approval\./);

    // The same from "Show Waiting Approvals".
    await leaveWebview(page);
    await runFromPalette(page, 'Plan & Execute: Show Waiting Approvals');
    assert.equal(await waitFocusOnCard(frame, 15_000), order[0]);

    // Decide them by keyboard: reject s1's first edit (it adds a debug log) — an empty reason is said in words.
    const s1 = frame.locator('[data-testid="approvals"] .card', { has: frame.locator('.card-step', { hasText: 'Step s1' }) }).first();
    const s1Id = await s1.getAttribute('data-request-id');
    await focusCardById(frame, s1Id!);
    await page.keyboard.press('Tab'); // Approve → Reject
    await waitFocusOn(frame, 'reject-action');
    await page.keyboard.press('Enter');
    await frame.waitForSelector(`[data-request-id="${s1Id}"] [data-testid="reason-needed"]`, { timeout: 10_000 });
    const needed = await frame.locator(`[data-request-id="${s1Id}"] [data-testid="reason-needed"]`).innerText();
    assert.match(needed, /Say why first: your reason goes back to the step's executor/);
    assert.equal((await focusIn(frame)).testId, 'reject-reason', 'focus went to the reason box');
    await shot(page, 'k03-reason-needed');
    await page.keyboard.type('no debug logging in library code, please');
    await page.keyboard.press('Tab'); // → Review diff
    await page.keyboard.press('Tab'); // → Approve
    await page.keyboard.press('Tab'); // → Reject
    await waitFocusOn(frame, 'reject-action');
    await page.keyboard.press('Enter');

    // From here on: Enter on whatever has focus, checking after each decision that focus is on the next
    // thing that waits. The replacement of the rejected edit says it answers the reason.
    let sawAnswer = false;
    let sawAskedAgain = false;
    let sawPlanAgain = false;
    const deadline = Date.now() + 360_000;
    for (;;) {
      if (await frame.locator('[data-testid="mission-header"][data-state="succeeded"]').count()) break;
      assert.ok(Date.now() < deadline, 'the mission did not finish by keyboard in time');
      const seen = await Promise.race([
        waitFocusOnCard(frame, 120_000).then((id) => ({ card: id })),
        waitFocusOn(frame, 'approve-plan', 120_000).then(() => ({ card: null })),
        frame.waitForSelector('[data-testid="mission-header"][data-state="succeeded"]', { timeout: 120_000 }).then(() => ({ done: true })),
      ]);
      if ('done' in seen) break;
      const focus = await focusIn(frame);
      assert.equal(focus.hasFocus, true, 'the keyboard stays in the sidebar');
      if (seen.card) {
        const card = frame.locator(`[data-request-id="${seen.card}"]`);
        if ((await card.locator('[data-testid="answers-reason"]').count()) > 0) {
          sawAnswer = true;
          const answers = await card.locator('[data-testid="answers-reason"]').innerText();
          assert.match(answers, /In answer to your reason: \W?no debug logging in library code, please/);
          await shot(page, 'k04-answers-reason');
        }
        if ((await card.locator('[data-testid="asked-again"]').count()) > 0) {
          sawAskedAgain = true;
          await shot(page, 'k06-verifier-asks-again');
        }
        // The oldest card, whatever arrived meanwhile.
        const oldest = await frame.locator('[data-testid="approvals"] .card').first().getAttribute('data-request-id');
        assert.equal(seen.card, oldest, 'focus is on the oldest card');
      } else {
        sawPlanAgain = true;
        await shot(page, 'k05-replanned-plan-focused');
      }
      // A command the queue just focused takes a key press once it has had focus a moment (keyIntent.ts).
      if (seen.card) await frame.waitForSelector(`[data-request-id="${seen.card}"]:not(.arming)`, { timeout: 15_000 });
      await page.keyboard.press('Enter');
      // The decided item goes; focus moves before the next loop looks.
      if (seen.card) await frame.waitForSelector(`[data-request-id="${seen.card}"]`, { state: 'detached', timeout: 60_000 });
      else await frame.waitForSelector('[data-testid="approve-plan"]', { state: 'detached', timeout: 60_000 });
    }
    assert.ok(sawAnswer, "the rejected edit's replacement said it answers the reason");
    assert.ok(sawPlanAgain, 'the replanned version got focus');
    assert.ok(sawAskedAgain, 'the verifier asking again for npm test said why');
    assert.match(readFileSync(join(session.workspace, 'test', 'tasks.test.js'), 'utf8'), /\[1, 3\]/);
    assert.doesNotMatch(readFileSync(join(session.workspace, 'src', 'tasks.js'), 'utf8'), /console\.log/);

    // Nothing waits: Show Waiting Approvals says so.
    await runFromPalette(page, 'Plan & Execute: Show Waiting Approvals');
    const said = page.locator('.notifications-toasts .notification-list-item-message', { hasText: 'nothing waits for your approval' }).first();
    await said.waitFor({ state: 'visible', timeout: 15_000 });
    await frame.waitForFunction(() => document.getElementById('announcer')?.textContent === 'Nothing waits for your approval.', undefined, { timeout: 15_000 });
    assert.equal(await waitForBadge(page, null), null);
    await shot(page, 'k07-nothing-waits');
  });
});

/** Puts focus on one card's primary action the way a keyboard user would: Tab until there. */
async function focusCardById(frame: Frame, requestId: string): Promise<void> {
  const page = frame.page();
  for (let i = 0; i < 40; i++) {
    const focus = await focusIn(frame);
    if (focus.requestId === requestId && focus.testId === 'approve-action') return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached the primary action of card ${requestId}`);
}
