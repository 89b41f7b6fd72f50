/**
 * Totals of one configuration, per mode, derived from its results only. The resolve rate counts runs that
 * ran (a malformed task is an error, not a failure of the model, and is reported apart); the spread is
 * over repeats: each repeat's rate over the same tasks, then their mean, min, max and standard deviation.
 */
import type { EvalConfig, Mode, RunResult } from './results';

export interface Spread {
  mean: number;
  min: number;
  max: number;
  /** Sample standard deviation; 0 with one repeat. */
  sd: number;
}

export interface ModeTotals {
  mode: Mode;
  runs: number;
  ran: number;
  errors: number;
  resolved: number;
  /** resolved / ran (0 when nothing ran). */
  resolveRate: number;
  /** The resolve rate of each repeat, and their spread. */
  perRepeat: number[];
  spread: Spread;
  falseDone: number;
  falseFail: number;
  costUsd: number;
  /** Cost per run, spread over repeats (each repeat's mean). */
  costPerRun: Spread;
  /** Runs whose cost includes calls at an unknown price (their cost reads 0 for those calls). */
  unpricedRuns: number;
  /** Runs whose every model call ran on this machine (no cost). */
  localRuns: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; cachedShare: number };
  wallMs: number;
  wallPerRun: Spread;
  modelCalls: number;
  steps: number;
  stepAttempts: number;
  replans: { accepted: number; refused: number };
  policyDenials: number;
  sandboxDenials: number;
  /**
   * How far the estimates were off, over the runs that had one: actual ÷ estimated tokens, and money
   * (null when no run was estimated, or a money figure was unknown).
   */
  estimate: { runs: number; tokensRatio: number | null; costRatio: number | null };
}

export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) return { mean: 0, min: 0, max: 0, sd: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = values.length > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1)) : 0;
  return { mean, min: Math.min(...values), max: Math.max(...values), sd };
}

const sum = (rs: readonly RunResult[], f: (r: RunResult) => number): number => rs.reduce((a, r) => a + f(r), 0);

export function modeTotals(config: Pick<EvalConfig, 'results' | 'repeat'>, mode: Mode): ModeTotals {
  const all = config.results.filter((r) => r.mode === mode);
  const ran = all.filter((r) => r.status === 'ran');
  const repeats = [...new Set(ran.map((r) => r.repeat))].sort((a, b) => a - b);
  const byRepeat = repeats.map((n) => ran.filter((r) => r.repeat === n));
  const perRepeat = byRepeat.map((rs) => rs.filter((r) => r.resolved).length / rs.length);
  const resolved = ran.filter((r) => r.resolved).length;
  const tokens = {
    input: sum(ran, (r) => r.tokens.input),
    output: sum(ran, (r) => r.tokens.output),
    cacheRead: sum(ran, (r) => r.tokens.cacheRead),
    cacheWrite: sum(ran, (r) => r.tokens.cacheWrite),
    cachedShare: 0,
  };
  const prompt = tokens.input + tokens.cacheRead + tokens.cacheWrite;
  tokens.cachedShare = prompt === 0 ? 0 : tokens.cacheRead / prompt;
  return {
    mode,
    runs: all.length,
    ran: ran.length,
    errors: all.length - ran.length,
    resolved,
    resolveRate: ran.length === 0 ? 0 : resolved / ran.length,
    perRepeat,
    spread: spreadOf(perRepeat),
    falseDone: ran.filter((r) => r.falseDone).length,
    falseFail: ran.filter((r) => r.falseFail).length,
    costUsd: sum(ran, (r) => r.costUsd),
    costPerRun: spreadOf(byRepeat.map((rs) => sum(rs, (r) => r.costUsd) / rs.length)),
    unpricedRuns: ran.filter((r) => r.pricing === 'unknown' || r.pricing === 'mixed').length,
    localRuns: ran.filter((r) => r.pricing === 'local').length,
    tokens,
    wallMs: sum(ran, (r) => r.wallMs),
    wallPerRun: spreadOf(byRepeat.map((rs) => sum(rs, (r) => r.wallMs) / rs.length)),
    modelCalls: sum(ran, (r) => r.modelCalls),
    steps: sum(ran, (r) => r.steps.planned),
    stepAttempts: sum(ran, (r) => r.steps.attempts),
    replans: { accepted: sum(ran, (r) => r.replans.accepted), refused: sum(ran, (r) => r.replans.refused) },
    policyDenials: sum(ran, (r) => r.policyDenials),
    sandboxDenials: sum(ran, (r) => r.sandboxDenials),
    estimate: estimateRatio(ran),
  };
}

function estimateRatio(ran: readonly RunResult[]): ModeTotals['estimate'] {
  const runs = ran.flatMap((r) => (r.estimate ? [r.estimate] : []));
  const estimated = runs.reduce((n, e) => n + e.estimatedTokens, 0);
  const estimatedUsd = runs.reduce((n, e) => n + (e.estimatedUsd ?? 0), 0);
  const priced = runs.every((e) => e.estimatedUsd !== null) && estimatedUsd > 0;
  return {
    runs: runs.length,
    tokensRatio: estimated > 0 ? runs.reduce((n, e) => n + e.actualTokens, 0) / estimated : null,
    costRatio: priced ? runs.reduce((n, e) => n + e.actualUsd, 0) / estimatedUsd : null,
  };
}

export function configTotals(config: Pick<EvalConfig, 'results' | 'repeat' | 'modes'>): ModeTotals[] {
  return config.modes.map((mode) => modeTotals(config, mode));
}

/** Per task and mode: resolved runs of all runs that ran, e.g. 2/3 (null when none ran). */
export function taskScore(results: readonly RunResult[], task: string, mode: Mode): { resolved: number; ran: number; errors: number } {
  const rs = results.filter((r) => r.task === task && r.mode === mode);
  const ran = rs.filter((r) => r.status === 'ran');
  return { resolved: ran.filter((r) => r.resolved).length, ran: ran.length, errors: rs.length - ran.length };
}
