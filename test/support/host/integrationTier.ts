/**
 * Runs the integration suite inside code-server's extension host and reports what it saw.
 *
 * Sequence: fresh copy of the fixture workspace → code-server (env names the results file) → Chromium
 * opens the workbench with extensionDevelopmentPath + extensionTestsPath → the host calls
 * out/test/integration/index.js `run()` → it writes `<results>.started`, then `<results>` → we read them,
 * print, and tear everything down (always, in `finally`). Two deadlines: the tests must start within
 * `startTimeoutMs` and finish within `timeoutMs`, so a host that never loads fails fast and a hung test
 * cannot hold the run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCodeServer, type CodeServer } from './codeServer';
import { repoRoot } from './hostPaths';
import { GREP_ENV, RESULTS_ENV, ResultsSchema, StartedSchema, startedFile, type Results } from './integrationResults';
import type { Log } from './systemPackages';
import { openWorkbench, type Workbench } from './workbench';
import { copyWorkspace, DEFAULT_FIXTURE } from './workspace';

export interface IntegrationOptions {
  log: Log;
  /** Lines for the human reading the run (test results). */
  print: (line: string) => void;
  grep?: string;
  workspace?: string;
  /** From opening the workbench to `run()` starting. Default 120 s. */
  startTimeoutMs?: number;
  /** For the whole suite once started. Default 10 min. */
  timeoutMs?: number;
}

export interface IntegrationOutcome {
  passed: number;
  failed: number;
  pending: number;
  vscodeVersion?: string;
  /** Why the tier failed outside any test (timeout, host did not start, a file did not load). */
  problems: string[];
}

export const INTEGRATION_TESTS_MODULE = join(repoRoot, 'out', 'test', 'integration', 'index');

/** A second extension in the host: scripted language models registered through VS Code's provider API. */
const LM_FIXTURE_EXTENSION = join(repoRoot, 'test', 'support', 'host', 'lmFixture');

export async function runIntegrationTier(options: IntegrationOptions): Promise<IntegrationOutcome> {
  if (!existsSync(`${INTEGRATION_TESTS_MODULE}.js`)) {
    return { passed: 0, failed: 0, pending: 0, problems: [`${INTEGRATION_TESTS_MODULE}.js is missing: run the build first`] };
  }
  const resultsDir = mkdtempSync(join(tmpdir(), 'plan-execute-itest-'));
  const resultsFile = join(resultsDir, 'results.json');
  const workspace = copyWorkspace(options.workspace ?? DEFAULT_FIXTURE);
  const consoleTail: string[] = [];
  let host: CodeServer | undefined;
  let workbench: Workbench | undefined;
  try {
    const env: Record<string, string> = { [RESULTS_ENV]: resultsFile };
    if (options.grep) env[GREP_ENV] = options.grep;
    host = await startCodeServer({ log: options.log, env, extensions: [LM_FIXTURE_EXTENSION] });
    workbench = await openWorkbench(host, {
      folder: workspace.path,
      extensionTestsPath: INTEGRATION_TESTS_MODULE,
      enableProposedApi: true,
      onConsole: (line) => {
        consoleTail.push(line);
        if (consoleTail.length > 80) consoleTail.shift();
      },
    });
    const started = await waitForJson(startedFile(resultsFile), options.startTimeoutMs ?? 120_000, (raw) => StartedSchema.parse(raw));
    if (!started.ok) {
      return failure(`the extension host did not start the tests within ${(options.startTimeoutMs ?? 120_000) / 1000} s`, host, consoleTail);
    }
    options.print(`VS Code ${started.value.vscodeVersion} (${started.value.appName}), ${started.value.files.length} integration test file(s)`);
    const results = await waitForJson(resultsFile, options.timeoutMs ?? 600_000, (raw) => ResultsSchema.parse(raw));
    if (!results.ok) {
      return {
        ...failure(`the integration tests did not finish within ${(options.timeoutMs ?? 600_000) / 1000} s`, host, consoleTail),
        vscodeVersion: started.value.vscodeVersion,
      };
    }
    return report(results.value, options.print);
  } catch (error) {
    return failure(error instanceof Error ? error.message : String(error), host, consoleTail);
  } finally {
    await workbench?.close();
    await host?.stop();
    workspace.remove();
    rmSync(resultsDir, { recursive: true, force: true });
  }
}

function report(results: Results, print: (line: string) => void): IntegrationOutcome {
  for (const test of results.tests) {
    const mark = test.state === 'passed' ? '✔' : test.state === 'failed' ? '✘' : '-';
    print(`  ${mark} ${test.title}${test.durationMs !== undefined && test.durationMs > 100 ? ` (${test.durationMs} ms)` : ''}`);
    if (test.error) print(indent(test.error, '      '));
  }
  for (const error of results.errors) print(indent(`error: ${error}`, '  '));
  const count = (state: string): number => results.tests.filter((test) => test.state === state).length;
  const problems = [...results.errors];
  if (results.tests.length === 0) problems.push('the integration tier ran no tests');
  return {
    passed: count('passed'),
    failed: count('failed'),
    pending: count('pending'),
    vscodeVersion: results.vscodeVersion,
    problems,
  };
}

function failure(reason: string, host: CodeServer | undefined, consoleTail: string[]): IntegrationOutcome {
  const details = [reason];
  if (host) details.push(`code-server log (kept only with PLAN_EXECUTE_KEEP_HOST_DIRS=1): ${host.logFile}`, `last lines:\n${tailOf(host.logFile, 30)}`);
  if (consoleTail.length > 0) details.push(`browser console (last ${consoleTail.length} lines):\n${consoleTail.join('\n')}`);
  return { passed: 0, failed: 0, pending: 0, problems: [details.join('\n')] };
}

type Waited<T> = { ok: true; value: T } | { ok: false };

/** Polls for a JSON file written atomically by the extension host; validates it with `parse`. */
async function waitForJson<T>(file: string, timeoutMs: number, parse: (raw: unknown) => T): Promise<Waited<T>> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(file)) return { ok: true, value: parse(JSON.parse(readFileSync(file, 'utf8'))) };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { ok: false };
}

function tailOf(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(unreadable)';
  }
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}
