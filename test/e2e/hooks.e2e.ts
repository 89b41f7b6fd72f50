/**
 * The user's hooks in the real workbench (code-server + headless Chromium), the Messages server playing the
 * model: the workspace's `.claude/settings.json` declares a PostToolUse lint hook. Before the mission the
 * sidebar shows the trust card (the file and its command); trusted, the hook runs in the step's sandbox,
 * blocks an edit that adds `var` (the edit is taken back), and the step's details on the board show which
 * hook blocked what and why; the corrected edit lands. Screenshots go to test-results/hooks/.
 */
import { strict as assert } from 'node:assert';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_FIXTURE } from '../support/host/workspace';
import { wirePlan, wireStep } from '../support/fixtures';
import { startMessagesServer, type MessagesServer } from '../support/messages-server/server';
import type { ScenarioInput } from '../support/messages-server/scenario';
import { decideCard } from './support/cards';
import { runFromPalette } from './support/palette';
import { useWorkbench } from './support/session';
import { boardFrame, byTestId, ensureApiKey, shot as saveShot, useModelServer, waitEnabled } from './support/surfaces';

const shot = (page: Parameters<typeof saveShot>[0], name: string) => saveShot(page, 'hooks', name);

const LINT = `#!/bin/bash
cat > /dev/null
cd "$CLAUDE_PROJECT_DIR"
if grep -n "var " src/greet.js >&2; then
  echo "lint: use const or let, not var (src/greet.js)" >&2
  exit 2
fi
exit 0
`;

function put(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

const edit = (id: string, oldStr: string, newStr: string) => ({
  toolUse: [{ id, name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/greet.js', old_str: oldStr, new_str: newStr } }],
});

function scenario(): ScenarioInput {
  const plan = wirePlan(
    [
      wireStep('s1', {
        title: 'Name the greeting',
        authority: { read: ['**'], edit: ['src/**'], commands: [], network: false, mcp: [] },
        evidence: { checks: [{ kind: 'file_contains', path: 'src/greet.js', text: 'const greeting' }], description: '' },
      }),
    ],
    { goal: 'name the greeting' },
  );
  const body = '  return `Hello, ${name}!`;';
  return {
    name: 'hooks-e2e',
    rules: [
      { name: 'plan', match: { role: 'planner' }, turns: [{ structured: plan }] },
      {
        name: 's1',
        match: { role: 'executor', firstUserIncludes: '# Step s1:' },
        turns: [
          edit('bad', body, '  var greeting = `Hello, ${name}!`;\n  return greeting;'),
          edit('good', body, '  const greeting = `Hello, ${name}!`;\n  return greeting;'),
          { toolUse: [{ name: 'report_result', input: { status: 'succeeded', output: 'named it', evidence: [{ description: 'named it' }] } }] },
        ],
      },
    ],
  };
}

describe('hooks (E2E): the trust card, and a blocked edit with the hook reason on the step', () => {
  let server: MessagesServer | undefined;
  const source = mkdtempSync(join(tmpdir(), 'pe-hooks-fixture-'));
  const fixture = join(source, 'hooks-demo');

  before(async function () {
    this.timeout(120_000);
    cpSync(DEFAULT_FIXTURE, fixture, { recursive: true });
    put(fixture, '.claude/hooks/lint.sh', LINT);
    chmodSync(join(fixture, '.claude/hooks/lint.sh'), 0o755);
    put(
      fixture,
      '.claude/settings.json',
      `${JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: '.claude/hooks/lint.sh', timeout: 30 }] }] } }, null, 2)}\n`,
    );
    server = await startMessagesServer({ scenario: scenario() });
    await useModelServer(server);
  });

  const session = useWorkbench({ workspace: fixture, viewport: { width: 1400, height: 1000 } });

  after(async () => {
    await server?.close();
    rmSync(source, { recursive: true, force: true });
  });

  it("asks trust for the project's hooks, then shows which hook blocked the edit and why", async function () {
    this.timeout(300_000);
    const { page } = session;
    await runFromPalette(page, 'Plan & Execute');
    const frame = await session.sidebarFrame();
    await ensureApiKey(page, frame);

    // The trust card: the file and its command, nothing run yet.
    const card = frame.locator('[data-testid="hooks-card"]');
    await card.locator('[data-testid="hooks-trust-card"]').waitFor({ state: 'visible', timeout: 60_000 });
    const text = await card.innerText();
    assert.match(text, /\.claude\/settings\.json/);
    assert.match(text, /PostToolUse \(Edit\|Write\)/);
    assert.match(text, /\.claude\/hooks\/lint\.sh/);
    assert.match(text, /not trusted/);
    await shot(page, 'trust-card');
    await byTestId(frame, 'hooks-trust').click();
    await card.locator('[data-testid="hook-file"][data-source=".claude/settings.json"][data-trusted="true"]').waitFor({ state: 'attached', timeout: 15_000 });

    await frame.locator('[data-testid="task-input"] textarea').fill('Name the greeting in src/greet.js');
    await byTestId(frame, 'run-task').click();
    await waitEnabled(frame, 'approve-plan', 60_000);
    await byTestId(frame, 'approve-plan').click();

    // Two edits ask: the first is made, then taken back by the hook; the second lands.
    for (let i = 0; i < 2; i++) {
      const write = frame.locator('[data-testid="approval-write"]').first();
      await write.waitFor({ state: 'visible', timeout: 60_000 });
      await decideCard(frame, write, 'approve-action');
    }
    await frame.waitForSelector('.step-row[data-step-id="s1"][data-status="succeeded"]', { timeout: 90_000 });
    const greet = readFileSync(join(session.workspace, 'src/greet.js'), 'utf8');
    assert.match(greet, /const greeting/);
    assert.doesNotMatch(greet, /var greeting/);

    // The board: s1's details say which hook blocked what, and why.
    await frame.locator('.step-row[data-step-id="s1"] button').click();
    const board = await boardFrame(page);
    await board.waitForSelector('[data-testid="step-details"][data-step-id="s1"] [data-testid="step-hooks"]', { timeout: 30_000 });
    const hooks = board.locator('[data-testid="step-hooks"]');
    const blocked = hooks.locator('[data-testid="hook-run"][data-decision="block"]').first();
    const said = await blocked.innerText();
    assert.match(said, /PostToolUse on Edit/);
    assert.match(said, /blocked/);
    assert.match(said, /lint\.sh/);
    assert.match(said, /use const or let, not var/);
    await blocked.scrollIntoViewIfNeeded();
    await shot(page, 'blocked-edit');
  });
});
