/**
 * The command line of `cli eval`: run a task suite, merge result files, or check that a suite's tasks are
 * real. Errors are values (a message and the usage), never a stack trace. Model and cap flags are the
 * ones `run` takes, parsed by the same functions (cliArgs.ts).
 */
import type { SandboxMode } from '../../core/contracts/sandbox';
import { err, ok } from '../../core/contracts/result';
import { LIMIT_FLAGS, MODEL_FLAGS, parseLimits, parseModels, type CliLimits, type CliModels, type Parsed } from '../cliArgs';

const EVAL_MODES = ['planned', 'direct'] as const;
type EvalMode = (typeof EVAL_MODES)[number];

interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export interface EvalRunArgs {
  kind: 'run';
  /** Absent: the bundled suite. */
  tasks?: string;
  modes: EvalMode[];
  models: CliModels;
  limits: CliLimits;
  sandbox?: SandboxMode;
  repeat: number;
  concurrency: number;
  shard?: Shard;
  /** Only these task ids (repeatable --task). */
  only: string[];
  out?: string;
  json?: string;
  report?: string;
  markdown?: string;
  /** Keep each run's workspace copy (under the output folder) instead of removing it. */
  keep: boolean;
}

export interface EvalMergeArgs {
  kind: 'merge';
  inputs: string[];
  json?: string;
  report?: string;
  markdown?: string;
}

export interface EvalValidateArgs {
  kind: 'validate';
  tasks?: string;
  /** A folder of `<task id>.patch` reference solutions: each must make its task's check pass. */
  solutions?: string;
}

export type EvalArgs = EvalRunArgs | EvalMergeArgs | EvalValidateArgs | { kind: 'help' };

export const EVAL_USAGE = `usage:
  node dist/cli.js eval [options]                 run a task suite, planned and/or direct (npm run eval -- [options])
  node dist/cli.js eval merge A.json B.json … [--json OUT] [--report OUT.html] [--markdown OUT.md]
  node dist/cli.js eval validate [--tasks DIR] [--solutions DIR]

  eval runs every task of a suite through the same engine as \`run --approve all\`, headless, each in a fresh
  git copy of the task's repository, commands in the OS sandbox. After each mission the task's hidden
  \`check\` runs, outside the agent's reach: a task is resolved when its check passes and no file its
  \`untouched\` globs name changed — nothing else counts.

  options:
  --tasks DIR              the suite: a folder of task folders (default: the bundled suite, evals/tasks)
  --task ID                only this task (repeatable)
  --mode planned|direct|both
                           planned: planner, executors, verifier, replans (what a user runs); direct: the
                           single-loop baseline — one executor with the whole task and the union authority, no
                           planner, no verifier; both (default): side by side
  --repeat N               run every task N times (default 1): totals show the spread
  --concurrency N          missions at once (default 1)
  --shard I/N              only the I-th of N deterministic parts of the suite (merge the parts' --json files)
  --out DIR                traces, logs and kept workspaces (default eval-results/<date>-<time>)
  --json FILE              machine-readable results (default OUT/results.json)
  --report FILE.html       one self-contained HTML report (default OUT/report.html)
  --markdown FILE.md       the summary table in Markdown (for a README or a CI job summary)
  --keep                   keep each run's workspace under OUT/workspaces
  --sandbox required|prefer|off
                           as for run (default required on Linux and macOS); a headless eval refuses every
                           command that would need a person to approve it unconfined
  --provider anthropic|openai --base-url URL --model NAME --planner-model NAME --executor-model NAME
  --verifier-model NAME    the models, exactly as for run
  --max-cost USD --max-tokens N --max-replans N --max-minutes N --max-step-attempts N --max-plan-steps N
                           each mission's caps, as for run

  with a key:          ANTHROPIC_API_KEY=… npm run eval -- --mode both --repeat 3
                       OPENAI_API_KEY=… npm run eval -- --provider openai --model gpt-4.1
  with a local model:  ollama pull qwen2.5-coder:7b; npm run eval -- --provider openai \\
                         --base-url http://localhost:11434/v1 --model qwen2.5-coder:7b
  in CI:               .github/workflows/eval.yml (Actions → eval → Run workflow): a matrix over shards and
                       models, keys from the repository's secrets, the merged report as an artifact

  merge joins the --json files of shards (and of other models: each set of models stays its own column
  group) into one report; validate checks that each task's check fails on its starting tree (and passes
  with its reference solution, given --solutions). Exit code: 0 when every run ran (resolved or not), 1 when
  some task could not run (a malformed task: see its error), 2 for a bad command line or setup.`;

const BOOLEAN = new Set(['--keep', '--help', '-h']);
const RUN_FLAGS = [
  '--tasks',
  '--task',
  '--mode',
  '--repeat',
  '--concurrency',
  '--shard',
  '--out',
  '--json',
  '--report',
  '--markdown',
  '--sandbox',
  ...MODEL_FLAGS,
  ...LIMIT_FLAGS,
];
const MERGE_FLAGS = ['--json', '--report', '--markdown'];
const VALIDATE_FLAGS = ['--tasks', '--solutions'];

type Flags = Map<string, string[]>;

