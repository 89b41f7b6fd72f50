/**
 * How a located match is written back: line by line, never by splicing new text into old lines.
 *
 * `oldText` and `newText` are line-diffed. A line the edit keeps (equal in both) is written as the file's
 * own bytes — its trailing whitespace, its indentation, its line break; a line the edit adds or changes
 * comes from `newText` (re-indented and restyled by the tier that matched), ending in the region's line
 * break. Nothing of a replaced line survives, so its trailing whitespace cannot leak into the new text.
 *
 * Blank-line drift (the `blank_lines` tier) aligns file lines and `oldText` lines that have no partner:
 *   - a blank line only `oldText` has writes nothing (the file never had it);
 *   - a blank line only the file has stays, between the kept lines it sat between; when the edit changes
 *     the lines on both sides, or inserts text exactly where it sat, its place is unclear: the caller
 *     renders every tie-break and refuses when they disagree;
 *   - otherwise blank lines count as changes, like any line: newText's inserted blank lines are added,
 *     a deleted one removes its file line; only when newText deletes every blank line oldText has in a
 *     run does the run go entirely (newText says: no blank line here).
 */
import { type DiffOp, diffLines } from './lineDiff';
import { dominantEol } from './textFile';

export type Eol = '\n' | '\r\n';

/** Line offsets of a text split on LF (the last line is what follows the last LF, possibly empty). */
export interface FileLines {
  text: string;
  /** First offset of line i. */
  start: number[];
  /** Offset after line i's content (before its CR LF or LF). */
  contentEnd: number[];
  /** Offset after line i's line break (= contentEnd for the last line). */
  end: number[];
}

