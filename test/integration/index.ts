/**
 * The integration runner: the extension host loads this module (bundled to out/test/integration/index.js,
 * the `extensionTestsPath`) and calls `run()` with the real `vscode` API in reach. It runs every
 * `*.itest.js` next to it (one per test/integration/**\/*.itest.ts) under mocha and writes the outcome to
 * the file named by PLAN_EXECUTE_TEST_RESULTS, which the launcher reads; the launcher owns timeouts and
 * clean-up. Under @vscode/test-electron the same module runs, and the rejected promise is what fails it.
 */
import { mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { recordHostSnapshot } from '../support/host/extensionHostSnapshot';
import { GREP_ENV, RESULTS_ENV, startedFile, type Results, type Started, type TestOutcome } from '../support/host/integrationResults';

const EXTENSION_ID = 'plan-execute.plan-execute';

export async function run(): Promise<void> {
  const resultsFile = process.env[RESULTS_ENV];
  const files = testFiles(__dirname);
  const started: Started = {
    vscodeVersion: vscode.version,
    appName: vscode.env.appName,
    files: files.map((file) => relative(__dirname, file)),
  };
  if (resultsFile) writeAtomically(startedFile(resultsFile), started);
  console.log(`[integration] ${vscode.env.appName} ${vscode.version}: ${files.length} test file(s)`);

  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  recordHostSnapshot({ extensionFound: extension !== undefined, extensionActiveAtStart: extension?.isActive ?? false });

  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  const grep = process.env[GREP_ENV];
  if (grep) mocha.grep(grep);
  for (const file of files) mocha.addFile(file);

  const tests: TestOutcome[] = [];
  const errors: string[] = [];
  const failures = await new Promise<number>((resolve) => {
    try {
      const runner = mocha.run(resolve);
      runner.on('pass', (test) => tests.push({ title: test.fullTitle(), state: 'passed', durationMs: test.duration ?? 0 }));
      runner.on('pending', (test) => tests.push({ title: test.fullTitle(), state: 'pending' }));
      runner.on('fail', (test, error: unknown) => {
        const message = describeError(error);
        if (test.type === 'test') tests.push({ title: test.fullTitle(), state: 'failed', durationMs: test.duration ?? 0, error: message });
        else errors.push(`${test.fullTitle()}: ${message}`);
      });
    } catch (error) {
      // A test file that throws while loading ends here, before any test runs.
      errors.push(`loading the tests failed: ${describeError(error)}`);
      resolve(1);
    }
  });

  const results: Results = { ...started, tests, errors };
  if (resultsFile) writeAtomically(resultsFile, results);
  if (failures > 0 || errors.length > 0) throw new Error(`${failures} integration test(s) failed`);
}

/** Every *.itest.js under `dir`, sorted, so the order is the same on every machine. */
function testFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return testFiles(path);
      return name.endsWith('.itest.js') ? [path] : [];
    });
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/** The launcher polls for the file: write it whole or not at all. */
function writeAtomically(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(value, null, 2));
  renameSync(partial, file);
}
