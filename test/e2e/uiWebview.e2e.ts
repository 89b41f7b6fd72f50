/**
 * The webview app on its own (media/webview.js in headless Chromium, acquireVsCodeApi stubbed), as the
 * sidebar and as the mission board: hostile plan and model text renders as text, malformed host messages
 * are ignored, controls are labelled and reachable by keyboard, and the app posts only protocol-valid
 * messages. The real shells' CSP is checked in the workbench tests (uiBoard.e2e.ts).
 */
import { strict as assert } from 'node:assert';
import { restatus, syntheticState } from '../../bench/webview/fixture';
import { axeViolations } from '../support/webview/axe';
import type { WebviewPage } from '../support/webview/webviewPage';
import { useWebviewApp } from './support/webviewApp';
import { FromWebviewSchema, type SurfaceKind, type SurfaceState } from '../../src/webview/protocol';

const XSS = '<img src=x onerror="window.__xss=1">';

function hostileState(): SurfaceState {
  const state = syntheticState(3, 5);
  const m = state.mission;
  assert.ok(m);
  m.goal = `${XSS} goal`;
  m.task = `${XSS} task`;
  m.constraints = [`${XSS} constraint`];
  m.phase = 'awaiting_approval';
  m.steps = m.steps.map((s) => ({
    ...s,
    title: XSS,
    why: `<script>window.__xss=2</script>`,
    instructions: `<b onmouseover="window.__xss=3">x</b>`,
    files: [{ path: `${XSS}.ts`, change: 'modified', beforeHash: 'a', afterHash: 'b' }],
  }));
  m.versions[1] = {
    ...m.versions[1]!,
    reason: `${XSS} reason`,
    changes: [{ stepId: 's3', field: 'instructions', before: XSS, after: `<script>window.__xss=4</script>` }],
  };
  m.replans = [
    { at: '2026-01-01T00:03:00.000Z', trigger: XSS, stepId: 's2', mode: 'step', detail: XSS, fromVersion: 2, toVersion: null, refusedBecause: [] },
    { at: '2026-01-01T00:03:30.000Z', trigger: XSS, stepId: 's2', mode: 'step', detail: XSS, fromVersion: 2, toVersion: null, refusedBecause: [XSS] },
  ];
  const base = { stepTitle: XSS, stepWhy: XSS, at: '2026-01-01T00:02:00.000Z' };
  state.approvals = [
    {
      ...base,
      kind: 'write',
      requestId: 'r1',
      stepId: 's1',
      why: XSS,
      path: `${XSS}.ts`,
      change: 'modified',
      size: { added: 12, removed: 3 },
      verification: false,
    },
    { ...base, kind: 'command', requestId: 'r2', stepId: 's2', why: XSS, command: `echo "${XSS}"`, cwd: '/w', verification: true },
  ];
  state.notices = [{ id: 'n1', level: 'error', message: XSS, actions: ['setApiKey', 'retry'] }];
  state.planAwaitingApproval = m.planVersion;
  return restatus(state);
}

/** Every element under #app, through shadow roots. */
const ALL_ELEMENTS = `(() => {
  const all = [];
  const walk = (root) => { for (const el of root.querySelectorAll('*')) { all.push(el); if (el.shadowRoot) walk(el.shadowRoot); } };
  walk(document.getElementById('app'));
  return all;
})()`;

