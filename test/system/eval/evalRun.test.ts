/**
 * `cli eval` end to end: the real CLI (dist/cli.js or a fresh bundle), bubblewrap, and a scripted model on
 * each provider playing the fixture suite (fixtureScripts.ts) in both modes. Every verdict the harness
 * reports is checked twice: against the expectation written with the script, and against the hidden check
 * and the untouched files re-run and re-read by this test in the workspaces the harness kept.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import picomatch from 'picomatch';
import { EvalFileSchema, type EvalConfig, type EvalFile, type RunResult } from '../../../src/node/eval/results';
import { configTotals, type ModeTotals } from '../../../src/node/eval/totals';
import { decodeTrace } from '../../../src/core/trace/jsonl';
import { startScriptedModel, type ScriptedModel, type ScriptedProvider } from '../../support/scriptedModel';
import { evalScenario, runEval } from './evalScript';
import { EXPECTED, FIXTURE_SCRIPTS, FIXTURE_SUITE } from './fixtureScripts';

const PROVIDERS: ScriptedProvider[] = ['anthropic', 'openai'];

function readResults(path: string): EvalFile {
  return EvalFileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

/** Every file under `root` (caches and the harness's and git's folders aside), path → sha256. */
function files(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (['.git', '.plan-execute', '__pycache__', '.pytest_cache', 'node_modules'].includes(e.name)) continue;
      const abs = join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else out.set(relative(root, abs), createHash('sha256').update(readFileSync(abs)).digest('hex'));
    }
  };
  walk(root);
  return out;
}

