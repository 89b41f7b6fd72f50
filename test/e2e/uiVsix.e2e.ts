/**
 * The packaged extension: `vsce package` builds the VSIX (production bundles, .vscodeignore keep-list),
 * code-server's own `--install-extension` installs it, and a workbench WITHOUT the development path
 * activates it from the palette and renders the sidebar. Prints the VSIX size and file count.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { codeServerEntry, repoRoot } from '../support/host/hostPaths';
import { findWebviewFrame } from '../support/host/webviewFrame';
import { openWorkbench, type Workbench } from '../support/host/workbench';
import { copyWorkspace, type TempWorkspace } from '../support/host/workspace';
import { runFromPalette } from './support/palette';
import { sharedHost } from './support/session';

function countFiles(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    n += statSync(p).isDirectory() ? countFiles(p) : 1;
  }
  return n;
}

describe('ui vsix (E2E): the packaged extension installs into the test host and activates', () => {
  let workbench: Workbench | undefined;
  let workspace: TempWorkspace | undefined;
  let installedDir: string | undefined;
  const out = mkdtempSync(join(tmpdir(), 'pe-vsix-'));

  after(async () => {
    await workbench?.close();
    workspace?.remove();
    if (installedDir) rmSync(installedDir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  it('packages, installs with code-server --install-extension, and shows the sidebar from the palette', async function () {
    this.timeout(300_000);
    const vsix = join(out, 'plan-execute.vsix');
    const pack = spawnSync('npx', ['vsce', 'package', '--no-dependencies', '--no-rewrite-relative-links', '--out', vsix], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 180_000,
      input: 'y\n',
    });
    assert.equal(pack.status, 0, `vsce package failed:\n${pack.stdout}\n${pack.stderr}`);
    const files = /\((\d+) files?, ([\d.]+ [KM]B)\)/.exec(pack.stdout);
    console.log(`      vsix: ${statSync(vsix).size} bytes, ${files?.[1] ?? '?'} files (vsce: ${files?.[2] ?? '?'})`);

    const host = await sharedHost();
    const extensionsDir = join(dirname(host.userDataDir), 'extensions'); // codeServer.ts: <tmp>/user-data, <tmp>/extensions
    assert.ok(existsSync(extensionsDir), `no extensions dir at ${extensionsDir}`);
    const install = spawnSync(
      process.execPath,
      [codeServerEntry(), '--install-extension', vsix, '--extensions-dir', extensionsDir, '--user-data-dir', host.userDataDir],
      { encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(install.status, 0, `install failed:\n${install.stdout}\n${install.stderr}`);
    const installed = readdirSync(extensionsDir).find((d) => d.startsWith('plan-execute.plan-execute'));
    assert.ok(installed, `not in ${extensionsDir}: ${readdirSync(extensionsDir).join(', ')}\n${install.stdout}`);
    installedDir = join(extensionsDir, installed);
    console.log(`      installed: ${installed} (${countFiles(installedDir)} files on disk)`);

    workspace = copyWorkspace();
    workbench = await openWorkbench(host, { folder: workspace.path, extensionDevelopmentPath: null });
    const { page } = workbench;
    await runFromPalette(page, 'Plan & Execute', 90_000);
    const frame = await findWebviewFrame(page, '#app', { timeoutMs: 60_000 });
    await frame.waitForSelector('[data-testid="task-input"]', { timeout: 60_000 });
  });
});
