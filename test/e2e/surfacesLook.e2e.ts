/**
 * How the surfaces look and where things open, in the real workbench: text wraps between words on both
 * surfaces — in a narrow sidebar, under the dark and high-contrast themes too (screenshots); "Review diff"
 * opens the change side by side, on its first change (far down a long file and far right on a long line),
 * without squeezing the mission board; and every command runs in one reused terminal.
 * Screenshots go to test-results/surfaces/.
 */
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { startMessagesServer, type MessagesServer } from '../support/messages-server/server';
import type { Reply, ScenarioInput } from '../support/messages-server/scenario';
import { wirePlan, wireStep } from '../support/fixtures';
import { decideCard } from './support/cards';
import { wordsBrokenInside } from './support/focus';
import { runFromPalette } from './support/palette';
import { useWorkbench } from './support/session';
import { boardFrame, byTestId, ensureApiKey, selectColorTheme, shot as saveShot, updateUserSettings, useModelServer, waitEnabled } from './support/surfaces';

const shot = (page: Page, name: string) => saveShot(page, 'surfaces', name);
const TASK = 'Set the euro rate in the ledger to 1.08, leaving every other rate as it is';
const RATES = Array.from({ length: 30 }, (_, i) => `'c${String(i).padStart(2, '0')}': ${i + 2}`).join(', ');
const LONG_LINE = `const RATES = { ${RATES}, 'eur': 1 };`;
const LEDGER = `${Array.from({ length: 149 }, (_, i) => `// ledger line ${i + 1}`).join('\n')}\n${LONG_LINE}\nconsole.log(Object.keys(RATES).length);\n`;

function ledgerScenario(): ScenarioInput {
  const s1 = wireStep('s1', {
    title: 'Change only the euro rate in the ledger table, whole words and nothing removed',
    why: 'The rates table must stay whole: remove nothing, change only the euro rate, so every other currency keeps passing its checks.',
    instructions: 'In src/ledger.js, set the euro rate to 1.08.',
    authority: { read: ['**'], edit: ['src/ledger.js'], commands: [] },
    evidence: { checks: [{ kind: 'file_contains', path: 'src/ledger.js', text: "'eur': 1.08" }], description: '' },
  });
  const s2 = wireStep('s2', {
    title: 'Run the ledger twice to see that it still loads',
    why: 'A table that does not load would break every invoice the billing service prints.',
    kind: 'command',
    dependsOn: ['s1'],
    instructions: 'Run node src/ledger.js twice.',
    authority: { read: ['**'], edit: [], commands: ['node src/ledger.js'] },
    evidence: { checks: [{ kind: 'files_exist', paths: ['src/ledger.js'] }], description: '' },
  });
  const plan = wirePlan([s1, s2], { goal: 'Set the euro rate to 1.08' });
  const report = (output: string): Reply => ({
    toolUse: [{ name: 'report_result', input: { status: 'succeeded', output, evidence: [{ description: output }] } }],
  });
  const setRate: Reply = {
    toolUse: [
      { name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/ledger.js', old_str: "'eur': 1 }", new_str: "'eur': 1.08 }" } },
    ],
  };
  const run: Reply = { toolUse: [{ name: 'bash', input: { command: 'node src/ledger.js' } }] };
  return {
    name: 'a change far down and far right',
    rules: [
      { name: 'plan', match: { role: 'planner' }, turns: [{ structured: plan }] },
      { name: 's1', match: { role: 'executor', firstUserIncludes: '# Step s1:' }, turns: [setRate, report('euro rate set')] },
      { name: 's2', match: { role: 'executor', firstUserIncludes: '# Step s2:' }, turns: [run, run, report('the ledger loads')] },
    ],
  };
}

const widthOf = (frame: Frame): Promise<number> => frame.evaluate(() => window.innerWidth);

async function noWordBroken(frame: Frame, where: string): Promise<void> {
  assert.deepEqual(await wordsBrokenInside(frame), [], `${where}: words split inside`);
}

/** Drags the sash between the sidebar and the editor area by `dx` pixels. */
async function dragSidebarEdge(page: Page, dx: number): Promise<void> {
  const bar = await page.locator('.part.sidebar').first().boundingBox();
  assert.ok(bar);
  const x = bar.x + bar.width;
  const y = bar.y + bar.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y, { steps: 5 });
  await page.mouse.move(x + dx, y, { steps: 5 });
  await page.mouse.up();
}

