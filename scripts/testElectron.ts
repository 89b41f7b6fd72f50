/**
 * `npm run test:electron`: the same integration suite (out/test/integration) in desktop VS Code, through
 * @vscode/test-electron, for machines that can download VS Code (it cannot run offline; `npm test` uses
 * code-server for that). Version: the one code-server pins (1.100.3) unless PLAN_EXECUTE_VSCODE_VERSION
 * says otherwise ('stable', 'insiders' or a version). On a Linux machine without a display run it under
 * `xvfb-run -a npm run test:electron`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { repoRoot, VSCODE_VERSION } from '../test/support/host/hostPaths';
import { RESULTS_ENV, ResultsSchema } from '../test/support/host/integrationResults';
import { INTEGRATION_TESTS_MODULE } from '../test/support/host/integrationTier';
import { copyWorkspace } from '../test/support/host/workspace';

const say = (line: string): void => void process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  if (!existsSync(`${INTEGRATION_TESTS_MODULE}.js`)) {
    say(`${INTEGRATION_TESTS_MODULE}.js is missing: run \`node esbuild.mjs\` first`);
    return 1;
  }
  const workspace = copyWorkspace();
  const resultsDir = mkdtempSync(join(tmpdir(), 'plan-execute-electron-'));
  const resultsFile = join(resultsDir, 'results.json');
  let exitCode: number;
  try {
    exitCode = await runTests({
      version: process.env.PLAN_EXECUTE_VSCODE_VERSION ?? VSCODE_VERSION,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: INTEGRATION_TESTS_MODULE,
      extensionTestsEnv: { [RESULTS_ENV]: resultsFile },
      // Other installed extensions must not change what the tests see; trust is off, as in code-server.
      launchArgs: [workspace.path, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
    }).catch((error: unknown) => {
      say(`VS Code ended with an error: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    });
    if (!existsSync(resultsFile)) {
      say('the extension host wrote no results (did the suite start?)');
      say('0 passed, 1 failed');
      return 1;
    }
    const results = ResultsSchema.parse(JSON.parse(readFileSync(resultsFile, 'utf8')));
    say(`VS Code version tested: ${results.vscodeVersion}`);
    for (const test of results.tests)
      say(`  ${test.state === 'passed' ? '✔' : test.state === 'failed' ? '✘' : '-'} ${test.title}${test.error ? `\n${test.error}` : ''}`);
    for (const error of results.errors) say(`  error: ${error}`);
    const passed = results.tests.filter((test) => test.state === 'passed').length;
    let failed = results.tests.filter((test) => test.state === 'failed').length + results.errors.length;
    if (results.tests.length === 0) failed += 1;
    if (failed === 0 && exitCode !== 0) failed = 1;
    say(`${passed} passed, ${failed} failed`);
    return failed > 0 ? 1 : 0;
  } finally {
    workspace.remove();
    rmSync(resultsDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(`test:electron failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
