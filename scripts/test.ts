/**
 * `npm test`: type-check → lint (ESLint, knip and the Prettier check: docs/lint.md) → build → unit → system
 * (the real CLI with bubblewrap and scripted models: the escape suite, the ordinary-projects corpus, eval
 * over whole task suites) → integration (inside code-server's extension host) → E2E (Playwright on the
 * workbench). Prints one summary per tier and, last, the line `N passed, N failed`
 * summed over the tiers. Exits non-zero on any failure, on a timeout, or when the integration tier ran no
 * test. A failing step (type-check, build) counts as one failure, and so does each failing lint check; a
 * failed build stops the run, since nothing after it would test the current code.
 *
 *   node --import tsx scripts/test.ts                     every tier
 *   node --import tsx scripts/test.ts build integration   just those, in the canonical order
 *   node --import tsx scripts/test.ts unit --grep scheduler
 *
 * Each child tier runs in its own process group (test/support/host/processGroups), so a timeout or Ctrl-C
 * ends it together with everything it started.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { repoRoot } from '../test/support/host/hostPaths';
import { ensureCodeServer } from '../test/support/host/installCodeServer';
import { runIntegrationTier } from '../test/support/host/integrationTier';
import { spawnGroup } from '../test/support/host/processGroups';
import { ensureUnitPackages } from '../test/support/host/systemPackages';

const TIERS = ['typecheck', 'lint', 'build', 'unit', 'system', 'integration', 'e2e'] as const;
type TierName = (typeof TIERS)[number];

interface TierOutcome {
  name: TierName;
  passed: number;
  failed: number;
  pending: number;
  seconds: number;
  problems: string[];
}

const MINUTE = 60_000;
const TIMEOUTS: Record<TierName, number> = {
  typecheck: 5 * MINUTE,
  lint: 10 * MINUTE, // type-aware ESLint builds the whole TypeScript program again: about 1.5 min on 2 busy cores
  build: 5 * MINUTE,
  unit: 15 * MINUTE, // about 1,100 tests: 3 min idle, 8 under load
  system: 60 * MINUTE, // the escape suite, the corpus and eval run the real CLI some 250 times; about 25 min under a load of 10
  integration: 45 * MINUTE, // includes a first-time code-server install
  e2e: 35 * MINUTE, // some 40 browser-driven missions; about 12 min idle, past 20 under a load of 10
};

const CountsSchema = z.object({ passed: z.number(), failed: z.number(), pending: z.number(), hookFailures: z.number() });

function parseArgs(argv: string[]): { tiers: TierName[]; grep?: string } {
  const chosen = new Set<TierName>();
  let grep: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--grep' || arg === '-g') grep = argv[++i];
    else if ((TIERS as readonly string[]).includes(arg)) chosen.add(arg as TierName);
    else throw new Error(`unknown argument ${arg}; tiers are ${TIERS.join(', ')}, option --grep PATTERN`);
  }
  const tiers = chosen.size === 0 ? [...TIERS] : TIERS.filter((tier) => chosen.has(tier));
  return grep === undefined ? { tiers } : { tiers, grep };
}

const say = (line: string): void => void process.stdout.write(`${line}\n`);
const log = (line: string): void => void process.stdout.write(`[host] ${line}\n`);

/** Runs a command in its own process group with inherited output; kills it at the deadline. */
async function run(
  command: string,
  args: string[],
  timeoutMs: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ status: number | string; timedOut: boolean }> {
  const group = spawnGroup(command, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'], env });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void group.stop(5000);
  }, timeoutMs);
  const status = await group.exited;
  clearTimeout(timer);
  return { status, timedOut };
}

async function step(name: TierName, command: string, args: string[]): Promise<Omit<TierOutcome, 'seconds'>> {
  const { status, timedOut } = await run(command, args, TIMEOUTS[name]);
  const ok = status === 0 && !timedOut;
  const problems = ok ? [] : [timedOut ? `${name} timed out after ${TIMEOUTS[name] / 1000} s` : `${name} failed (exit ${status})`];
  return { name, passed: 0, failed: ok ? 0 : 1, pending: 0, problems };
}

/** The lint checks, each run to the end so one report shows every kind of violation; each failing one counts. */
async function lintTier(name: TierName): Promise<Omit<TierOutcome, 'seconds'>> {
  const bin = (pkg: string, file: string): string => join(repoRoot, 'node_modules', pkg, 'bin', file);
  const checks: [string, string[]][] = [
    ['eslint', [bin('eslint', 'eslint.js'), '.']],
    ['knip', [bin('knip', 'knip.js')]],
    ['prettier', [bin('prettier', 'prettier.cjs'), '--check', '.']],
  ];
  const started = Date.now();
  const problems: string[] = [];
  for (const [check, args] of checks) {
    const { status, timedOut } = await run(process.execPath, args, TIMEOUTS[name] - (Date.now() - started));
    if (timedOut) problems.push(`${name}: ${check} timed out`);
    else if (status !== 0) problems.push(`${name}: ${check} found violations (exit ${status}; \`npm run fix\` formats and applies the safe fixes)`);
  }
  return { name, passed: 0, failed: problems.length, pending: 0, problems };
}

