/**
 * When str_replace finds nothing, the most useful failure shows the executor where its text probably was:
 * the window of file lines most similar to `oldText`, with line numbers and a similarity score, so it can
 * retry with the real text instead of guessing again.
 */
import { straightenQuotes } from './editNormalize';
import { diffLines } from './lineDiff';

export interface CandidateRegion {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** 0..1, average per-line bigram similarity (whitespace-insensitive). */
  similarity: number;
  /** The file's lines in that window, numbered like `view` output. */
  excerpt: string;
  /** The lines that differ from oldText (whitespace and quote style aside): `-` numbered file lines, `+` oldText's. */
  diff?: string;
}

const MAX_COMPARISONS = 120_000;

/** The line's character bigrams as sorted numbers (a multiset: repeats kept). */
function bigrams(line: string): Float64Array {
  const out = new Float64Array(Math.max(0, line.length - 1));
  for (let i = 0; i + 1 < line.length; i++) out[i] = line.charCodeAt(i) * 65536 + line.charCodeAt(i + 1);
  return out.sort();
}

/** Dice coefficient of two bigram multisets (a merge of the sorted arrays). */
function dice(a: string, b: string, ga: Float64Array, gb: Float64Array): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  let inter = 0;
  let i = 0;
  let j = 0;
  while (i < ga.length && j < gb.length) {
    const x = ga[i] as number;
    const y = gb[j] as number;
    if (x === y) {
      inter++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return (2 * inter) / (ga.length + gb.length);
}

function key(line: string): string {
  return straightenQuotes(line).replace(/\s+/g, ' ').trim();
}

/** The `limit` most similar windows (non-overlapping), best first; empty when the file is empty. */
export function closestRegions(original: string, oldText: string, limit = 1): CandidateRegion[] {
  const fileLines = original.replace(/\r\n/g, '\n').split('\n');
  const oldLines = oldText.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  const m = Math.min(oldLines.length, fileLines.length);
  if (m === 0 || fileLines.length === 0) return [];
  const fk = fileLines.map(key);
  const ok = oldLines.map(key);
  // Lines repeat (braces, blank lines): one bigram array per distinct text.
  const cache = new Map<string, Float64Array>();
  const gramsOf = (k: string): Float64Array => {
    let g = cache.get(k);
    if (!g) cache.set(k, (g = bigrams(k)));
    return g;
  };
  const fg = fk.map(gramsOf);
  const og = ok.map(gramsOf);
  const windows = fileLines.length - m + 1;
  const stride = Math.max(1, Math.ceil((windows * m) / MAX_COMPARISONS));
  const scored: { start: number; score: number }[] = [];
  for (let i = 0; i < windows; i += stride) {
    let sum = 0;
    for (let j = 0; j < m; j++) sum += dice(ok[j] as string, fk[i + j] as string, og[j] as Float64Array, fg[i + j] as Float64Array);
    scored.push({ start: i, score: sum / oldLines.length });
  }
  scored.sort((a, b) => b.score - a.score || a.start - b.start);
  const picked: { start: number; score: number }[] = [];
  for (const s of scored) {
    if (picked.length >= limit) break;
    if (s.score <= 0) break;
    if (picked.some((p) => Math.abs(p.start - s.start) < m)) continue;
    picked.push(s);
  }
  return picked.map(({ start, score }) => {
    const d = describeDifference(fileLines, start, m, oldLines);
    return {
      startLine: start + 1,
      endLine: start + m,
      similarity: Math.round(score * 100) / 100,
      excerpt: fileLines
        .slice(start, start + Math.min(m, 30))
        .map((l, k) => `${String(start + k + 1).padStart(6)}\t${l}`)
        .join('\n'),
      ...(d ? { diff: d } : {}),
    };
  });
}

const MAX_DIFF_LINES = 24;

/** A small line diff between the window and oldText: only the lines that differ, file lines numbered. */
function describeDifference(fileLines: string[], start: number, m: number, oldLines: string[]): string | undefined {
  const window = fileLines.slice(start, start + m);
  const ops = diffLines(window.map(key), oldLines.map(key));
  const out: string[] = [];
  let f = 0;
  let o = 0;
  for (const op of ops) {
    if (op.op === 'equal') {
      f++;
      o++;
      continue;
    }
    if (out.length >= MAX_DIFF_LINES) {
      out.push('   …');
      break;
    }
    if (op.op === 'delete') out.push(`-${String(start + f + 1).padStart(5)}\t${window[f++] as string}`);
    else out.push(`+${' '.repeat(5)}\t${oldLines[o++] as string}`);
  }
  return out.length > 0 ? out.join('\n') : undefined;
}
