/**
 * Builders for the eval's pure parts: a task folder on disk, a run result, a results file. Each test says
 * what differs; everything else is a plausible default.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EVAL_FORMAT, EVAL_VERSION, type EvalConfig, type EvalFile, type RunResult } from '../../../src/node/eval/results';

const made: string[] = [];

/** A new temp folder, removed by removeTrees(). */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pe-eval-unit-'));
  made.push(dir);
  return dir;
}

/** Removes every folder tempDir() and writeTree() made (call it in an `after` hook). */
export function removeTrees(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes `files` (path → text; a path ending in "/" is a folder) under `root` (default: a new temp folder); returns it. */
export function writeTree(files: Record<string, string>, root = tempDir()): string {
  for (const [path, text] of Object.entries(files)) {
    const abs = join(root, path);
    if (path.endsWith('/')) {
      mkdirSync(abs, { recursive: true });
      continue;
    }
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    if (path.endsWith('check') && text.startsWith('#!')) chmodSync(abs, 0o755);
  }
  return root;
}

export function result(extra: Partial<RunResult> & Pick<RunResult, 'task' | 'mode'>): RunResult {
  return {
    repeat: 1,
    status: 'ran',
    resolved: false,
    check: { passed: false, exitCode: 1, signal: null, timedOut: false, durationMs: 10, outputTail: '' },
    untouchedChanged: [],
    mission: { id: 'm-1', outcome: 'failed', summary: '' },
    falseDone: false,
    falseFail: false,
    costUsd: 0.01,
    pricing: 'priced',
    tokens: { input: 100, output: 10, cacheRead: 50, cacheWrite: 0 },
    wallMs: 1000,
    modelCalls: 3,
    byRole: { executor: { calls: 3, costUsd: 0.01 } },
    steps: { planned: 1, attempts: 1, succeeded: 0, failed: 1 },
    replans: { accepted: 0, refused: 0 },
    policyDenials: 0,
    sandboxDenials: 0,
    verifications: { passed: 0, failed: 0, unverified: 0 },
    trace: null,
    log: null,
    ...extra,
  };
}

export function config(results: RunResult[], extra: Partial<EvalConfig> = {}): EvalConfig {
  const tasks = [...new Set(results.map((r) => r.task))].sort();
  return {
    provider: 'anthropic',
    models: {
      planner: 'anthropic:p',
      replanner: 'anthropic:p',
      verifier: 'anthropic:v',
      executor: { light: 'anthropic:e', standard: 'anthropic:e', heavy: 'anthropic:e' },
    },
    modes: ['planned', 'direct'],
    repeat: 1,
    sandbox: 'required',
    suite: { name: 'suite', tasks: tasks.map((id) => ({ id, language: 'javascript', kind: 'bugfix', difficulty: 'easy' })) },
    parts: [
      {
        shard: null,
        startedAt: '2026-12-01T10:00:00.000Z',
        finishedAt: '2026-12-01T10:05:00.000Z',
        interrupted: false,
        product: { name: 'plan-execute', version: '0.1.0', commit: null },
        host: { platform: 'linux', arch: 'x64', node: 'v20', cpus: 2, sandbox: 'bubblewrap' },
        endpoint: null,
        tasks,
      },
    ],
    results,
    ...extra,
  };
}

export function evalFile(configs: EvalConfig[]): EvalFile {
  return { format: EVAL_FORMAT, version: EVAL_VERSION, createdAt: '2026-12-01T10:05:00.000Z', configs };
}
