/**
 * The sidebar app on its own (media/webview.js in headless Chromium, acquireVsCodeApi stubbed): hostile
 * plan and model text renders as text, malformed host messages are ignored, controls are labelled and
 * reachable by keyboard, and the app posts only protocol-valid messages.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { syntheticState } from '../../bench/webview/fixture';
import { chromiumPath, repoRoot } from '../support/host/hostPaths';
import { FromWebviewSchema, type SidebarState } from '../../src/webview/protocol';

const XSS = '<img src=x onerror="window.__xss=1">';

function hostileState(): SidebarState {
  const state = syntheticState(3, 5);
  const m = state.mission;
  assert.ok(m);
  m.goal = `${XSS} goal`;
  m.constraints = [`${XSS} constraint`];
  m.phase = 'awaiting_approval';
  m.steps = m.steps.map((s) => ({ ...s, title: XSS, why: `<script>window.__xss=2</script>`, instructions: `<b onmouseover="window.__xss=3">x</b>` }));
  m.versions[0] = { ...m.versions[0]!, reason: `${XSS} reason` };
  state.approvals = [
    { kind: 'write', requestId: 'r1', stepId: 's1', why: XSS, path: `${XSS}.ts`, change: 'modified' },
    { kind: 'command', requestId: 'r2', stepId: 's2', why: XSS, command: `echo "${XSS}"`, cwd: '/w' },
  ];
  state.planAwaitingApproval = m.planVersion;
  return state;
}

describe('ui webview (E2E, plain Chromium): the sidebar app renders data as text', () => {
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];
  let shellDir: string | undefined;

  before(async function () {
    this.timeout(60_000);
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    page = await browser.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const media = pathToFileURL(join(repoRoot, 'media')).toString();
    shellDir = mkdtempSync(join(tmpdir(), 'pe-ui-'));
    const shell = join(shellDir, 'sidebar.html');
    writeFileSync(shell, `<!DOCTYPE html><html><head><link rel="stylesheet" href="${media}/codicon.css" id="vscode-codicon-stylesheet"><link rel="stylesheet" href="${media}/sidebar.css"></head><body><div id="app"></div></body></html>`);
    await page.goto(pathToFileURL(shell).toString());
    await page.addScriptTag({
      content: 'window.__posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => undefined, setState: () => {} });',
    });
    await page.addScriptTag({ path: join(repoRoot, 'media', 'webview.js') });
    await page.waitForFunction('window.__posted.some((m) => m.type === "ready")');
    await page.evaluate(`window.postMessage(${JSON.stringify({ type: 'state', state: hostileState() })}, '*')`);
    await page.waitForSelector('[data-testid="approval-write"]');
  });

  after(async () => {
    await browser?.close();
    if (shellDir) rmSync(shellDir, { recursive: true, force: true });
  });

  it('shows a step titled with an <img onerror> payload as text, creating no element and running nothing', async () => {
    await page.click('vscode-tree-item[data-step-id="s1"]');
    await page.waitForSelector('[data-testid="step-details"]');
    await page.hover('[data-testid="step-details"]');
    const imgs = await page.evaluate(`(() => {
      const all = [];
      const walk = (root) => { for (const el of root.querySelectorAll('*')) { all.push(el); if (el.shadowRoot) walk(el.shadowRoot); } };
      walk(document.getElementById('app'));
      return all.filter((el) => ['IMG', 'SCRIPT', 'B'].includes(el.tagName)).map((el) => el.outerHTML);
    })()`);
    assert.deepEqual(imgs, [], 'no element was created from data');
    assert.equal(await page.evaluate('window.__xss'), undefined, 'no injected code ran');
    assert.deepEqual(dialogs, []);
    const title = await page.locator('vscode-tree-item[data-step-id="s1"] .step-title').textContent();
    assert.equal(title, XSS);
    assert.ok((await page.locator('#app').innerText()).includes(XSS), 'the payload is visible as text');
  });

  it('ignores a malformed host message', async () => {
    const before = await page.locator('main').getAttribute('data-rev');
    await page.evaluate(`window.postMessage({ type: 'state', state: { rev: 999, mission: '<img src=x>' } }, '*')`);
    await page.evaluate(`window.postMessage({ type: 'didChangeStepStatus', stepId: 's1' }, '*')`);
    await page.waitForTimeout(100);
    assert.equal(await page.locator('main').getAttribute('data-rev'), before);
  });

  it('labels every button and keeps them keyboard-reachable', async () => {
    const unlabeled = await page.evaluate(`[...document.querySelectorAll('vscode-button, vscode-toolbar-button')]
      .filter((b) => !(b.textContent || '').trim() && !b.getAttribute('aria-label')).map((b) => b.outerHTML)`);
    assert.deepEqual(unlabeled, []);
    const untabbable = await page.evaluate(`[...document.querySelectorAll('vscode-button')].filter((b) => b.tabIndex < 0 && !b.hasAttribute('disabled')).length`);
    assert.equal(untabbable, 0);
  });

  it('posts only protocol-valid messages (reject needs a reason; approve names the request)', async () => {
    await page.click('[data-testid="approval-write"] [data-testid="reject-action"]');
    await page.fill('[data-testid="approval-write"] [data-testid="reject-reason"] input', 'wrong file');
    await page.click('[data-testid="approval-write"] [data-testid="reject-action"]');
    await page.click('[data-testid="approval-command"] [data-testid="approve-action"]');
    await page.click('[data-testid="approve-plan"]');
    const posted = (await page.evaluate('window.__posted')) as unknown[];
    for (const m of posted) assert.ok(FromWebviewSchema.safeParse(m).success, `invalid message posted: ${JSON.stringify(m)}`);
    const types = posted.map((m) => (m as { type: string }).type);
    assert.deepEqual(types.filter((t) => t !== 'ready'), ['rejectAction', 'approveAction', 'approvePlan'], 'the first Reject (no reason) posted nothing');
    assert.deepEqual(posted.find((m) => (m as { type: string }).type === 'rejectAction'), { type: 'rejectAction', requestId: 'r1', reason: 'wrong file' });
    assert.deepEqual(posted.find((m) => (m as { type: string }).type === 'approveAction'), { type: 'approveAction', requestId: 'r2', remember: false });
  });

  it('remembers a rule when "Always allow" is ticked before approving', async () => {
    await page.evaluate(`window.__posted.length = 0`);
    await page.click('[data-testid="approval-command"] [data-testid="remember"]');
    await page.click('[data-testid="approval-command"] [data-testid="approve-action"]');
    assert.deepEqual(await page.evaluate('window.__posted'), [{ type: 'approveAction', requestId: 'r2', remember: true }]);
  });
});
