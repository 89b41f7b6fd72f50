/**
 * `cli eval`: the suite's runs (task × mode × repeat, in that order within each repeat), at most
 * --concurrency at once, each through runTask.ts. Results are written after every finished run, so an
 * interrupted or crashed eval keeps what it measured; Ctrl-C cancels the running missions, starts nothing
 * new, and marks the part interrupted.
 *
 * Setup problems that would make every result meaningless stop it before any run (exit 2): no model
 * configured, no key, no tasks, or `--sandbox required` (the default) where this machine has no sandbox —
 * every command would be refused, and the figures would measure that.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { defaultSandboxMode } from '../../core/contracts/sandbox';
import type { CliIO } from '../cliMission';
import { cliModelSetup } from '../cliModels';
import { detectSandbox } from '../sandbox/detect';
import { EVAL_USAGE, parseEvalArgs, type EvalRunArgs, type EvalValidateArgs } from './evalArgs';
import { mergeCommand, writeOutputs } from './evalOutputs';
import { createProgress, type ProgressStream } from './progress';
import { EVAL_FORMAT, EVAL_VERSION, type EvalConfig, type EvalFile, type RunResult } from './results';
import { endpointOf, hostInfo, productInfo, productRoot, resolvedModels } from './runRecord';
import { errorResult, runName, runTask, type RunSetup, type RunSpec } from './runTask';
import { markdownSummary } from './summary';
import { discoverTasks, loadTask, shardOf, taskInfo, type TaskLoad } from './taskSpec';
import { validateSuite } from './validateSuite';
import { errorText } from '../../core/primitives/errorText';

const EVAL_EXIT = { ok: 0, someErrors: 1, usage: 2 } as const;

/** The bundled suite: evals/tasks in the project this CLI was built from. */
function bundledSuite(): string | undefined {
  const root = productRoot();
  const dir = root ? join(root, 'evals', 'tasks') : undefined;
  return dir && existsSync(dir) ? dir : undefined;
}

export async function evalMain(argv: readonly string[], io: CliIO): Promise<number> {
  const parsed = parseEvalArgs(argv);
  if (!parsed.ok) {
    io.stderr.write(`error: ${parsed.error}\n${EVAL_USAGE}\n`);
    return EVAL_EXIT.usage;
  }
  const args = parsed.value;
  if (args.kind === 'help') {
    io.stdout.write(`${EVAL_USAGE}\n`);
    return EVAL_EXIT.ok;
  }
  if (args.kind === 'merge') return mergeCommand(args, io);
  if (args.kind === 'validate') return validateCommand(args, io);
  return runSuite(args, io);
}

async function validateCommand(args: EvalValidateArgs, io: CliIO): Promise<number> {
  const suite = args.tasks ?? bundledSuite();
  if (!suite || !existsSync(suite)) {
    io.stderr.write(`error: no suite at ${suite ?? 'evals/tasks'} (pass --tasks DIR)\n`);
    return EVAL_EXIT.usage;
  }
  const results = await validateSuite(suite, args.solutions);
  for (const r of results) io.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'} ${r.id}${r.ok ? '' : `: ${r.problems.join('; ')}`}\n`);
  const bad = results.filter((r) => !r.ok).length;
  io.stdout.write(`${results.length - bad} of ${results.length} task(s) valid\n`);
  return bad === 0 && results.length > 0 ? EVAL_EXIT.ok : EVAL_EXIT.someErrors;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[:]/g, '-').replace(/\..*$/, '');
}

/** The runs of this part: tasks (filtered, sharded) × modes, repeat after repeat. */
function plannedRuns(args: EvalRunArgs, loads: readonly TaskLoad[]): RunSpec[] {
  const ids = loads.map((l) => ({ id: l.ok ? l.value.id : l.error.id, load: l }));
  const mine = args.shard ? shardOf(ids, args.shard.index, args.shard.count) : ids;
  const runs: RunSpec[] = [];
  for (let repeat = 1; repeat <= args.repeat; repeat++) {
    for (const { load } of mine) for (const mode of args.modes) runs.push({ load, mode, repeat });
  }
  return runs;
}