/** A mocha run in a child process whose counts come back through scripts/mochaCountingReporter.cjs. */
async function mochaTier(name: TierName, mochaArgs: string[], grep: string | undefined): Promise<Omit<TierOutcome, 'seconds'>> {
  const dir = mkdtempSync(join(tmpdir(), `plan-execute-${name}-`));
  const countsFile = join(dir, 'counts.json');
  try {
    const args = [
      require.resolve('mocha/bin/mocha.js'),
      ...mochaArgs,
      '--reporter',
      join(repoRoot, 'scripts', 'mochaCountingReporter.cjs'),
      '--reporter-option',
      `output=${countsFile}`,
      ...(grep ? ['--grep', grep] : []),
    ];
    const { status, timedOut } = await run(process.execPath, args, TIMEOUTS[name]);
    const problems: string[] = [];
    if (timedOut) problems.push(`${name} timed out after ${TIMEOUTS[name] / 1000} s`);
    if (!existsSync(countsFile)) {
      problems.push(`${name}: mocha ended (exit ${status}) without reporting any counts`);
      return { name, passed: 0, failed: 1, pending: 0, problems };
    }
    const counts = CountsSchema.parse(JSON.parse(readFileSync(countsFile, 'utf8')));
    if (counts.hookFailures > 0) problems.push(`${name}: ${counts.hookFailures} hook(s) failed`);
    if (status !== 0 && counts.failed === 0 && counts.hookFailures === 0) problems.push(`${name}: mocha exited ${status}`);
    return { name, passed: counts.passed, failed: counts.failed + counts.hookFailures, pending: counts.pending, problems };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runTier(name: TierName, grep: string | undefined): Promise<Omit<TierOutcome, 'seconds'> & { vscodeVersion?: string }> {
  switch (name) {
    case 'typecheck':
      return step(name, process.execPath, [require.resolve('typescript/bin/tsc'), '--noEmit', '-p', '.']);
    case 'lint':
      return lintTier(name);
    case 'build':
      return step(name, process.execPath, [join(repoRoot, 'esbuild.mjs')]);
    case 'unit':
      ensureUnitPackages({ log });
      // --exit: a test that leaves a timer or socket open must not hold the run until the tier times out.
      return mochaTier(name, ['--config', join(repoRoot, '.mocharc.json'), '--exit'], grep);
    case 'system':
      // Tests that run the real CLI (dist/cli.js, fresh after the build tier) inside bubblewrap.
      ensureUnitPackages({ log });
      return mochaTier(
        name,
        ['--no-config', '--no-package', '--require', 'tsx/cjs', '--timeout', '600000', '--exit', '--recursive', '--extension', 'test.ts', 'test/system'],
        grep,
      );
    case 'integration': {
      const outcome = await runIntegrationTier({ log, print: say, ...(grep ? { grep } : {}), timeoutMs: TIMEOUTS.integration });
      return { name, ...outcome };
    }
    case 'e2e':
      // Install (or find) the host here, under this tier's time, rather than inside a mocha hook.
      await ensureCodeServer({ log });
      return mochaTier(
        name,
        [
          '--no-config',
          '--no-package',
          '--require',
          'tsx/cjs',
          '--require',
          join(repoRoot, 'test', 'e2e', 'support', 'rootHooks.ts'),
          '--timeout',
          '180000',
          // Exit when the tests are done even if a test left a handle open; the exit handler still ends
          // every process group the tests started.
          '--exit',
          '--recursive',
          '--extension',
          'e2e.ts',
          'test/e2e',
        ],
        grep,
      );
  }
}

async function main(): Promise<number> {
  const { tiers, grep } = parseArgs(process.argv.slice(2));
  const outcomes: TierOutcome[] = [];
  let vscodeVersion: string | undefined;
  const started = Date.now();
  for (const name of tiers) {
    say(`\n━━ ${name} ${'━'.repeat(Math.max(0, 60 - name.length))}`);
    const begun = Date.now();
    const outcome = await runTier(name, grep);
    if ('vscodeVersion' in outcome && outcome.vscodeVersion) vscodeVersion = outcome.vscodeVersion;
    outcomes.push({ ...outcome, seconds: (Date.now() - begun) / 1000 });
    for (const problem of outcome.problems) say(`!! ${problem}`);
    if (name === 'build' && outcome.failed > 0) {
      say('!! the build failed: skipping the tiers after it');
      break;
    }
  }

  say(`\n━━ summary ${'━'.repeat(53)}`);
  for (const o of outcomes) {
    const pending = o.pending > 0 ? `  ${o.pending} pending` : '';
    say(`  ${o.name.padEnd(12)} ${String(o.passed).padStart(4)} passed  ${String(o.failed).padStart(3)} failed${pending}  (${o.seconds.toFixed(1)} s)`);
  }
  if (vscodeVersion) say(`  VS Code version tested: ${vscodeVersion}`);
  say(`  wall time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const passed = outcomes.reduce((sum, o) => sum + o.passed, 0);
  let failed = outcomes.reduce((sum, o) => sum + o.failed, 0);
  const problems = outcomes.flatMap((o) => o.problems);
  // A tier that failed without a failing test (timeout, zero tests, a host that never started) still fails the run.
  if (failed === 0 && problems.length > 0) failed = problems.length;
  say(`${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(`!! ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    say('0 passed, 1 failed');
    process.exit(1);
  },
);
