/**
 * The plan document in the real workbench, as a user works with it (screenshots under
 * test-results/plan-document/): the cost estimate beside "Approve plan & run"; the board's "Plan as
 * document" opening it beside the board; an edit saved with Ctrl+S becoming plan v2 ("edited by you"); a
 * broken edit saved, its problem in the Problems panel at its line, the plan unchanged.
 */
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { startMessagesServer, type MessagesServer } from '../support/messages-server/server';
import type { ScenarioInput } from '../support/messages-server/scenario';
import { wirePlan, wireStep } from '../support/fixtures';
import { runFromPalette } from './support/palette';
import { useWorkbench } from './support/session';
import { boardFrame, byTestId, ensureApiKey, shot as saveShot, useModelServer, waitEnabled } from './support/surfaces';

const shot = (page: Page, name: string) => saveShot(page, 'plan-document', name);

const PLAN = wirePlan(
  [
    wireStep('s1', {
      title: 'Write the release notes',
      why: 'Users read them first.',
      instructions: 'Create notes/release.md with a section per change.',
      authority: { read: ['**'], edit: ['notes/**'], commands: [], network: false, mcp: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['notes/release.md'] }], description: '' },
    }),
    wireStep('s2', {
      title: 'Link the notes from the README',
      dependsOn: ['s1'],
      effort: 'medium',
      modelTier: 'standard',
      instructions: 'Add a "Release notes" link to README.md.',
      authority: { read: ['**'], edit: ['README.md'], commands: [], network: false, mcp: [] },
      evidence: { checks: [{ kind: 'file_contains', path: 'README.md', text: 'Release notes' }], description: '' },
    }),
    wireStep('s3', {
      title: 'Spell-check the notes',
      required: false,
      dependsOn: ['s1'],
      kind: 'verify',
      instructions: 'Read notes/release.md and report misspellings.',
      authority: { read: ['**'], edit: [], commands: [], network: false, mcp: [] },
      evidence: { checks: [{ kind: 'review', criterion: 'the notes have no misspelling' }], description: '' },
    }),
  ],
  { goal: 'Publish release notes', constraints: ['Do not touch src/'] },
);

const scenario: ScenarioInput = { name: 'plan document e2e', rules: [{ name: 'plan', match: { role: 'planner' }, turns: [{ structured: PLAN }] }] };

/** Waits until an editor shows `text` on screen (the editor renders spaces as no-break spaces). */
async function editorShows(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (wanted) => [...document.querySelectorAll('.view-lines')].some((el) => el.textContent?.replace(/\u00a0/g, ' ').includes(wanted)),
    text,
    { timeout: 30_000 },
  );
}

/** Finds `text` in the active editor (the find widget selects it), then closes the widget. */
async function selectInEditor(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Control+F');
  const find = page.locator('.find-widget .input').first();
  await find.waitFor({ state: 'visible', timeout: 10_000 });
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
}

describe('plan documents (E2E): the document beside the board, saved edits as versions, problems at their lines', () => {
  let server: MessagesServer | undefined;
  before(async function () {
    this.timeout(180_000);
    server = await startMessagesServer({ scenario });
    await useModelServer(server);
  });
  const session = useWorkbench({ viewport: { width: 1600, height: 1000 } });
  after(async () => {
    await server?.close();
  });

  it('shows the estimate beside Approve, opens the plan as a document beside the board, and makes a saved edit the next version', async function () {
    this.timeout(300_000);
    const { page } = session;
    await runFromPalette(page, 'Plan & Execute');
    const sidebar = await session.sidebarFrame();
    await ensureApiKey(page, sidebar);
    await sidebar.locator('[data-testid="task-input"] textarea').fill('Publish release notes');
    await byTestId(sidebar, 'run-task').click();
    await waitEnabled(sidebar, 'approve-plan', 60_000);
    assert.match(await byTestId(sidebar, 'plan-estimate').innerText(), /Estimate: [\d,]+ tokens, \$\d+\.\d{4} for 3 steps/);

    await runFromPalette(page, 'Plan & Execute: Open Mission Board');
    const board = await boardFrame(page);
    await waitEnabled(board, 'approve-plan', 30_000);
    const estimate = byTestId(board, 'plan-estimate');
    assert.match(await estimate.innerText(), /Estimate: [\d,]+ tokens, \$\d+\.\d{4} for 3 steps/);
    const [approveBox, estimateBox] = [await byTestId(board, 'approve-plan').boundingBox(), await estimate.boundingBox()];
    assert.ok(approveBox && estimateBox && Math.abs(approveBox.y - estimateBox.y) < 40, 'the estimate sits beside Approve');
    await board.locator('.node[data-step-id="s2"]').click();
    assert.match(await byTestId(board, 'step-estimate').innerText(), /[\d,]+ tokens, \$\d+\.\d{4} on claude-sonnet-5-5/);
    await shot(page, '01-estimate-beside-approve');

    // The board's own button (the same command as the palette's "Plan & Execute: Open Plan as Document").
    assert.ok(await byTestId(board, 'save-plan').isVisible(), 'Save plan… sits beside it');
    await byTestId(board, 'open-plan-document').click();
    const editor = page.locator('.editor-instance .monaco-editor .view-lines').last();
    await editorShows(page, '## s1 · Write the release notes');
    assert.ok(await editor.isVisible());
    assert.ok(await page.locator('.tab', { hasText: 'plan.md' }).first().isVisible(), 'the document has its own tab');
    await shot(page, '02-document-beside-board');

    await selectInEditor(page, 'Create notes/release.md with a section per change.');
    await page.keyboard.type('Create notes/release.md: one section per change, newest first.');
    await page.keyboard.press('Control+S');
    await board.waitForSelector('[data-testid="approve-plan"]:not([disabled])', { timeout: 30_000 });
    await page.keyboard.press('Control+Home');
    await editorShows(page, 'version: 2');
    await board.locator('[data-testid="tab-versions"]').click();
    await board.waitForSelector('text=edited by you', { timeout: 15_000 });
    assert.match(await byTestId(board, 'approve-plan').innerText(), /Approve plan v2/);
    await shot(page, '03-edit-became-version');
  });

  it('puts a broken edit in the Problems panel at its line, and the plan stays as it was', async function () {
    this.timeout(180_000);
    const { page } = session;
    const board = await boardFrame(page);
    // Back to the document's editor, then break it: a dependency on a step that does not exist.
    await page.locator('.tab', { hasText: 'plan.md' }).first().click();
    await selectInEditor(page, '- after: s1');
    await page.keyboard.type('- after: s9');
    await page.keyboard.press('Control+S');
    await page.keyboard.press('Control+Shift+M');
    const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'depends on "s9", which is not a step' }).first();
    await problem.waitFor({ state: 'visible', timeout: 30_000 });
    const row = await problem.innerText();
    assert.match(row, /\[Ln \d+, Col 1\]/, `the problem names its line: ${row}`);
    assert.match(await byTestId(board, 'approve-plan').innerText(), /Approve plan v2/, 'the plan is unchanged');
    await shot(page, '04-error-in-problems');
  });
});