async function runSuite(args: EvalRunArgs, io: CliIO): Promise<number> {
  const fail = (message: string): number => {
    io.stderr.write(`error: ${message}\n`);
    return EVAL_EXIT.usage;
  };
  const suiteDir = args.tasks ? resolve(args.tasks) : bundledSuite();
  if (!suiteDir || !existsSync(suiteDir)) return fail(`no task suite at ${suiteDir ?? 'evals/tasks'} (pass --tasks DIR)`);
  let loads = discoverTasks(suiteDir).map(loadTask);
  const suiteTasks = loads.map(taskInfo);
  if (args.only.length > 0) {
    const unknown = args.only.filter((id) => !suiteTasks.some((t) => t.id === id));
    if (unknown.length > 0) return fail(`no task ${unknown.join(', ')} in ${suiteDir}`);
    loads = loads.filter((l) => args.only.includes(l.ok ? l.value.id : l.error.id));
  }
  if (loads.length === 0) return fail(`no tasks in ${suiteDir} (a task is a folder with task.md, repo/ and check)`);
  const setup = cliModelSetup(args.models, io.env);
  if (!setup.ok) return fail(setup.error);
  const sandbox = args.sandbox ?? defaultSandboxMode(process.platform);
  const support = detectSandbox();
  if (sandbox === 'required' && !support.available) {
    return fail(`no OS sandbox here (${support.reason}): every command would be refused. ${support.remedy} — or pass --sandbox off to run commands unconfined`);
  }

  const startedAt = new Date();
  const outDir = resolve(args.out ?? join('eval-results', stamp(startedAt)));
  const paths = {
    json: resolve(args.json ?? join(outDir, 'results.json')),
    report: resolve(args.report ?? join(outDir, 'report.html')),
    ...(args.markdown ? { markdown: resolve(args.markdown) } : {}),
  };
  const abort = new AbortController();
  // The first Ctrl-C stops the eval gently (results so far are kept); a second one leaves at once.
  const onSigint = (): void => {
    if (abort.signal.aborted) process.exit(130);
    io.stderr.write('\ninterrupting: the running missions are cancelled, their checks still run (Ctrl-C again to leave now)\n');
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  const runSetup: RunSetup = {
    client: setup.value.client,
    models: setup.value.models,
    limits: args.limits,
    sandbox,
    outDir,
    relativeTo: dirname(paths.json),
    keep: args.keep,
    signal: abort.signal,
    env: io.env,
  };
  const runs = plannedRuns(args, loads);
  const config: EvalConfig = {
    provider: args.models.provider ?? 'anthropic',
    models: resolvedModels(setup.value.models),
    modes: args.modes,
    repeat: args.repeat,
    sandbox,
    suite: { name: args.tasks ? basename(suiteDir) : 'bundled', tasks: suiteTasks },
    parts: [
      {
        shard: args.shard ?? null,
        startedAt: startedAt.toISOString(),
        finishedAt: startedAt.toISOString(),
        interrupted: false,
        product: productInfo(),
        host: hostInfo(support),
        endpoint: endpointOf(args.models, io.env),
        tasks: [...new Set(runs.map((r) => (r.load.ok ? r.load.value.id : r.load.error.id)))],
      },
    ],
    results: [],
  };
  const file: EvalFile = { format: EVAL_FORMAT, version: EVAL_VERSION, createdAt: startedAt.toISOString(), configs: [config] };
  const save = (): void => {
    config.parts[0]!.finishedAt = new Date().toISOString();
    config.parts[0]!.interrupted = abort.signal.aborted;
    writeOutputs(file, paths);
  };

  const shard = args.shard ? ` (shard ${args.shard.index}/${args.shard.count})` : '';
  const what = `${runs.length} run(s) of ${config.parts[0]!.tasks.length} task(s) from ${suiteDir}${shard}, modes ${args.modes.join(' and ')}`;
  io.stderr.write(`eval: ${what}; output in ${outDir}\n`);
  const progress = createProgress(io.stderr as ProgressStream, runs.length);
  const queue = [...runs];
  const worker = async (): Promise<void> => {
    for (let spec = queue.shift(); spec && !abort.signal.aborted; spec = queue.shift()) {
      const id = spec.load.ok ? spec.load.value.id : spec.load.error.id;
      const name = runName(spec, id);
      const run = spec;
      progress.started(name);
      // A harness fault in one run (an unreadable file) costs that run a verdict, not the suite its results.
      const result = await runTask(spec, runSetup).catch((error: unknown): RunResult => errorResult(run, id, `the harness failed: ${errorText(error)}`));
      config.results.push(result);
      progress.finished(name, result);
      save();
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(args.concurrency, runs.length) }, worker));
  } finally {
    process.removeListener('SIGINT', onSigint);
    progress.close();
    save();
  }
  io.stdout.write(`${markdownSummary(file)}\n`);
  io.stderr.write(`results: ${paths.json}\nreport:  ${paths.report}\n${paths.markdown ? `summary: ${paths.markdown}\n` : ''}`);
  if (abort.signal.aborted) {
    io.stderr.write(`interrupted: ${config.results.length} of ${runs.length} run(s) ran\n`);
    return EVAL_EXIT.someErrors;
  }
  return config.results.some((r) => r.status === 'error') ? EVAL_EXIT.someErrors : EVAL_EXIT.ok;
}