export function fileLines(text: string): FileLines {
  const start: number[] = [];
  const contentEnd: number[] = [];
  const end: number[] = [];
  let off = 0;
  for (;;) {
    const nl = text.indexOf('\n', off);
    start.push(off);
    if (nl === -1) {
      contentEnd.push(text.length);
      end.push(text.length);
      break;
    }
    contentEnd.push(nl > off && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
    end.push(nl + 1);
    off = nl + 1;
  }
  return { text, start, contentEnd, end };
}

/** 0-based line holding `offset` (a line-break offset belongs to the line it ends). */
export function lineAt(lines: FileLines, offset: number): number {
  let lo = 0;
  let hi = lines.start.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lines.start[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** CRLF when most of these lines' breaks are CRLF, LF when most are LF; undefined on a tie or none. */
function regionEol(lines: FileLines, first: number, last: number): Eol | undefined {
  let crlf = 0;
  let lf = 0;
  for (let i = first; i <= last; i++) {
    const n = (lines.end[i] as number) - (lines.contentEnd[i] as number);
    if (n === 2) crlf++;
    else if (n === 1) lf++;
  }
  return crlf > lf ? '\r\n' : lf > crlf ? '\n' : undefined;
}

/** The line-break style new lines get: the region's own (its lines' breaks), else the file's dominant one. */
export function localEol(lines: FileLines, first: number, last: number): Eol {
  return regionEol(lines, first, last) ?? dominantEol(lines.text);
}

/** oldText / newText as lines (LF, CR LF alike), and whether the text ended with a line break. */
export function textLines(text: string): { lines: string[]; endsNl: boolean } {
  if (text.length === 0) return { lines: [], endsNl: false };
  const lf = text.replace(/\r\n/g, '\n');
  const endsNl = lf.endsWith('\n');
  return { lines: (endsNl ? lf.slice(0, -1) : lf).split('\n'), endsNl };
}

export const isBlank = (line: string): boolean => line.trim().length === 0;

/** One aligned position: an `oldText` line and its file line; -1 on the side that has no such line. */
export interface Aligned {
  old: number;
  file: number;
}

export interface Replacement {
  lines: FileLines;
  oldLines: string[];
  oldEndsNl: boolean;
  newLines: string[];
  newEndsNl: boolean;
  /** File order; covers every old line and every file line of the region. */
  items: Aligned[];
  /** Replaced span of the file (may start or end inside a line). */
  regionStart: number;
  regionEnd: number;
  /** A `newText` line in the file's style (indentation, quotes, trailing whitespace). */
  renderNew: (line: string) => string;
  eol: Eol;
}

/** Where a file-only blank line goes when its place is unclear: before or after the text inserted there. */
export type TieBreak = 'early' | 'late';

interface Piece {
  gap: number;
  sub: number;
  seq: number;
  text: string;
  eol: string;
}

/** The text that replaces `regionStart..regionEnd`. */
/** The line diff oldText → newText, deletions before insertions within each changed block. */
function editScript(a: string[], b: string[]): DiffOp[] {
  const ops = diffLines(a, b);
  const out: DiffOp[] = [];
  for (let i = 0; i < ops.length; ) {
    if ((ops[i] as DiffOp).op === 'equal') {
      out.push(ops[i++] as DiffOp);
      continue;
    }
    let j = i;
    while (j < ops.length && (ops[j] as DiffOp).op !== 'equal') j++;
    const hunk = ops.slice(i, j);
    out.push(...hunk.filter((o) => o.op === 'delete'), ...hunk.filter((o) => o.op === 'insert'));
    i = j;
  }
  return out;
}

/** The text that replaces `regionStart..regionEnd`; `tie` places file-only blank lines whose place is unclear. */
export function renderReplacement(r: Replacement, tie: TieBreak): string {
  const { lines, oldLines, newLines, items } = r;
  const text = lines.text;
  const m = oldLines.length;
  const status: ('eq' | 'del')[] = new Array<'eq' | 'del'>(m).fill('del');
  const gapInserts: number[][] = Array.from({ length: m + 1 }, () => []);
  let oi = 0;
  let ni = 0;
  for (const op of editScript(oldLines, newLines)) {
    if (op.op === 'equal') {
      status[oi++] = 'eq';
      ni++;
    } else if (op.op === 'delete') oi++;
    else (gapInserts[oi] as number[]).push(ni++);
  }

  const pieces: Piece[] = [];
  let seq = 0;
  const push = (gap: number, sub: number, body: string, eol: string): void => void pieces.push({ gap, sub, seq: seq++, text: body, eol });
  const fileLine = (f: number): { body: string; eol: string } => {
    const from = Math.max(lines.start[f] as number, r.regionStart);
    const to = Math.min(lines.contentEnd[f] as number, r.regionEnd);
    // Its own break, even on the region's last line when the region stops before it: the assembly below
    // drops the last piece's break unless newText ends with one.
    return { body: text.slice(from, to), eol: text.slice(lines.contentEnd[f] as number, lines.end[f] as number) };
  };

  // Runs of blank positions with drift in them. newText removes such a run when it deletes every blank line
  // oldText has there: then the file's own blank lines there go too (no blank line where newText says none).
  const blankItem = (it: Aligned): boolean => (it.old >= 0 ? isBlank(oldLines[it.old] as string) : true);
  const removedRun: boolean[] = new Array<boolean>(items.length).fill(false);
  for (let s = 0; s < items.length; ) {
    if (!blankItem(items[s] as Aligned)) {
      s++;
      continue;
    }
    let e = s;
    while (e < items.length && blankItem(items[e] as Aligned)) e++;
    const run = items.slice(s, e);
    const olds = run.filter((it) => it.old >= 0).map((it) => it.old);
    const drift = run.some((it) => it.old === -1 || it.file === -1);
    if (drift && olds.length > 0 && olds.every((o) => status[o] === 'del')) for (let k = s; k < e; k++) removedRun[k] = true;
    s = e;
  }

  let prevOld = -1;
  items.forEach((it, k) => {
    if (it.old >= 0) {
      prevOld = it.old;
      if (status[it.old] === 'del') return;
      // A kept line is the file's; a kept blank line only oldText has was never there: nothing to write.
      if (it.file >= 0) {
        const f = fileLine(it.file);
        push(it.old, 3, f.body, f.eol);
      }
      return;
    }
    if (removedRun[k]) return;
    const f = fileLine(it.file);
    const p = prevOld;
    const q = p + 1;
    const stP = p >= 0 ? status[p] : 'eq';
    const stQ = q < m ? status[q] : 'eq';
    if (stP === 'eq' && stQ === 'eq') {
      const inserts = q <= m ? (gapInserts[q] as number[]).length : 0;
      push(q, inserts === 0 || tie === 'early' ? 0 : 2, f.body, f.eol);
    } else if (stP === 'eq') push(q, 0, f.body, f.eol);
    else if (stQ === 'eq') push(q, 2, f.body, f.eol);
    else if (tie === 'early') {
      let h = p;
      while (h - 1 >= 0 && status[h - 1] === 'del') h--;
      push(h, 0, f.body, f.eol);
    } else {
      let e = q;
      while (e < m && status[e] === 'del') e++;
      push(e, 2, f.body, f.eol);
    }
  });
  gapInserts.forEach((ns, g) => {
    for (const n of ns) push(g, 1, r.renderNew(newLines[n] as string), r.eol);
  });
  pieces.sort((a, b) => a.gap - b.gap || a.sub - b.sub || a.seq - b.seq);

  // The last piece ends with a line break only when newText does (and the file had one to end with).
  const fileEnds = r.regionEnd === text.length && !text.endsWith('\n');
  const keepLast = r.newEndsNl && !(r.oldEndsNl && fileEnds);
  let out = '';
  pieces.forEach((p, i) => {
    const last = i === pieces.length - 1;
    out += p.text + (last && !keepLast ? '' : p.eol || r.eol);
  });
  return out;
}
