/**
 * One run: a task, a mode, a repeat. A fresh workspace (taskWorkspace.ts), the mission through the CLI's
 * own wiring (`runHeadless`: the same adapters, roles, sandboxed tools and trace as `cli run`, with
 * `--approve all`), then — only after the mission has ended — the untouched files compared and the hidden
 * check run (hiddenCheck.ts). The verdict is theirs alone; what the mission said about itself is recorded
 * beside it (falseDone, falseFail), never instead of it.
 *
 * The workspace and the trace live in a private folder under the system temp dir while the mission runs:
 * the sandbox hides a workspace's parent folder from its commands, so neither the trace nor another run is
 * in reach. Afterwards the trace and log move to the output folder (and the workspace too, with --keep).
 */
import { PassThrough, Writable } from 'node:stream';
import { createWriteStream, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Authority } from '../../core/contracts/plan';
import type { SandboxMode } from '../../core/contracts/sandbox';
import { singleLoopPlan } from '../../core/mission/direct';
import type { ModelClient } from '../../core/model/modelClient';
import type { DeepPartialSettings } from '../../core/model/modelSettings';
import type { Approver } from '../../core/ports';
import type { CliLimits } from '../cliArgs';
import { runHeadless, type HeadlessMission } from '../cliMission';
import { runHiddenCheck } from './hiddenCheck';
import type { Mode, RunResult } from './results';
import type { Task, TaskLoad } from './taskSpec';
import { changedFiles, fingerprint, prepareWorkspace } from './taskWorkspace';
import { metricsOfTrace, type TraceMetrics } from './traceMetrics';
import { errorText } from '../../core/primitives/errorText';

/**
 * Commands the direct baseline may run: the union of what a plan's steps are usually granted (build, test,
 * run, inspect, move files), as allowlist patterns. The policy still refuses what no pattern may allow
 * (wrappers with a wildcard, eval flags: `node -e`), and the sandbox still confines what runs.
 */
const DIRECT_TOOLBOX = [
  'node *',
  'npm test *',
  'npm run *',
  'npm ls *',
  'python3 *',
  'python *',
  'pytest *',
  'tsc *',
  'git status *',
  'git diff *',
  'git log *',
  'git show *',
  'ls *',
  'cat *',
  'head *',
  'tail *',
  'grep *',
  'wc *',
  'diff *',
  'mkdir *',
  'touch *',
  'cp *',
  'mv *',
  'rm *',
];

/** The union authority of the direct baseline: every file the policy lets a step edit, and the toolbox. */
function unionAuthority(task: Task): Authority {
  return { read: ['**'], edit: ['**'], commands: [...new Set([...DIRECT_TOOLBOX, ...task.meta.commands])], network: false, mcp: [] };
}

/**
 * The headless approver: with --approve all the engine asks only for a command that would run outside the
 * sandbox (`--sandbox prefer` where there is none). No one is there to say yes, so it is refused.
 */
const headlessApprover: Approver = {
  request: async (request) => ({
    decision: 'rejected',
    reason:
      request.kind === 'command'
        ? 'eval runs headless: nothing can approve a command outside the OS sandbox (install the sandbox, or pass --sandbox off to run commands unconfined)'
        : 'eval runs headless: nothing can approve this',
  }),
};

export interface RunSetup {
  client: ModelClient;
  models: DeepPartialSettings;
  limits: CliLimits;
  sandbox: SandboxMode;
  /** Where traces, logs and kept workspaces go. */
  outDir: string;
  /** Paths in the result are relative to this folder (the results file's) when inside it. */
  relativeTo: string;
  keep: boolean;
  signal: AbortSignal;
  env: Record<string, string | undefined>;
}

export interface RunSpec {
  load: TaskLoad;
  mode: Mode;
  repeat: number;
}

export const runName = (spec: { mode: Mode; repeat: number }, id: string): string => `${id}.${spec.mode}.${spec.repeat}`;

function pathFor(setup: RunSetup, abs: string): string {
  const rel = relative(setup.relativeTo, abs);
  return rel.startsWith('..') || rel === '' ? abs : rel.split(sep).join('/');
}

const NO_METRICS: Omit<TraceMetrics, 'missionId' | 'outcome' | 'summary'> = {
  modelCalls: 0,
  byRole: {},
  tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  costUsd: 0,
  pricing: 'none',
  steps: { planned: 0, attempts: 0, succeeded: 0, failed: 0 },
  replans: { accepted: 0, refused: 0 },
  policyDenials: 0,
  sandboxDenials: 0,
  verifications: { passed: 0, failed: 0, unverified: 0 },
  estimate: null,
  traceProblems: 0,
};

/** A run that could not happen: no verdict, the reason in `error`. */
export function errorResult(spec: RunSpec, id: string, message: string): RunResult {
  return {
    task: id,
    mode: spec.mode,
    repeat: spec.repeat,
    status: 'error',
    error: message,
    resolved: false,
    check: null,
    untouchedChanged: [],
    mission: { id: null, outcome: null, summary: '' },
    falseDone: false,
    falseFail: false,
    wallMs: 0,
    trace: null,
    log: null,
    ...pick(NO_METRICS),
  };
}

