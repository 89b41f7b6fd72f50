/**
 * The edges of a match, for every tier: the line breaks and blank lines just inside and outside it.
 *   - A line break at oldText's outer edge that newText lacks: oldText begins with the break that ends a
 *     non-blank line (the match starts at that line's end), or ends right after a line break before a
 *     non-blank line, and a non-empty newText does not. Taken literally, newText's first (last) line would be
 *     glued onto the file's neighbouring line of text; a deliberate join would include that line's text in
 *     oldText. The break is the file's line structure: newText gets it (keepEdgeBreaks). Next to a blank
 *     line the literal replacement glues nothing (the blank line's break ends newText's line) and stands:
 *     an exact match is then the literal replacement.
 *   - Blank lines: newText may start (end) with more blank lines than oldText where the file has blank lines
 *     just outside the match, which oldText left out. Those are the file's blank lines written twice, or
 *     blank lines added on purpose. When newText has exactly the file's count there (oldText's plus those
 *     outside) and oldText none there, it was written with the file's blank lines: newText loses the extra
 *     ones. Any other count above oldText's has two readings, and the edit is refused — so is that count
 *     when oldText starts (ends) with some of the run itself: its newText may be the literal replacement,
 *     its own blank lines added to the ones oldText shows. Likewise a newText ending in a line break
 *     that oldText lacks, right before the file's final line break, ends with that break (trimEdgeBlankLines).
 */
import type { BlankConflict } from './editBlankLines';
import { type FileLines, isBlank, textLines } from './editLines';
import { diffLines } from './lineDiff';

/** Blank lines at the start (end) of a text that has non-blank lines; 0 for a text of blank lines only. */
function edgeCount(ls: string[], fromEnd: boolean): number {
  if (ls.every(isBlank)) return 0;
  let c = 0;
  while (isBlank(ls[fromEnd ? ls.length - 1 - c : c] as string)) c++;
  return c;
}

/**
 * oldText's blank lines that newText's edge gap stands for: when newText's first (last) non-blank line is one
 * oldText keeps, every gap of oldText from its start (end) to that line — newText removed the lines between —
 * else oldText's own edge gap.
 */
function edgeGapOfOld(oldLines: string[], newLines: string[], fromEnd: boolean): number {
  const order = <T>(xs: T[]): T[] => (fromEnd ? [...xs].reverse() : xs);
  const a = order(oldLines.filter((l) => !isBlank(l)));
  const b = order(newLines.filter((l) => !isBlank(l)));
  const ops = diffLines(a, b);
  let i = 0;
  for (const op of ops) {
    if (op.op === 'equal') break;
    if (op.op === 'insert') return edgeCount(oldLines, fromEnd);
    i++;
  }
  // a[i] is oldText's non-blank line newText keeps first (from this edge): count oldText's blank lines before it.
  const ordered = order(oldLines);
  let seen = 0;
  let blanks = 0;
  for (const l of ordered) {
    if (!isBlank(l)) {
      if (seen++ === i) break;
    } else blanks++;
  }
  return blanks;
}

/**
 * newText without the file's blank lines it repeats at an edge, or the edge whose blank lines have two
 * readings. An edge counts only where the match begins (ends) at a line boundary (`at`); a snippet that ends
 * at a line's end without its break is read as if both texts ended with it.
 */
export function trimEdgeBlankLines(
  lines: FileLines,
  first: number,
  last: number,
  at: { start: boolean; end: boolean },
  oldText: string,
  newText: string,
): string | BlankConflict {
  const text = lines.text;
  const realLines = text.endsWith('\n') ? lines.start.length - 1 : lines.start.length;
  const blankAt = (i: number): boolean => i >= 0 && i < realLines && isBlank(text.slice(lines.start[i], lines.contentEnd[i]));
  const pad = at.end && !/\n$/.test(oldText) ? '\n' : '';
  const oldLines = textLines(oldText + pad).lines;
  const neu = textLines(newText + pad);
  const trim = { start: 0, end: 0 };
  for (const side of ['start', 'end'] as const) {
    const fromEnd = side === 'end';
    const n = edgeCount(neu.lines, fromEnd);
    if (!at[side] || n <= edgeCount(oldLines, fromEnd)) continue;
    let outside = 0;
    while (blankAt(fromEnd ? last + 1 + outside : first - 1 - outside)) outside++;
    // A snippet that stops just before the file's final line break: newText's extra one is that break.
    if (fromEnd && pad && last + 1 === realLines && text.endsWith('\n')) outside = 1;
    if (outside === 0) continue;
    const o = edgeGapOfOld(oldLines, neu.lines, fromEnd);
    if (n <= o) continue;
    if (n !== o + outside || o > 0) {
      const inner = fromEnd ? last - o : first + o;
      const outer = fromEnd ? last + 1 + outside : first - 1 - outside;
      const known = outer >= 0 && outer < realLines ? outer : -1;
      return { above: fromEnd ? inner : known, below: fromEnd ? known : inner, file: o + outside, old: o, new: n, kind: 'edge' };
    }
    trim[side] = outside;
  }
  if (trim.start + trim.end === 0) return newText;
  const kept = neu.lines.slice(trim.start, neu.lines.length - trim.end).join('\n') + (neu.endsNl ? '\n' : '');
  return pad ? kept.slice(0, -1) : kept;
}

const breakAtStart = /^\r?\n/;
const breakAtEnd = /\r?\n$/;

/**
 * newText with the line break(s) at oldText's outer edges it lacks: `start..end` is the matched span of
 * `original`. Only where the literal replacement would glue newText onto a neighbouring line of text.
 */
export function keepEdgeBreaks(original: string, start: number, end: number, oldText: string, newText: string): string {
  if (newText.trim() === '') return newText;
  let out = newText;
  const lineStart = original.lastIndexOf('\n', start - 1) + 1;
  const lead = breakAtStart.exec(oldText);
  if (lead && !breakAtStart.test(out) && original.slice(lineStart, start).trim() !== '') out = lead[0] + out;
  // After the match: the line newText's last line would be glued onto. A blank one glues nothing — the
  // literal replacement ends newText's line with that blank line's break (the blank line is what oldText's
  // last break took away), so it stands as sent.
  const lineEnd = original.indexOf('\n', end);
  const after = original.slice(end, lineEnd < 0 ? original.length : lineEnd);
  const trail = breakAtEnd.exec(oldText);
  if (trail && !breakAtEnd.test(out) && after.trim() !== '') out += trail[0];
  return out;
}