for (const surface of ['sidebar', 'board'] as SurfaceKind[]) {
  describe(`ui webview (E2E, plain Chromium): the ${surface} renders data as text`, () => {
    let view: WebviewPage;
    const dialogs: string[] = [];

    useWebviewApp({ surface }, async (opened) => {
      view = opened;
      view.page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await view.send({ type: 'state', state: hostileState() });
      await view.page.waitForSelector('[data-testid="approval-write"]');
    });

    it('shows hostile titles, tasks, reasons and diffs as text, creating no element and running nothing', async () => {
      const { page } = view;
      if (surface === 'board') {
        await page.click('[data-step-id="s1"]');
        await page.waitForSelector('[data-testid="step-details"][data-step-id="s1"]');
        await page.hover('[data-testid="step-details"]');
        await page.click('[data-testid="tab-versions"]');
        await page.waitForSelector('[data-testid="field-change"]');
      }
      const created = await page.evaluate(`${ALL_ELEMENTS}.filter((el) => ['IMG', 'SCRIPT', 'B'].includes(el.tagName)).map((el) => el.outerHTML)`);
      assert.deepEqual(created, [], 'no element was created from data');
      assert.equal(await page.evaluate('window.__xss'), undefined, 'no injected code ran');
      assert.deepEqual(dialogs, []);
      const text = await page.locator('#app').innerText();
      assert.ok(text.includes(XSS), 'the payload is visible as text');
      assert.ok(text.includes(`${XSS} task`), "the user's own task is shown");
    });

    it('ignores a malformed host message', async () => {
      const { page } = view;
      const before = await page.locator('main').getAttribute('data-rev');
      await view.send({ type: 'state', state: { rev: 999, mission: '<img src=x>' } });
      await view.send({ type: 'didChangeStepStatus', stepId: 's1' });
      await view.send({ type: 'didSelectStep', stepId: 42 });
      await page.waitForTimeout(100);
      assert.equal(await page.locator('main').getAttribute('data-rev'), before);
    });

    it('labels every button and keeps them keyboard-reachable', async () => {
      const { page } = view;
      const unlabeled = await page.evaluate(`[...document.querySelectorAll('vscode-button, vscode-toolbar-button, button')]
        .filter((b) => !(b.textContent || '').trim() && !b.getAttribute('aria-label')).map((b) => b.outerHTML)`);
      assert.deepEqual(unlabeled, []);
      const untabbable = await page.evaluate(
        `[...document.querySelectorAll('vscode-button')].filter((b) => b.tabIndex < 0 && !b.hasAttribute('disabled')).length`,
      );
      assert.equal(untabbable, 0);
    });

    it('has no WCAG 2 A/AA violations that axe-core can find (structure, names, roles; colours are checked in the workbench)', async () => {
      // The page here has only a few stand-in theme colours, so contrast is judged in uiBoard.e2e.ts under real themes.
      assert.deepEqual(await axeViolations(view.page, { disableRules: ['color-contrast'] }), []);
    });

    it('posts only protocol-valid messages (reject needs a reason; approve names the request)', async () => {
      const { page } = view;
      await page.evaluate('window.__posted.length = 0');
      if (surface === 'board') await page.click('[data-testid="tab-waiting"]');
      await page.click('[data-testid="approval-write"] [data-testid="reject-action"]');
      await page.fill('[data-testid="approval-write"] [data-testid="reject-reason"] input', 'wrong file');
      await page.click('[data-testid="approval-write"] [data-testid="reject-action"]');
      await page.click('[data-testid="approval-command"] [data-testid="approve-action"]');
      await page.click('[data-testid="approve-plan"]');
      const posted = await view.posted();
      for (const m of posted) assert.ok(FromWebviewSchema.safeParse(m).success, `invalid message posted: ${JSON.stringify(m)}`);
      const types = posted.map((m) => (m as { type: string }).type);
      assert.deepEqual(types, ['rejectAction', 'approveAction', 'approvePlan'], 'the first Reject (no reason) posted nothing');
      assert.deepEqual(posted[0], { type: 'rejectAction', requestId: 'r1', reason: 'wrong file' });
      assert.deepEqual(posted[1], { type: 'approveAction', requestId: 'r2', remember: false });
    });

    it('remembers a rule when "Always allow" is ticked before approving', async () => {
      const { page } = view;
      await page.evaluate('window.__posted.length = 0');
      await page.click('[data-testid="approval-command"] [data-testid="remember"]');
      await page.click('[data-testid="approval-command"] [data-testid="approve-action"]');
      assert.deepEqual(await view.posted(), [{ type: 'approveAction', requestId: 'r2', remember: true }]);
    });

    it('offers "Approve all for this step" and labels the verification run', async () => {
      const { page } = view;
      await page.evaluate('window.__posted.length = 0');
      assert.equal(await page.locator('[data-testid="approval-command"] [data-testid="verification-label"]').count(), 1);
      assert.equal(await page.locator('[data-testid="approval-write"] [data-testid="verification-label"]').count(), 0);
      assert.equal((await page.locator('[data-testid="approval-write"] [data-testid="change-size"]').innerText()).replace(/\s+/g, ' '), '+12 −3');
      await page.click('[data-testid="approval-write"] [data-testid="approve-step"]');
      assert.deepEqual(await view.posted(), [{ type: 'approveStep', stepId: 's1' }]);
    });
  });
}