function pick(
  m: Omit<TraceMetrics, 'missionId' | 'outcome' | 'summary'>,
): Pick<
  RunResult,
  'costUsd' | 'pricing' | 'tokens' | 'modelCalls' | 'byRole' | 'steps' | 'replans' | 'policyDenials' | 'sandboxDenials' | 'verifications' | 'estimate'
> {
  return {
    costUsd: m.costUsd,
    pricing: m.pricing,
    tokens: m.tokens,
    modelCalls: m.modelCalls,
    byRole: m.byRole,
    steps: m.steps,
    replans: m.replans,
    policyDenials: m.policyDenials,
    sandboxDenials: m.sandboxDenials,
    verifications: m.verifications,
    ...(m.estimate ? { estimate: m.estimate } : {}),
  };
}

/** The mission of one run, through the CLI's wiring; its progress lines go to `logPath`. */
async function mission(
  task: Task,
  mode: Mode,
  ws: string,
  tracePath: string,
  logPath: string,
  setup: RunSetup,
): Promise<{ outcome: RunResult['mission']['outcome']; summary: string }> {
  const log = createWriteStream(logPath, { flags: 'a' });
  const silent = new Writable({ write: (_c, _e, next) => next() });
  const stdin = new PassThrough();
  stdin.end();
  const m: HeadlessMission = {
    workspace: ws,
    task: task.text,
    constraints: [],
    approve: 'all',
    sandbox: setup.sandbox,
    client: setup.client,
    models: setup.models,
    trace: tracePath,
    limits: setup.limits,
    approver: headlessApprover,
    signal: setup.signal,
    ...(mode === 'direct' ? { plan: singleLoopPlan(task.text, unionAuthority(task)), settings: { verify: false, retriesPerStep: 0 } } : {}),
  };
  try {
    const { report } = await runHeadless(m, { stdin, stdout: silent, stderr: log, env: setup.env });
    return { outcome: report.outcome, summary: report.summary };
  } catch (error) {
    const message = errorText(error);
    log.write(`error: ${message}\n`);
    return { outcome: 'error', summary: message };
  } finally {
    await new Promise<void>((done) => log.end(done));
  }
}

export async function runTask(spec: RunSpec, setup: RunSetup): Promise<RunResult> {
  const { load } = spec;
  if (!load.ok) return errorResult(spec, load.error.id, `malformed task: ${load.error.message}`);
  const task = load.value;
  const name = runName(spec, task.id);
  const scratch = mkdtempSync(join(tmpdir(), 'pe-eval-'));
  const ws = join(scratch, 'ws');
  const privateTrace = join(scratch, 'trace.jsonl');
  const privateLog = join(scratch, 'mission.log');
  try {
    let skip: string[];
    try {
      skip = await prepareWorkspace(task, ws, join(scratch, 'git-home'));
    } catch (error) {
      return errorResult(spec, task.id, `the workspace could not be made: ${errorText(error)}`);
    }
    const before = fingerprint(ws, task.untouched, skip);
    const started = Date.now();
    const outcome = await mission(task, spec.mode, ws, privateTrace, privateLog, setup);
    const wallMs = Date.now() - started;
    // The verdict: untouched files first (the check may write, e.g. copy hidden tests in), then the check.
    const untouchedChanged = changedFiles(before, fingerprint(ws, task.untouched, skip));
    const check = await runHiddenCheck(task, ws, scratch);
    const metrics = existsSync(privateTrace)
      ? metricsOfTrace(readFileSync(privateTrace, 'utf8'))
      : { ...NO_METRICS, missionId: null, outcome: null, summary: '' };
    const resolved = check.passed && untouchedChanged.length === 0;
    const said = metrics.outcome ?? outcome.outcome;
    const { trace, log } = keepRecords(setup, name, privateTrace, privateLog, ws);
    return {
      task: task.id,
      mode: spec.mode,
      repeat: spec.repeat,
      status: 'ran',
      resolved,
      check,
      untouchedChanged,
      mission: { id: metrics.missionId, outcome: said, summary: outcome.summary || metrics.summary },
      falseDone: said === 'succeeded' && !resolved,
      falseFail: said !== 'succeeded' && resolved,
      wallMs,
      ...pick(metrics),
      trace,
      log,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Moves the run's trace and log (and, with --keep, its workspace) to the output folder; their paths for the result. */
function keepRecords(setup: RunSetup, name: string, trace: string, log: string, ws: string): Pick<RunResult, 'trace' | 'log'> {
  const move = (from: string, folder: string, file: string): string | null => {
    if (!existsSync(from)) return null;
    const to = join(setup.outDir, folder, file);
    mkdirSync(join(setup.outDir, folder), { recursive: true });
    try {
      renameSync(from, to);
    } catch {
      // EXDEV (the output folder is on another file system) or any other refusal to rename: copy, which
      // throws on its own if it cannot either.
      cpSync(from, to, { recursive: true });
    }
    return pathFor(setup, to);
  };
  if (setup.keep) move(ws, 'workspaces', name);
  return { trace: move(trace, 'traces', `${name}.jsonl`), log: move(log, 'logs', `${name}.log`) };
}
