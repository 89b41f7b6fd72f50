/**
 * Matching a model-supplied regular expression against file lines with a hard time limit. A regex from a
 * model (or one it was steered to by a hostile file) can backtrack catastrophically — `(a|a?)+b` against
 * forty `a`s runs for minutes — and a regex runs synchronously: it would freeze the whole host, and with
 * it the user's cancel button. Static screening catches some such patterns, never all, so the match loop
 * runs in a `vm` context whose `timeout` terminates it; V8 interrupts regex backtracking too.
 *
 * Batches of many files go through one `vm` call, which keeps the per-call overhead (a watchdog thread)
 * small next to the matching itself.
 */
import { createContext, Script } from 'node:vm';
import { err, ok, type Result } from '../contracts/result';

const MATCH_LOOP = new Script(`(() => {
  const re = new RegExp(source, flags);
  const hits = [];
  for (let f = 0; f < files.length; f++) {
    const lines = files[f];
    for (let i = 0; i < lines.length; i++) {
      if (hits.length >= max) return hits;
      if (re.test(lines[i])) hits.push(f, i);
    }
  }
  return hits;
})()`);

/** Hits by file and line index, or `timeout`: the search ran out of time. */
export type BoundedMatch = Result<{ file: number; line: number }[], 'timeout'>;

/** One search's matcher: the regex and the time left for the whole search. */
export class BoundedLineMatcher {
  readonly #context: Record<string, unknown>;
  readonly #deadline: number;

  constructor(
    re: RegExp,
    budgetMs: number,
    private readonly now: () => number = Date.now,
  ) {
    // Only strings cross into the context: the regex is rebuilt there from its source and flags (no `g`/`y`:
    // test() must not carry lastIndex from one line to the next).
    this.#context = createContext({ source: re.source, flags: re.flags.replace(/[gy]/g, ''), files: [], max: 0 });
    this.#deadline = this.now() + budgetMs;
  }

  /** Matches each file's lines; `max` caps the hits. A pattern that runs out of time ends the search. */
  match(files: string[][], max: number): BoundedMatch {
    const left = Math.floor(this.#deadline - this.now());
    if (left <= 0) return err('timeout');
    this.#context.files = files;
    this.#context.max = max;
    try {
      const flat = MATCH_LOOP.runInContext(this.#context, { timeout: left }) as number[];
      const hits: { file: number; line: number }[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) hits.push({ file: flat[i] as number, line: flat[i + 1] as number });
      return ok(hits);
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return err('timeout');
      throw error;
    } finally {
      this.#context.files = [];
    }
  }
}
