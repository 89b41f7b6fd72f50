/**
 * The webview app on its own (media/webview.js in headless Chromium): the plan tree — the sidebar's step
 * list and the board's graph — and the command approval cards say, for each step, whether its commands
 * run in the OS sandbox and whether it is granted the network. Only steps that run
 * commands carry a sandbox mark; only granted steps carry the network mark; an unsandboxed machine says so.
 */
import { strict as assert } from 'node:assert';
import { restatus, syntheticState, syntheticStep } from '../../bench/webview/fixture';
import type { WebviewPage } from '../support/webview/webviewPage';
import { useWebviewApp } from './support/webviewApp';
import type { StepView, SurfaceKind, SurfaceState } from '../../src/webview/protocol';

function authorityState(sandbox: NonNullable<SurfaceState['sandbox']>['state']): SurfaceState {
  const state = syntheticState(3, 5);
  const m = state.mission;
  assert.ok(m);
  const authority = (commands: string[], network: boolean): StepView['authority'] => ({ read: ['**'], edit: ['src/**'], commands, network, mcp: [] });
  m.steps = [
    syntheticStep(1, { id: 's1', authority: authority([], false) }),
    syntheticStep(2, { id: 's2', authority: authority(['npm test'], false) }),
    syntheticStep(3, { id: 's3', authority: authority(['npm install'], true) }),
  ].map((s) => ({ ...s, dependsOn: [] }));
  state.sandbox = { mode: 'prefer', state: sandbox, detail: sandbox === 'sandboxed' ? 'bubblewrap 0.8.0' : 'no bubblewrap on this machine' };
  const base = { stepTitle: 'Install', stepWhy: 'needs the new package', at: '2026-01-01T00:02:00.000Z', why: 'install', verification: false };
  state.approvals = [
    {
      ...base,
      kind: 'command',
      requestId: 'r1',
      stepId: 's3',
      command: 'npm install',
      cwd: '/w',
      confinement: sandbox === 'sandboxed' ? 'sandboxed' : 'unsandboxed',
      network: true,
      hostLoopback: false,
    },
    {
      ...base,
      kind: 'command',
      requestId: 'r2',
      stepId: 's2',
      command: 'npm test',
      cwd: '/w',
      confinement: sandbox === 'sandboxed' ? 'sandboxed' : 'unsandboxed',
      network: false,
    },
  ];
  return restatus(state);
}

/** Which marks one step's row (sidebar) or card (board) carries: sandbox badge text/label, network badge present. */
async function marks(view: WebviewPage, surface: SurfaceKind, id: string): Promise<{ sandbox: string | null; network: boolean }> {
  const scope = surface === 'sidebar' ? `.step-row[data-step-id="${id}"]` : `.node[data-step-id="${id}"]`;
  return view.page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) throw new Error(`no ${sel}`);
    const badge = el.querySelector('[data-testid="sandbox-badge"]');
    const words = badge ? `${badge.textContent ?? ''} ${badge.getAttribute('title') ?? ''} ${badge.getAttribute('aria-label') ?? ''}` : null;
    return { sandbox: words, network: el.querySelector('[data-testid="network-badge"]') !== null };
  }, scope);
}

for (const surface of ['sidebar', 'board'] as SurfaceKind[]) {
  for (const sandbox of ['sandboxed', 'unsandboxed'] as const) {
    describe(`ui webview (E2E, plain Chromium): the ${surface} shows each step's sandbox and network, ${sandbox} here`, () => {
      let view: WebviewPage;
      useWebviewApp({ surface }, async (opened) => {
        view = opened;
        await view.send({ type: 'state', state: authorityState(sandbox) });
        await view.page.waitForSelector(surface === 'sidebar' ? '.step-row[data-step-id="s3"]' : '.node[data-step-id="s3"]');
      });

      it('marks only the steps that run commands as sandboxed (or not), and only the granted step with the network', async () => {
        const [s1, s2, s3] = [await marks(view, surface, 's1'), await marks(view, surface, 's2'), await marks(view, surface, 's3')];
        assert.equal(s1.sandbox, null, 'a step without commands carries no sandbox mark');
        for (const [id, m] of [
          ['s2', s2],
          ['s3', s3],
        ] as const) {
          assert.ok(m.sandbox, `${id} runs commands: it says how they run`);
          if (sandbox === 'sandboxed') assert.match(m.sandbox, /sandbox/i, `${id}: ${m.sandbox}`);
          if (sandbox === 'sandboxed') assert.doesNotMatch(m.sandbox, /unsandboxed/i, `${id}: ${m.sandbox}`);
          else assert.match(m.sandbox, /unsandboxed/i, `${id}: ${m.sandbox}`);
        }
        assert.deepEqual([s1.network, s2.network, s3.network], [false, false, true], 'only s3 is granted the network');
      });

      it('says on each command card how it will run and whether it may use the network', async () => {
        if (surface === 'board') await view.page.click('[data-testid="tab-waiting"]');
        await view.page.waitForSelector('[data-testid="command-confinement"]');
        const rows = await view.page.$$eval('[data-testid="command-confinement"]', (els) => els.map((el) => el.textContent ?? ''));
        assert.equal(rows.length, 2, 'one confinement row per command card');
        for (const text of rows) assert.match(text, sandbox === 'sandboxed' ? /sandboxed/ : /UNSANDBOXED/, text);
        assert.ok(
          rows.some((t) => /no network/.test(t)),
          `the ungranted card says no network: ${rows.join(' | ')}`,
        );
        assert.ok(
          rows.some((t) => !/no network/.test(t) && /network/i.test(t)),
          `the granted card says network: ${rows.join(' | ')}`,
        );
      });
    });
  }
}
