/**
 * How a located match is written back: line by line, never by splicing new text into old lines.
 *
 * `oldText` and `newText` are line-diffed. A line the edit keeps (equal in both) is written as the file's
 * own bytes — its trailing whitespace, its indentation, its line break; a line the edit adds or changes
 * comes from `newText` (re-indented and restyled by the tier that matched), ending in the region's line
 * break. Nothing of a replaced line survives, so its trailing whitespace cannot leak into the new text.
 *
 * Blank-line drift (the `blank_lines` tier, where oldText's lines are not the file's one for one) is written
 * back by editBlankLines.ts.
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

export interface Replacement {
  lines: FileLines;
  /** oldText's lines; line j is the file's line `firstLine + j`. */
  oldLines: string[];
  oldEndsNl: boolean;
  newLines: string[];
  newEndsNl: boolean;
  firstLine: number;
  /** Replaced span of the file (may start or end inside a line). */
  regionStart: number;
  regionEnd: number;
  /** A `newText` line in the file's style (indentation, quotes, trailing whitespace). */
  renderNew: (line: string) => string;
  eol: Eol;
}

/** The line diff oldText → newText, deletions before insertions within each changed block. */
function editScript(a: string[], b: string[]): DiffOp[] {
  const ops = diffLines(a, b);
  const out: DiffOp[] = [];
  for (let i = 0; i < ops.length;) {
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

/** The text that replaces `regionStart..regionEnd`: kept lines are the file's, the others newText's. */
export function renderReplacement(r: Replacement): string {
  const { lines, oldLines, newLines } = r;
  const text = lines.text;
  const pieces: { body: string; eol: string }[] = [];
  const fileLine = (f: number): void => {
    const from = Math.max(lines.start[f] as number, r.regionStart);
    const to = Math.min(lines.contentEnd[f] as number, r.regionEnd);
    // Its own break, even on the region's last line when the region stops before it: the assembly below
    // drops the last piece's break unless newText ends with one.
    pieces.push({ body: text.slice(from, to), eol: text.slice(lines.contentEnd[f] as number, lines.end[f] as number) });
  };
  let oi = 0;
  let ni = 0;
  for (const op of editScript(oldLines, newLines)) {
    if (op.op === 'equal') {
      fileLine(r.firstLine + oi++);
      ni++;
    } else if (op.op === 'delete') oi++;
    else pieces.push({ body: r.renderNew(newLines[ni++] as string), eol: r.eol });
  }
  return joinPieces(pieces, r);
}

/** The pieces as text; the last one ends with a line break only when newText does (and the file had one to end with). */
export function joinPieces(
  pieces: { body: string; eol: string }[],
  r: { lines: FileLines; regionEnd: number; oldEndsNl: boolean; newEndsNl: boolean; eol: Eol },
): string {
  const text = r.lines.text;
  const fileEnds = r.regionEnd === text.length && !text.endsWith('\n');
  const keepLast = r.newEndsNl && !(r.oldEndsNl && fileEnds);
  return pieces.map((p, i) => p.body + (i === pieces.length - 1 && !keepLast ? '' : p.eol || r.eol)).join('');
}