describe('surfaces (E2E): review, wrapping, themes and one terminal', () => {
  let server: MessagesServer | undefined;

  before(async function () {
    this.timeout(180_000);
    server = await startMessagesServer({ scenario: ledgerScenario() });
    await useModelServer(server);
    // The terminal's DOM renderer, so its text can be read.
    await updateUserSettings({ 'terminal.integrated.gpuAcceleration': 'off' });
  });

  const session = useWorkbench({ viewport: { width: 1400, height: 1000 } });

  after(async () => {
    await server?.close();
  });

  it('wraps words whole (narrow sidebar, dark, high contrast); the diff opens side by side on its first change; one terminal', async function () {
    this.timeout(480_000);
    const { page } = session;
    writeFileSync(join(session.workspace, 'src', 'ledger.js'), LEDGER);
    await runFromPalette(page, 'Plan & Execute');
    const sidebar = await session.sidebarFrame();
    await ensureApiKey(page, sidebar);
    await sidebar.locator('[data-testid="task-input"] textarea').fill(TASK);
    await byTestId(sidebar, 'run-task').click();
    await waitEnabled(sidebar, 'approve-plan', 60_000);
    await byTestId(sidebar, 'open-board').click();
    const board = await boardFrame(page);
    await waitEnabled(board, 'approve-plan', 30_000);
    await byTestId(board, 'approve-plan').click();
    const card = sidebar.locator('[data-testid="approval-write"]').first();
    await card.waitFor({ state: 'visible', timeout: 60_000 });

    // A narrow sidebar: words still wrap whole, in the card's prose too.
    const before = await widthOf(sidebar);
    await dragSidebarEdge(page, -(before - 230));
    await sidebar.waitForFunction(() => window.innerWidth < 260, undefined, { timeout: 15_000 });
    await noWordBroken(sidebar, 'the narrow sidebar');
    await noWordBroken(board, 'the board');
    await shot(page, 'l01-narrow-sidebar');
    for (const [theme, name] of [
      ['Dark Modern', 'l02-dark'],
      ['Dark High Contrast', 'l03-high-contrast'],
    ] as const) {
      await selectColorTheme(page, theme);
      await page.waitForTimeout(500);
      await noWordBroken(sidebar, `the sidebar (${theme})`);
      await noWordBroken(board, `the board (${theme})`);
      await shot(page, name);
    }
    await selectColorTheme(page, 'Light Modern');
    await dragSidebarEdge(page, 120);

    // Review diff: side by side, on the first change, the board keeping its width.
    const boardWidth = await widthOf(board);
    await card.locator('[data-testid="review-diff"]').click();
    const diff = page.locator('.monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 30_000 });
    // Side by side (VS Code's own class for it): the old text on the left, the proposed on the right, both readable.
    const original = await page.locator('.monaco-diff-editor.side-by-side .editor.original').first().boundingBox();
    const modified = await page.locator('.monaco-diff-editor.side-by-side .editor.modified').first().boundingBox();
    assert.ok(original && modified && original.width > 300 && modified.width > 300, `side by side: ${JSON.stringify({ original, modified })}`);
    assert.ok(original.x + original.width <= modified.x + 5, 'the old text on the left, the new on the right');
    // On the first change: line 150, far to the right of a long line, is in view.
    const token = page.locator('.monaco-diff-editor .editor.modified .view-line span', { hasText: /1\.08/ }).last();
    await token.waitFor({ state: 'visible', timeout: 30_000 });
    const at = await token.boundingBox();
    const inside =
      at && at.x >= modified.x && at.x + at.width <= modified.x + modified.width && at.y >= modified.y && at.y + at.height <= modified.y + modified.height;
    assert.ok(inside, `the change is in view: ${JSON.stringify({ at, modified })}`);
    assert.equal(board.isDetached(), false, 'the diff did not cover the board');
    const squeezed = await widthOf(board);
    assert.ok(squeezed >= boardWidth * 0.9, `the board keeps its width (${boardWidth} → ${squeezed} px)`);
    await shot(page, 'l04-review-diff');
    await decideCard(sidebar, card, 'approve-action');
    await page.locator('.monaco-diff-editor').first().waitFor({ state: 'detached', timeout: 30_000 });

    // Two commands (the second, identical, is covered by the first approval): one terminal shows both, numbered.
    const command = sidebar.locator('[data-testid="approval-command"]').first();
    await command.waitFor({ state: 'visible', timeout: 60_000 });
    await decideCard(sidebar, command, 'approve-action');
    await board.waitForSelector('[data-testid="mission-header"][data-state="succeeded"]', { timeout: 90_000 });
    const terminal = page.locator('.xterm-rows').first();
    await terminal.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await terminal.innerText();
    assert.match(text, /\[1\] \$ node src\/ledger\.js[\s\S]*\[2\] \$ node src\/ledger\.js/, 'both commands in the one terminal');
    assert.equal((await page.locator('.terminal-tabs-entry').count()) <= 1, true, 'one terminal, not one per command');
    assert.match(readFileSync(join(session.workspace, 'src', 'ledger.js'), 'utf8'), /'eur': 1\.08 \}/);
    await shot(page, 'l05-one-terminal');
  });
});
