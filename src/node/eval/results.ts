/**
 * The eval results file (`--json`): versioned, validated with these schemas whenever it is read back
 * (a merge reads files from other machines). One file holds one or more *configurations* — a provider and
 * its models on one suite, modes and repeat count — each with the runs of its parts (shards, machines) and
 * one result per task × mode × repeat. Totals are derived (totals.ts), written for machines to read, and
 * recomputed on every merge: a file's own totals are never trusted.
 *
 * Format changes: add optional fields freely; anything else bumps EVAL_VERSION.
 */
import { z } from 'zod';
import { errorText } from '../../core/primitives/errorText';
import { err, ok, type Result } from '../../core/contracts/result';

export const EVAL_FORMAT = 'plan-execute-eval';
export const EVAL_VERSION = 1;

const ModeSchema = z.enum(['planned', 'direct']);

const CheckResultSchema = z.object({
  passed: z.boolean(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number().nonnegative(),
  outputTail: z.string(),
});

const RunResultSchema = z.object({
  task: z.string(),
  mode: ModeSchema,
  /** 1-based. */
  repeat: z.number().int().positive(),
  /** `error`: the run could not happen (a malformed task, a workspace that could not be made); it is no verdict. */
  status: z.enum(['ran', 'error']),
  error: z.string().optional(),
  /** The hidden check passed and no untouched file changed — nothing else. */
  resolved: z.boolean(),
  check: CheckResultSchema.nullable(),
  /** Files the task's untouched globs name that the mission changed, added or removed. */
  untouchedChanged: z.array(z.string()),
  mission: z.object({
    id: z.string().nullable(),
    /** The engine's outcome, or `error` when the mission could not start (the message is in summary). */
    outcome: z.enum(['succeeded', 'failed', 'cancelled', 'budget_exceeded', 'error']).nullable(),
    summary: z.string(),
  }),
  /** The mission reported success but the hidden check says not resolved (a verifier, or in direct mode the executor, said "done" too early). */
  falseDone: z.boolean(),
  /** The mission reported failure but the hidden check says resolved. */
  falseFail: z.boolean(),
  costUsd: z.number().nonnegative(),
  pricing: z.enum(['priced', 'local', 'unknown', 'mixed', 'none']),
  tokens: z.object({
    input: z.number().int().nonnegative(),
    output: z.number().int().nonnegative(),
    cacheRead: z.number().int().nonnegative(),
    cacheWrite: z.number().int().nonnegative(),
  }),
  wallMs: z.number().nonnegative(),
  modelCalls: z.number().int().nonnegative(),
  byRole: z.record(z.string(), z.object({ calls: z.number().int().nonnegative(), costUsd: z.number().nonnegative() })),
  steps: z.object({
    planned: z.number().int().nonnegative(),
    attempts: z.number().int().nonnegative(),
    succeeded: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
  }),
  /** Replans that produced an accepted version, and those refused (or that produced none). */
  replans: z.object({ accepted: z.number().int().nonnegative(), refused: z.number().int().nonnegative() }),
  policyDenials: z.number().int().nonnegative(),
  sandboxDenials: z.number().int().nonnegative(),
  verifications: z.object({
    passed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    unverified: z.number().int().nonnegative(),
  }),
  /** The plan's estimate beside what executors and verifiers spent (absent: not estimated, or an older file). */
  estimate: z
    .object({
      estimatedTokens: z.number().int().nonnegative(),
      estimatedUsd: z.number().nonnegative().nullable(),
      actualTokens: z.number().int().nonnegative(),
      actualUsd: z.number().nonnegative(),
    })
    .optional(),
  /** The mission's trace (JSONL) and the CLI's progress log, relative to the results file's folder when inside it. */
  trace: z.string().nullable(),
  log: z.string().nullable(),
});

const TaskInfoSchema = z.object({ id: z.string(), language: z.string(), kind: z.string(), difficulty: z.string() });

const ModelsSchema = z.object({
  planner: z.string(),
  replanner: z.string(),
  verifier: z.string(),
  executor: z.object({ light: z.string(), standard: z.string(), heavy: z.string() }),
});

const PartSchema = z.object({
  shard: z.object({ index: z.number().int().positive(), count: z.number().int().positive() }).nullable(),
  startedAt: z.string(),
  finishedAt: z.string(),
  /** Stopped by Ctrl-C before every run had run. */
  interrupted: z.boolean(),
  product: z.object({ name: z.string(), version: z.string(), commit: z.string().nullable() }),
  host: z.object({ platform: z.string(), arch: z.string(), node: z.string(), cpus: z.number().int().nonnegative(), sandbox: z.string() }),
  /** The endpoint, when not the provider's public API (a local server, a gateway); never a key. */
  endpoint: z.string().nullable(),
  /** Task ids this part ran. */
  tasks: z.array(z.string()),
});

const ConfigSchema = z.object({
  provider: z.string(),
  models: ModelsSchema,
  modes: z.array(ModeSchema).min(1),
  repeat: z.number().int().positive(),
  sandbox: z.enum(['required', 'prefer', 'off']),
  /** Every task of the suite (before sharding), so a merge can say what is missing. */
  suite: z.object({ name: z.string(), tasks: z.array(TaskInfoSchema) }),
  parts: z.array(PartSchema).min(1),
  results: z.array(RunResultSchema),
  /** Derived (totals.ts); ignored when read back. */
  totals: z.unknown().optional(),
});

export const EvalFileSchema = z.object({
  format: z.literal(EVAL_FORMAT),
  version: z.literal(EVAL_VERSION),
  createdAt: z.string(),
  configs: z.array(ConfigSchema),
});

export type Mode = z.infer<typeof ModeSchema>;
export type RunResult = z.infer<typeof RunResultSchema>;
export type Models = z.infer<typeof ModelsSchema>;
export type Part = z.infer<typeof PartSchema>;
export type EvalConfig = z.infer<typeof ConfigSchema>;
export type EvalFile = z.infer<typeof EvalFileSchema>;

/** A results file read back, or why it cannot be (a message naming the file). */
export type ParsedFile = Result<EvalFile, string>;

/** Reads a results file's text back (JSON, then the schema); a problem is a message naming where. */
export function parseEvalFile(text: string, name: string): ParsedFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return err(`${name} is not JSON: ${errorText(error)}`);
  }
  const format = (raw as { format?: unknown; version?: unknown } | null) ?? {};
  if (format.format === EVAL_FORMAT && format.version !== EVAL_VERSION) {
    return err(`${name} is eval results version ${String(format.version)}; this build reads version ${EVAL_VERSION}`);
  }
  const parsed = EvalFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    return err(`${name} is not an eval results file: ${issues.join('; ')}`);
  }
  return ok(parsed.data);
}

