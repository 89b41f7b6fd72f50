/**
 * The user's setup in the real workbench (code-server + headless Chromium), the Messages server playing the
 * model and the test MCP server (official SDK, stdio) configured in the workspace's .vscode/mcp.json:
 * the instruction files listed in the sidebar before the mission (one left out with its switch), a plan step
 * with an MCP grant on the board, and the MCP approval card — approved, the server runs the call, the
 * mission finishes. Screenshots go to test-results/user-setup/.
 */
import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../support/host/hostPaths';
import { DEFAULT_FIXTURE } from '../support/host/workspace';
import { startMessagesServer, type MessagesServer } from '../support/messages-server/server';
import { setupScenario, stdioMcpJson, writeSetupWorkspace } from '../support/mcp/setupScenario';
import { decideCard } from './support/cards';
import { runFromPalette } from './support/palette';
import { useWorkbench } from './support/session';
import { boardFrame, byTestId, ensureApiKey, shot as saveShot, useModelServer, waitEnabled } from './support/surfaces';

const shot = (page: Parameters<typeof saveShot>[0], name: string) => saveShot(page, 'user-setup', name);
const SERVER_SCRIPT = join(repoRoot, 'out', 'test', 'mcp', 'stdioServer.js');

describe('user setup (E2E): instruction files, an MCP grant on the plan, an MCP card', () => {
  let server: MessagesServer | undefined;
  const source = mkdtempSync(join(tmpdir(), 'pe-setup-fixture-'));
  const fixture = join(source, 'setup-demo');

  before(async function () {
    this.timeout(120_000);
    assert.ok(existsSync(SERVER_SCRIPT), `the test MCP server is built (${SERVER_SCRIPT}); run the build tier first`);
    cpSync(DEFAULT_FIXTURE, fixture, { recursive: true });
    writeSetupWorkspace(fixture, stdioMcpJson(SERVER_SCRIPT));
    server = await startMessagesServer({ scenario: setupScenario() });
    await useModelServer(server);
  });

  const session = useWorkbench({ workspace: fixture, viewport: { width: 1400, height: 1000 } });

  after(async () => {
    await server?.close();
    rmSync(source, { recursive: true, force: true });
  });

  it("lists the instruction files, shows the step's MCP grant, and asks for the call on an MCP card", async function () {
    this.timeout(300_000);
    const { page } = session;
    await runFromPalette(page, 'Plan & Execute');
    const frame = await session.sidebarFrame();
    await ensureApiKey(page, frame);

    // The files the next mission reads, each with its size, where it applies and a switch.
    const list = frame.locator('[data-testid="instructions-next"]');
    await list.locator('[data-testid="instruction-file"][data-path="packages/api/AGENTS.md"]').waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await list.innerText(), /packages\/api\/AGENTS\.md[\s\S]*applies under packages\/api\//);
    assert.equal(await list.locator('[data-testid="instruction-file"][data-path=".cursor/rules/broken.mdc"]').getAttribute('data-state'), 'unusable');
    await list.locator('[data-testid="instruction-file"][data-path=".github/copilot-instructions.md"] [data-testid="instruction-toggle"]').click();
    await list
      .locator('[data-testid="instruction-file"][data-path=".github/copilot-instructions.md"][data-state="excluded"]')
      .waitFor({ state: 'attached', timeout: 15_000 });
    await frame.locator('[data-testid="task-input"] textarea').fill('Add b to the api and note it in the docs');
    await shot(page, 'instructions');

    await byTestId(frame, 'run-task').click();
    await frame.waitForSelector('.step-row[data-step-id="s1"] [data-testid="mcp-badge"]', { timeout: 60_000 });
    await waitEnabled(frame, 'approve-plan', 30_000);

    // The board: s1 carries its MCP grant on the graph and in its authority.
    await frame.locator('.step-row[data-step-id="s1"] button').click();
    const board = await boardFrame(page);
    await board.waitForSelector('[data-testid="step-details"][data-step-id="s1"]', { timeout: 30_000 });
    assert.match(await board.locator('.node[data-step-id="s1"] [data-testid="mcp-badge"]').innerText(), /notes\/echo/);
    assert.match(await board.locator('[data-testid="step-details"]').innerText(), /May call \(MCP\)/);
    assert.equal(
      await board.locator('[data-testid="step-details"] [data-testid="authority-mcp"]').getAttribute('label'),
      'notes/echo',
      'the grant can be unticked to tighten it',
    );
    await shot(page, 'plan-mcp-grant');
    // The server is labelled by the file it came from (VS Code also merges .vscode/mcp.json into its settings).
    await byTestId(board, 'tab-rules').click();
    const listed = board.locator('[data-testid="mcp-server"][data-server="notes"]');
    await listed.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await listed.innerText(), /notes \(stdio, \.vscode\/mcp\.json\)/);
    assert.doesNotMatch(await board.locator('[data-testid="mcp-servers"]').innerText(), /workspace settings/);
    await byTestId(board, 'tab-details').click();

    await byTestId(board, 'approve-plan').click();
    const card = frame.locator('[data-testid="approval-mcp"]').first();
    await card.waitFor({ state: 'visible', timeout: 60_000 });
    const text = await card.innerText();
    assert.match(text, /MCP\s+notes\/echo/);
    assert.match(text, /server in the step's sandbox/);
    assert.match(text, /"text": "hello"/);
    await shot(page, 'mcp-card');
    await card.locator('[data-testid="remember"]').click();
    await decideCard(frame, card, 'approve-action');

    // The edits, then the end: the file on disk, and the rule that remembered the tool.
    for (let i = 0; i < 2; i++) {
      const write = frame.locator('[data-testid="approval-write"]').first();
      await write.waitFor({ state: 'visible', timeout: 60_000 });
      await decideCard(frame, write, 'approve-action');
    }
    await frame.waitForSelector('[data-testid="rule"][data-rule-kind="mcp"]', { timeout: 30_000 });
    await frame.waitForSelector('.step-row[data-step-id="s2"][data-status="succeeded"]', { timeout: 60_000 });
    assert.match(readFileSync(join(session.workspace, 'packages/api/src/a.ts'), 'utf8'), /export const b = 2;/);
  });
});
