/**
 * Keyboard approvals by intent in the real workbench (the messages server plays a two-step plan on a copy of
 * the fixture workspace: s1 documents src/greet.js while s2 waits to run npm test). Enter approves the edit and
 * focus moves on to the command card; the same Enter held down (the browser repeats it) does not run the
 * command; a deliberate Enter, once the card has had focus a moment, does — npm test really runs. Timing
 * of a second press "at once" is exact only with the page's clock under control: uiWebviewKeys.e2e.ts.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wirePlan, wireStep } from '../support/fixtures';
import { startMessagesServer, type MessagesServer } from '../support/messages-server/server';
import { done, replace, sh } from '../support/messages-server/toolUses';
import { toolResultsOf } from '../support/messages-server/toolResults';
import { focusIn, waitFocusOnCard } from './support/focus';
import { runFromPalette } from './support/palette';
import { useWorkbench } from './support/session';
import { byTestId, ensureApiKey, shot as saveShot, useModelServer, waitEnabled } from './support/surfaces';

const TASK = 'Document greet, then run the tests';

function scenario() {
  const plan = wirePlan(
    [
      wireStep('s1', {
        title: 'Document greet',
        authority: { read: ['**'], edit: ['src/greet.js'], commands: [] },
        evidence: { checks: [{ kind: 'file_contains', path: 'src/greet.js', text: '/** Greets by name. */' }], description: '' },
      }),
      wireStep('s2', {
        title: 'Run the tests',
        kind: 'command',
        authority: { read: ['**'], edit: [], commands: ['npm test'] },
        evidence: { checks: [{ kind: 'review', criterion: 'npm test was run' }], description: 'npm test ran' },
      }),
    ],
    { goal: TASK },
  );
  return {
    name: 'an edit and a command waiting side by side',
    rules: [
      { match: { role: 'planner' as const }, turns: [{ structured: plan }] },
      {
        match: { role: 'executor' as const, firstUserIncludes: '# Step s1:' },
        turns: [
          { toolUse: [replace('k_edit', 'src/greet.js', 'function greet(name) {', '/** Greets by name. */\nfunction greet(name) {')] },
          done('documented'),
        ],
      },
      // s2 asks a moment later, so the edit is the oldest card and focus moves from it to the command.
      {
        match: { role: 'executor' as const, firstUserIncludes: '# Step s2:' },
        turns: [{ toolUse: [sh('k_test', 'npm test')], latencyMs: 2_500 }, done('npm test ran')],
      },
      {
        match: { role: 'verifier' as const },
        replies: Array.from({ length: 4 }, () => ({ toolUse: [{ name: 'report_verdict', input: { passed: true, detail: 'ok' } }] })),
      },
    ],
  };
}

describe('keyboard approvals by intent (E2E): a held Enter never runs the next card, a deliberate one does', () => {
  let server: MessagesServer | undefined;
  before(async function () {
    this.timeout(120_000);
    server = await startMessagesServer({ scenario: scenario() });
    await useModelServer(server);
  });
  after(async () => {
    await server?.close();
  });
  const session = useWorkbench({ viewport: { width: 1400, height: 1000 } });

  it('approves the edit with Enter, ignores the same Enter held over the command, runs it on a deliberate Enter', async function () {
    this.timeout(300_000);
    const { page } = session;
    await runFromPalette(page, 'Plan & Execute');
    const frame = await session.sidebarFrame();
    await ensureApiKey(page, frame);
    await frame.locator('[data-testid="task-input"] textarea').fill(TASK);
    await byTestId(frame, 'run-task').click();
    await waitEnabled(frame, 'approve-plan', 60_000);
    await byTestId(frame, 'approve-plan').click();

    const edit = frame.locator('[data-testid="approval-write"]').first();
    const command = frame.locator('[data-testid="approval-command"]').first();
    await command.waitFor({ state: 'visible', timeout: 60_000 });
    const editId = await edit.getAttribute('data-request-id');
    const commandId = await command.getAttribute('data-request-id');
    // The keyboard on the oldest card, as Show Waiting Approvals puts it.
    await runFromPalette(page, 'Plan & Execute: Show Waiting Approvals');
    assert.equal(await waitFocusOnCard(frame, 15_000), editId, 'focus starts on the edit, the oldest card');

    // Enter, held: the edit is approved, focus moves to the command — and the held key runs nothing there.
    await page.keyboard.down('Enter');
    await frame.waitForSelector(`[data-request-id="${editId}"]`, { state: 'detached', timeout: 30_000 });
    assert.equal(await waitFocusOnCard(frame, 15_000), commandId, 'focus moved on to the command card');
    assert.match((await focusIn(frame)).announced, /Next: .*npm test/);
    await page.keyboard.down('Enter'); // the browser's auto-repeat while the key is held
    await page.keyboard.down('Enter');
    await page.keyboard.up('Enter');
    await page.waitForTimeout(1_500);
    assert.equal(await frame.locator(`[data-request-id="${commandId}"]`).count(), 1, 'the command still waits');
    assert.equal(toolResultsOf(server!.requests).has('k_test'), false, 'npm test did not run');
    await saveShot(page, 'surfaces', 'k08-held-enter-not-taken');

    // A deliberate Enter, the card having had focus a moment: npm test runs.
    await frame.waitForSelector(`[data-request-id="${commandId}"]:not(.arming)`, { timeout: 15_000 });
    await page.keyboard.press('Enter');
    await frame.waitForSelector(`[data-request-id="${commandId}"]`, { state: 'detached', timeout: 30_000 });
    await frame.waitForSelector('[data-testid="mission-header"][data-state="succeeded"]', { timeout: 120_000 });
    assert.match(toolResultsOf(server!.requests).get('k_test')?.content ?? '', /exit code: 0/);
    assert.match(readFileSync(join(session.workspace, 'src', 'greet.js'), 'utf8'), /\/\*\* Greets by name\. \*\//);
  });
});
