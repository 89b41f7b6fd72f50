/**
 * The front matter of a plan document: YAML between two `---` lines, read with the `yaml` library and
 * judged by zod. It holds what a reader needs to identify the plan (format, task, version, parent, reason,
 * base commit, hash) and the two rare structured parts of a plan that have no prose form (invalidated steps,
 * constraint checks). Written with a fixed key order and no line folding, so the same values always give
 * the same bytes; read back with the line of every key, so an error names it.
 */
import { z } from 'zod';
import { Document, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { Plan } from '../../contracts/plan';
import { PLAN_DOCUMENT_FORMAT, type PlanDocumentError } from './meta';
import { formatPath } from '../validate';
import { err, ok, type Result } from '../../contracts/result';

/** What the front matter holds. Plan fields pass through raw: validatePlan judges them with the rest. */
const FrontMatterSchema = z
  .object({
    format: z.literal(PLAN_DOCUMENT_FORMAT, { error: `a plan document names its format: format: ${PLAN_DOCUMENT_FORMAT}` }),
    task: z.string({ error: 'task: the task the plan was made for, as text' }),
    version: z.unknown().optional(),
    parentVersion: z.unknown().optional(),
    reason: z.unknown().optional(),
    direct: z.unknown().optional(),
    baseCommit: z.string({ error: 'baseCommit: a commit id, as text' }).optional(),
    hash: z.string({ error: 'hash: the hex SHA-256 the writer stated' }).optional(),
    invalidated: z.unknown().optional(),
    constraintChecks: z.unknown().optional(),
  })
  .strict();

type FrontMatter = z.infer<typeof FrontMatterSchema>;

/** The front matter's lines for one document (without the `---` delimiters). */
export function writeFrontMatter(plan: Plan, meta: { task: string; baseCommit?: string; hash: string }): string {
  const ordered: Record<string, unknown> = {
    format: PLAN_DOCUMENT_FORMAT,
    task: meta.task,
    version: plan.version,
    ...(plan.parentVersion !== null ? { parentVersion: plan.parentVersion } : {}),
    reason: plan.reason,
    ...(plan.direct ? { direct: true } : {}),
    ...(meta.baseCommit !== undefined ? { baseCommit: meta.baseCommit } : {}),
    hash: meta.hash,
    ...(plan.invalidated !== undefined ? { invalidated: plan.invalidated } : {}),
    ...(plan.constraintChecks !== undefined ? { constraintChecks: plan.constraintChecks } : {}),
  };
  // One line per value: the library's block scalars and folded double-quoted strings do not read every
  // string back exactly (a first line of spaces, an escaped space); a JSON-style string on one line does.
  return new Document(ordered).toString({
    blockQuote: false,
    lineWidth: 0,
    minContentWidth: 0,
    doubleQuotedAsJSON: true,
    doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER,
  });
}

export interface ReadFrontMatter {
  value: FrontMatter;
  /** The 1-based document line of each key and item, by JSON path ("constraintChecks[0].steps[1]"). */
  lines: Map<string, number>;
}

/**
 * Reads the YAML text that starts at document line `firstLine`. Errors carry document lines; a key the
 * format does not know is an error at its line (a misspelt key must not be silently dropped).
 */
export function readFrontMatter(yamlText: string, firstLine: number): Result<ReadFrontMatter, PlanDocumentError[]> {
  const counter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const lineAt = (offset: number): number => counter.linePos(offset).line + firstLine - 1;
  if (doc.errors.length > 0) {
    return err(doc.errors.map((e) => ({ line: lineAt(e.pos[0]), message: `front matter: ${e.message.split('\n')[0] ?? e.message}` })));
  }
  const lines = new Map<string, number>();
  recordLines(doc.contents, [], lines, lineAt);
  const parsed = FrontMatterSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    return err(
      parsed.error.issues.map((issue) => {
        const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
        const path = formatPath(keys.length > 0 ? [...issue.path, keys[0]!] : issue.path);
        const message =
          issue.code === 'unrecognized_keys'
            ? `front matter: unknown key ${keys.map((k) => `"${k}"`).join(', ')} (keys: format, task, version, parentVersion, reason, direct, baseCommit, hash, invalidated, constraintChecks)`
            : issue.path.length === 0 && issue.code === 'invalid_type'
              ? 'front matter: expected "key: value" lines (format, task, version, …)'
              : `front matter: ${issue.message}`;
        return { line: lines.get(path) ?? firstLine, message };
      }),
    );
  }
  return ok({ value: parsed.data, lines });
}

/** Walks the YAML tree, recording the line where each key (or list item) starts. */
function recordLines(node: unknown, path: (string | number)[], lines: Map<string, number>, lineAt: (offset: number) => number): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isPair(pair) || !isScalar(pair.key)) continue;
      const key = [...path, String(pair.key.value)];
      if (pair.key.range) lines.set(formatPath(key), lineAt(pair.key.range[0]));
      recordLines(pair.value, key, lines, lineAt);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      const key = [...path, i];
      const range = (item as Node | null)?.range;
      if (range) lines.set(formatPath(key), lineAt(range[0]));
      recordLines(item, key, lines, lineAt);
    });
  }
}
