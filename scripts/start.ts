/**
 * `npm start`: build, copy the demo workspace to a temporary folder (the demo in the repository stays
 * clean), and open VS Code on it with this extension loaded from the working tree:
 *   - desktop VS Code (`code --extensionDevelopmentPath`) when `code` is on PATH;
 *   - otherwise code-server on a free loopback port, with the URL printed for a browser.
 * Stays in the foreground until Ctrl-C (or until the desktop window closes), then cleans up.
 *
 *   PLAN_EXECUTE_START=code-server npm start   use code-server even when `code` is on PATH
 *   npm start -- --demo                        try it without a key: a scripted demo model (this project's
 *                                              Messages-API server on loopback) answers, with a guided tour
 *                                              through an MCP call, a rejection, a refused replan, a replan
 *                                              and a revert; it plans only its one task (any other is refused
 *                                              in words); always code-server (a desktop window would not get
 *                                              its env)
 *   npm start -- --check                       (code-server) open the URL in headless Chromium, open the
 *                                              sidebar, save test-results/start.png, and exit: proves the
 *                                              printed workbench works without a person at the browser
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startCodeServer, type CodeServer } from '../test/support/host/codeServer';
import { startDemoHost, type DemoHost } from '../test/support/host/demoHost';
import { copyDemoWorkspace } from '../test/support/host/demoWorkspace';
import { onPath, repoRoot } from '../test/support/host/hostPaths';
import { spawnGroup } from '../test/support/host/processGroups';
import { findWebviewFrame } from '../test/support/host/webviewFrame';
import { openWorkbench, workbenchUrl } from '../test/support/host/workbench';

const say = (line: string): void => void process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const demo = process.argv.includes('--demo');
  const build = spawnSync(process.execPath, [join(repoRoot, 'esbuild.mjs')], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) return build.status ?? 1;

  // Removed at exit, also after Ctrl-C (processGroups' exit handler). With the sample MCP server in it.
  const workspace = copyDemoWorkspace();

  const code = onPath('code');
  if (code && process.env.PLAN_EXECUTE_START !== 'code-server' && !check && !demo) {
    say(`Opening VS Code (${code}) on ${workspace.path} with the extension from ${repoRoot}`);
    say('Close the window (or press Ctrl-C here) to finish.');
    const desktop = spawnGroup(code, ['--new-window', '--wait', `--extensionDevelopmentPath=${repoRoot}`, workspace.path], { stdio: 'inherit' });
    const status = await desktop.exited;
    return typeof status === 'number' ? status : 1;
  }

  const log = (line: string): void => say(`[host] ${line}`);
  const demoHost: DemoHost | undefined = demo ? await startDemoHost({ log, workspace: workspace.path }) : undefined;
  const host: CodeServer = demoHost?.host ?? (await startCodeServer({ log }));
  const options = { folder: workspace.path, extensionDevelopmentPath: repoRoot };
  const url = workbenchUrl(host, options);
  if (check) return selfCheck(host, options);

  say('');
  say('Plan & Execute is ready in code-server (VS Code in the browser). Open this URL on this machine:');
  say('');
  say(`  ${url}`);
  say('');
  say(`Workspace: ${workspace.path} (a temporary copy of demo/)`);
  say('Open the Plan & Execute view in the activity bar, or run "Plan & Execute" from the command palette (F1).');
  if (demoHost) {
    say('');
    say(`Demo: a scripted model at ${demoHost.model.url} answers (no API key, nothing leaves this machine).`);
    say(`It plans one task only, the tour's; any other task is refused in words (use a real model for yours).`);
    say(`  1. Plan the suggested task: "${demoHost.task}".`);
    say("  2. Approve s1's call of the sample MCP server (find_todos); reject its first edit (it adds a debug log");
    say('     line, against AGENTS.md, which the scripted planner does not apply) with a reason; approve the clean one.');
    say('  3. Approve the rest; npm test fails, the first replan is refused (see why in the Versions tab), the');
    say('     second is approved; then open the board and try Revert on a step. Plan the task again to replay.');
  }
  say('Press Ctrl-C to stop.');
  // The Ctrl-C handler (processGroups) stops code-server and exits; until then, stay in the foreground.
  await new Promise<never>(() => undefined);
  return 0;
}

async function selfCheck(host: Awaited<ReturnType<typeof startCodeServer>>, options: { folder: string; extensionDevelopmentPath: string }): Promise<number> {
  const workbench = await openWorkbench(host, options);
  try {
    const item = workbench.page.locator('.activitybar .action-item', { has: workbench.page.locator('[aria-label^="Plan & Execute"]') }).first();
    await item.waitFor({ state: 'visible', timeout: 60_000 });
    await item.click();
    const frame = await findWebviewFrame(workbench.page, '#app', { timeoutMs: 60_000 });
    await frame.waitForSelector('#app > *', { timeout: 60_000 });
    const dir = join(repoRoot, 'test-results');
    mkdirSync(dir, { recursive: true });
    await workbench.page.screenshot({ path: join(dir, 'start.png') });
    say(`check: the workbench at ${workbench.url.split('?')[0]} loaded the extension and its sidebar rendered; screenshot test-results/start.png`);
    return 0;
  } finally {
    await workbench.close();
    await host.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`npm start failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