/** Flags with values, booleans and positional words; unknown flags are refused by name. */
function readFlags(argv: readonly string[], known: readonly string[], what: string): Parsed<{ flags: Flags; booleans: Set<string>; words: string[] }> {
  const flags: Flags = new Map();
  const booleans = new Set<string>();
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (BOOLEAN.has(a)) {
      booleans.add(a);
      continue;
    }
    if (!a.startsWith('-')) {
      words.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (!known.includes(name)) return err(`unknown option ${name} for "${what}"`);
    const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--'))) return err(`${name} needs a value`);
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return ok({ flags, booleans, words });
}

function wholeNumber(flag: string, text: string | undefined, fallback: number, max: number): Parsed<number> {
  if (text === undefined) return ok(fallback);
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1 || n > max) return err(`${flag} must be a whole number from 1 to ${max} (got "${text}")`);
  return ok(n);
}

function parseShard(text: string): Parsed<Shard> {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) return err(`--shard must be I/N with 1 ≤ I ≤ N, e.g. 2/4 (got "${text}")`);
  return ok({ index, count });
}

function parseModes(text: string | undefined): Parsed<EvalMode[]> {
  if (text === undefined || text === 'both') return ok([...EVAL_MODES]);
  if (text === 'planned' || text === 'direct') return ok([text]);
  return err(`--mode must be planned, direct or both (got "${text}")`);
}

export function parseEvalArgs(argv: readonly string[]): Parsed<EvalArgs> {
  const [sub] = argv;
  if (sub === 'merge') return parseMerge(argv.slice(1));
  if (sub === 'validate') return parseValidate(argv.slice(1));
  const read = readFlags(argv, RUN_FLAGS, 'eval');
  if (!read.ok) return read;
  const { flags, booleans, words } = read.value;
  if (booleans.has('--help') || booleans.has('-h')) return ok({ kind: 'help' });
  if (words.length > 0) return err(`unexpected argument "${words[0]}" (eval takes options; eval merge FILE… merges)`);
  const one = (name: string): string | undefined => flags.get(name)?.at(-1);
  const modes = parseModes(one('--mode'));
  if (!modes.ok) return modes;
  const repeat = wholeNumber('--repeat', one('--repeat'), 1, 100);
  if (!repeat.ok) return repeat;
  const concurrency = wholeNumber('--concurrency', one('--concurrency'), 1, 64);
  if (!concurrency.ok) return concurrency;
  const shardText = one('--shard');
  const shard = shardText === undefined ? undefined : parseShard(shardText);
  if (shard && !shard.ok) return shard;
  const sandbox = one('--sandbox');
  if (sandbox !== undefined && sandbox !== 'required' && sandbox !== 'prefer' && sandbox !== 'off')
    return err(`--sandbox must be required, prefer or off (got "${sandbox}")`);
  const models = parseModels(one);
  if (!models.ok) return models;
  const limits = parseLimits(one);
  if (!limits.ok) return limits;
  const optional = (flag: string, key: 'tasks' | 'out' | 'json' | 'report' | 'markdown'): Partial<EvalRunArgs> => (one(flag) ? { [key]: one(flag) } : {});
  return ok({
    kind: 'run',
    modes: modes.value,
    models: models.value,
    limits: limits.value,
    repeat: repeat.value,
    concurrency: concurrency.value,
    only: flags.get('--task') ?? [],
    keep: booleans.has('--keep'),
    ...(shard ? { shard: shard.value } : {}),
    ...(sandbox ? { sandbox } : {}),
    ...optional('--tasks', 'tasks'),
    ...optional('--out', 'out'),
    ...optional('--json', 'json'),
    ...optional('--report', 'report'),
    ...optional('--markdown', 'markdown'),
  });
}

function parseMerge(argv: readonly string[]): Parsed<EvalArgs> {
  const read = readFlags(argv, MERGE_FLAGS, 'eval merge');
  if (!read.ok) return read;
  const { flags, booleans, words } = read.value;
  if (booleans.has('--help') || booleans.has('-h')) return ok({ kind: 'help' });
  if (words.length === 0) return err('eval merge needs the result files to merge (the --json files of the runs)');
  const one = (name: string): string | undefined => flags.get(name)?.at(-1);
  const json = one('--json');
  const report = one('--report');
  const markdown = one('--markdown');
  return ok({ kind: 'merge', inputs: words, ...(json ? { json } : {}), ...(report ? { report } : {}), ...(markdown ? { markdown } : {}) });
}

function parseValidate(argv: readonly string[]): Parsed<EvalArgs> {
  const read = readFlags(argv, VALIDATE_FLAGS, 'eval validate');
  if (!read.ok) return read;
  const { flags, booleans, words } = read.value;
  if (booleans.has('--help') || booleans.has('-h')) return ok({ kind: 'help' });
  if (words.length > 0) return err(`unexpected argument "${words[0]}"`);
  const tasks = flags.get('--tasks')?.at(-1);
  const solutions = flags.get('--solutions')?.at(-1);
  return ok({ kind: 'validate', ...(tasks ? { tasks } : {}), ...(solutions ? { solutions } : {}) });
}