/** The verdict, recomputed from a kept workspace by this test: the check run again, the untouched files compared. */
function recompute(task: string, ws: string): { checkPassed: boolean; untouchedChanged: string[] } {
  const taskDir = join(FIXTURE_SUITE, task);
  const scratch = mkdtempSync(join(tmpdir(), 'pe-eval-recheck-'));
  try {
    const globs = readFileSync(join(taskDir, 'untouched'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const isUntouched = picomatch(globs, { dot: true });
    const before = files(join(taskDir, 'repo'));
    const after = files(ws);
    const paths = [...new Set([...before.keys(), ...after.keys()])].filter((p) => isUntouched(p));
    const untouchedChanged = paths.filter((p) => before.get(p) !== after.get(p)).sort();
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: scratch,
      TMPDIR: scratch,
      EVAL_TASK_DIR: taskDir,
      EVAL_WORKSPACE: ws,
      PYTHONPYCACHEPREFIX: join(scratch, 'pyc'),
    };
    const check = spawnSync(join(taskDir, 'check'), { cwd: ws, env, encoding: 'utf8', timeout: 120_000 });
    return { checkPassed: check.status === 0, untouchedChanged };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** What must not depend on the machine, the server's prompt cache or the clock. */
function stable(t: ModeTotals): Record<string, unknown> {
  return {
    mode: t.mode,
    runs: t.runs,
    ran: t.ran,
    errors: t.errors,
    resolved: t.resolved,
    falseDone: t.falseDone,
    falseFail: t.falseFail,
    modelCalls: t.modelCalls,
    steps: t.steps,
    stepAttempts: t.stepAttempts,
    replans: t.replans,
    policyDenials: t.policyDenials,
    sandboxDenials: t.sandboxDenials,
  };
}

const byRun = (rs: readonly RunResult[]): Map<string, RunResult> => new Map(rs.map((r) => [`${r.task} ${r.mode} ${r.repeat}`, r]));

describe('eval: the real CLI with scripted models', function () {
  this.timeout(20 * 60_000);
  let base = '';
  const runs: Partial<Record<ScriptedProvider, { out: string; code: number | null; stderr: string; file: EvalFile }>> = {};
  // Every server started is closed, also when a run's assertion failed before it was recorded.
  const servers: ScriptedModel[] = [];

  before(async () => {
    base = mkdtempSync(join(tmpdir(), 'pe-eval-test-'));
    for (const provider of PROVIDERS) {
      const model = await startScriptedModel(provider, evalScenario(FIXTURE_SCRIPTS));
      servers.push(model);
      const out = join(base, provider);
      const exit = await runEval(model, ['--tasks', FIXTURE_SUITE, '--out', out, '--keep', '--concurrency', '2']);
      assert.ok(existsSync(join(out, 'results.json')), `${provider}: no results.json\n${exit.stderr}`);
      runs[provider] = { out, code: exit.code, stderr: exit.stderr, file: readResults(join(out, 'results.json')) };
    }
  });
  after(async () => {
    for (const server of servers) await server.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  for (const provider of PROVIDERS) {
    it(`reports exactly what the hidden checks say, in both modes, on ${provider}`, () => {
      const run = runs[provider]!;
      assert.equal(run.code, 1, `exit 1: the malformed task could not run\n${run.stderr}`);
      const [config] = run.file.configs as [EvalConfig];
      assert.equal(config.provider, provider);
      assert.deepEqual(config.modes, ['planned', 'direct']);
      assert.equal(config.results.length, 10);
      for (const r of config.results) {
        if (r.task === 'broken') {
          assert.equal(r.status, 'error');
          assert.match(r.error ?? '', /check is missing.*meta\.json language/);
          assert.equal(r.resolved, false);
          continue;
        }
        const label = `${provider} ${r.task} ${r.mode}`;
        const expected = EXPECTED[r.task]![r.mode];
        const again = recompute(r.task, join(run.out, 'workspaces', `${r.task}.${r.mode}.${r.repeat}`));
        assert.equal(r.status, 'ran', label);
        assert.equal(r.check?.passed, again.checkPassed, `${label}: the harness's check verdict is the check's`);
        assert.deepEqual(r.untouchedChanged, again.untouchedChanged, `${label}: untouched files`);
        assert.equal(
          r.resolved,
          again.checkPassed && again.untouchedChanged.length === 0,
          `${label}: resolved is the check and the untouched files, nothing else`,
        );
        assert.deepEqual({ resolved: r.resolved, falseDone: r.falseDone, checkPassed: r.check?.passed, untouchedChanged: r.untouchedChanged }, expected, label);
        assert.equal(r.mission.outcome, 'succeeded', `${label}: every scripted mission says it succeeded`);
        const trace = decodeTrace(readFileSync(resolve(run.out, r.trace!), 'utf8'));
        assert.equal(trace.problems.length, 0, `${label}: the trace reads back`);
        assert.equal(trace.events.filter((e) => e.type === 'model_call').length, r.modelCalls, `${label}: model calls are the trace's`);
        if (r.mode === 'direct') {
          assert.deepEqual(Object.keys(r.byRole), ['executor'], `${label}: no planner, no verifier`);
          assert.deepEqual(r.verifications, { passed: 0, failed: 0, unverified: 1 });
          assert.equal(r.steps.planned, 1);
        } else {
          assert.ok(r.byRole.planner && r.byRole.executor, `${label}: planner and executor called`);
        }
        if (provider === 'openai') assert.equal(r.pricing, 'local', `${label}: a loopback endpoint costs nothing`);
        else assert.ok(r.costUsd > 0 && r.pricing === 'priced', `${label}: priced calls`);
      }
      const results = byRun(config.results);
      const ratio = results.get('ratio planned 1')!;
      assert.ok(ratio.policyDenials >= 1, 'the out-of-authority edit was refused by the policy');
      assert.ok(ratio.sandboxDenials >= 1, 'the out-of-scope write was undone by the sandbox');
      assert.ok(!existsSync(join(run.out, 'workspaces', 'ratio.planned.1', 'src', 'stamp.txt')), 'and it is gone');
      assert.equal(results.get('title planned 1')!.verifications.passed, 1, 'the verifier said done too early');
      const totals = configTotals(config);
      assert.deepEqual(
        totals.map((t) => [t.mode, t.resolved, t.ran, t.errors, t.falseDone]),
        [
          ['planned', 2, 4, 1, 2],
          ['direct', 1, 4, 1, 3],
        ],
      );
    });
  }

  it('writes one self-contained HTML report with both modes side by side', () => {
    const html = readFileSync(join(runs.anthropic!.out, 'report.html'), 'utf8');
    assert.doesNotMatch(html, /<script|<link|src="http/i, 'nothing is loaded from elsewhere');
    assert.match(html, /<svg[^>]*aria-label="resolved, share of runs"/);
    assert.match(html, /<th>planned<\/th><th>direct<\/th>/);
    assert.match(html, /ratio<\/td><td>javascript<\/td><td>bugfix<\/td><td>easy<\/td><td>✓<\/td><td>✗ \(said done 1×\)<\/td>/);
  });

  it('splits the suite into shards that merge to the same totals as one run', async () => {
    const model = await startScriptedModel('anthropic', evalScenario(FIXTURE_SCRIPTS));
    try {
      const parts = [1, 2].map((i) => join(base, `shard${i}`));
      for (const [i, out] of parts.entries()) {
        const exit = await runEval(model, ['--tasks', FIXTURE_SUITE, '--out', out, '--shard', `${i + 1}/2`, '--concurrency', '2']);
        assert.ok(exit.code === 0 || exit.code === 1, exit.stderr);
      }
      const shardFiles = parts.map((out) => readResults(join(out, 'results.json')));
      const tasksOf = (f: EvalFile): string[] => f.configs[0]!.parts[0]!.tasks;
      assert.deepEqual(
        [...tasksOf(shardFiles[0]!), ...tasksOf(shardFiles[1]!)].sort(),
        ['broken', 'greet', 'ratio', 'sum', 'title'],
        'the shards cover the suite',
      );
      assert.equal(tasksOf(shardFiles[0]!).filter((t) => tasksOf(shardFiles[1]!).includes(t)).length, 0, 'and do not overlap');

      const merged = join(base, 'merged', 'results.json');
      const exit = await runEval(null, [
        'merge',
        ...parts.map((p) => join(p, 'results.json')),
        '--json',
        merged,
        '--report',
        join(base, 'merged', 'report.html'),
      ]);
      assert.equal(exit.code, 0, exit.stderr);
      const one = runs.anthropic!.file.configs[0]!;
      const joined = readResults(merged);
      assert.equal(joined.configs.length, 1, 'the shards are one configuration');
      const config = joined.configs[0]!;
      assert.equal(config.parts.length, 2);
      assert.deepEqual(configTotals(config).map(stable), configTotals(one).map(stable));
      const mine = byRun(config.results);
      for (const [key, r] of byRun(one.results)) {
        const m = mine.get(key);
        assert.ok(m, `${key} is in the merge`);
        assert.deepEqual(
          [m.status, m.resolved, m.falseDone, m.check?.passed, m.untouchedChanged],
          [r.status, r.resolved, r.falseDone, r.check?.passed, r.untouchedChanged],
          key,
        );
        if (m.trace) assert.ok(existsSync(resolve(join(base, 'merged'), m.trace)), `${key}: the trace path still points at the trace`);
      }
      const shardCost = shardFiles.reduce((sum, f) => sum + f.configs[0]!.results.reduce((s, r) => s + r.costUsd, 0), 0);
      assert.ok(Math.abs(configTotals(config).reduce((s, t) => s + t.costUsd, 0) - shardCost) < 1e-9, "the merge adds the shards' costs");

      const twice = await runEval(null, ['merge', join(parts[0]!, 'results.json'), join(parts[0]!, 'results.json'), '--json', join(base, 'twice.json')]);
      assert.equal(twice.code, 2);
      assert.match(twice.stderr, /shards must not overlap/);
    } finally {
      await model.close();
    }
  });
});