/**
 * What makes two configurations one: same provider, models, modes, repeat count, sandbox mode and suite.
 * Not the endpoint: the same local model behind another port (another machine's Ollama) is the same model.
 */
function configKey(c: EvalConfig): string {
  return JSON.stringify([c.provider, c.models, [...c.modes].sort(), c.repeat, c.sandbox, c.suite.name, c.suite.tasks.map((t) => t.id).sort()]);
}

const resultKey = (r: Pick<RunResult, 'task' | 'mode' | 'repeat'>): string => `${r.task}\u0000${r.mode}\u0000${r.repeat}`;

/** The joined file and what it is missing, or why the files cannot be joined. */
export type Merged = Result<{ file: EvalFile; notes: string[] }, string>;

/**
 * Joins results files: configurations with the same key become one (their parts and results joined);
 * others stay side by side. The same task × mode × repeat twice in one configuration is an error (two
 * shards overlapped, or one file was given twice) — never silently counted twice. `rebase` maps each
 * file's relative trace paths to the output's folder.
 */
export function mergeFiles(files: readonly { name: string; file: EvalFile; rebase: (path: string) => string }[]): Merged {
  const byKey = new Map<string, EvalConfig>();
  const seen = new Map<string, Map<string, string>>();
  for (const { name, file, rebase } of files) {
    for (const config of file.configs) {
      const key = configKey(config);
      const into = byKey.get(key) ?? { ...config, parts: [], results: [], totals: undefined };
      byKey.set(key, into);
      const owners = seen.get(key) ?? new Map<string, string>();
      seen.set(key, owners);
      for (const r of config.results) {
        const k = resultKey(r);
        const other = owners.get(k);
        if (other !== undefined) return err(`${r.task} (${r.mode}, repeat ${r.repeat}) is in both ${other} and ${name}: shards must not overlap`);
        owners.set(k, name);
        into.results.push({ ...r, trace: r.trace === null ? null : rebase(r.trace), log: r.log === null ? null : rebase(r.log) });
      }
      into.parts.push(...config.parts);
    }
  }
  const notes: string[] = [];
  for (const config of byKey.values()) {
    const ran = new Set(config.results.map((r) => r.task));
    const missing = config.suite.tasks.map((t) => t.id).filter((id) => !ran.has(id));
    if (missing.length === 0) continue;
    const named = `${missing.slice(0, 8).join(', ')}${missing.length > 8 ? ', …' : ''}`;
    const who = `${config.provider} ${config.models.executor.standard}`;
    notes.push(`${who}: no results for ${missing.length} of ${config.suite.tasks.length} tasks (${named}) — a shard is missing?`);
  }
  return ok({ file: { format: EVAL_FORMAT, version: EVAL_VERSION, createdAt: new Date().toISOString(), configs: [...byKey.values()] }, notes });
}
