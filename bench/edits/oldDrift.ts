/**
 * Drift in oldText ALONE: the model's copy of the text it replaces lost or gained blank lines, while newText
 * was written from its own memory of the intended text — the file's blank lines, or its own. (drift.ts
 * perturbs oldText and newText alike.) Each case expects the reference after-text (the file with the real
 * change applied), or null where two readings of what was sent give different files, so only a refusal is
 * right. newText is the intended text with the file's blank lines unless a class says otherwise.
 *   old_fewer         — one blank context line inside oldText left out.
 *   old_fewer_edge    — the blank context line at oldText's start or end left out (oldText may then match exactly).
 *   old_fewer_all     — every blank context line left out.
 *   old_fewer_removed — a blank line the change removes left out (newText is the change as made, without it):
 *     kept, it would survive the change; that newText may also be copied from a view without it, so the
 *     right outcome is the reference or a refusal, never another file.
 *   old_fewer_beside  — the blank context line right beside the change left out (when old_fewer did not).
 *   old_more          — one blank line too many after a context line (next to the change too).
 *   old_more_change   — one blank line too many between two lines the change replaces.
 *   old_more_edge     — a blank line at oldText's start (end) where the file has none: taken literally, its
 *     line break is the one ending the line above (the match begins there), and newText would be glued on.
 *   old_mixed         — one blank context line left out and one too many elsewhere.
 *   old_blank+indent / +ws / +crlf / +crlf_file / +tabs — an old_fewer or old_more case (alternately) and:
 *     both texts dedented; trailing whitespace on oldText's lines only; oldText with CRLF; the file with
 *     CRLF; the file indented with tabs, the texts with spaces.
 *   new_extra (refuse)   — oldText lacks a blank context line and newText has one more than the file there:
 *     newText's count is the file's plus one, or oldText's plus two.
 *   new_none (refuse)    — the file has two or more blank lines in a row, oldText one fewer, newText none:
 *     all removed, or only the one oldText shows.
 *   old_more_change_blank (refuse) — as old_more_change, where the new block has blank lines of its own in
 *     number other than the file's in the replaced block: newText's may copy oldText's extra one.
 *   old_at_insertion (refuse) — an old_fewer / old_more / old_mixed case whose drift lies where the change
 *     only inserts lines: an inserted block often brings its own blank line, so newText's blank lines there
 *     read as the file's or as oldText's plus the block's (the same texts as blank_at_insertion's). Right
 *     only when newText has no blank line around the new lines and the file none that oldText lacks.
 */
import type { BaseEdit } from './corpus';
import { contextPairs } from './drift';
import { count, region, type BenchCase } from './perturb';

const WIDE = 3;
const blank = (l: string): boolean => l.trim() === '';
const leading = (l: string): string => /^[ \t]*/.exec(l)?.[0] ?? '';

/** Places where the snippet's non-blank lines (trimmed) follow each other with only blank lines between. */
function placesIgnoringBlanks(fileKeys: string[], snippet: string[]): number {
  const keys = snippet.filter((l) => !blank(l)).map((l) => l.trim());
  if (keys.length === 0) return 0;
  let n = 0;
  for (let i = 0; i + keys.length <= fileKeys.length; i++) if (keys.every((k, j) => fileKeys[i + j] === k)) n++;
  return n;
}

function toTabs(line: string, unit: number): string {
  const ind = leading(line);
  if (ind.includes('\t') || ind.length === 0) return line;
  return '\t'.repeat(Math.floor(ind.length / unit)) + ' '.repeat(ind.length % unit) + line.slice(ind.length);
}

function spaceUnit(lines: string[]): number {
  let g = 0;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  for (const l of lines) if (l.trim() && leading(l).length > 0 && !leading(l).includes('\t')) g = gcd(g, leading(l).length);
  return g === 2 || g === 4 ? g : 0;
}

export function oldDriftCasesFor(e: BaseEdit): BenchCase[] {
  const lines = e.file.split('\n');
  const r = region(e, lines, WIDE);
  const oldLines = lines.slice(r.start, r.end);
  const newLines = r.newLines;
  const out: BenchCase[] = [];
  if (oldLines.join('\n').trim() === '' || count(e.file, oldLines.join('\n')) !== 1) return out;
  const expected = [...lines.slice(0, r.start), ...newLines, ...lines.slice(r.end)].join('\n');
  const fileKeys = lines.filter((l) => !blank(l)).map((l) => l.trim());
  /**
   * A drifted oldText is a case when it still identifies one place: not found as is (or found once, after an
   * edge drop), and one place once blank lines are ignored.
   */
  const usable = (o: string[], exactOk = false): boolean => {
    const c = count(e.file, o.join('\n'));
    return (c === 0 || (exactOk && c === 1)) && placesIgnoringBlanks(fileKeys, o) === 1;
  };
  const add = (category: string, o: string[], n: string[], exp: string | null, file = e.file): void => {
    out.push({ category, id: e.id, file, oldText: o.join('\n'), newText: n.join('\n'), expected: exp });
  };
  const dropAt = (ls: string[], drop: number[]): string[] => ls.filter((_, i) => !drop.includes(i));
  // When the region reaches the end of a file that ends with a line break, each text's last element is the
  // empty string after that break: no blank line.
  const eof = r.end === lines.length && e.file.endsWith('\n');
  const blankIn = (ls: string[], i: number): boolean => i >= 0 && i < ls.length && blank(ls[i] as string) && !(eof && i === ls.length - 1);
  // The gap of oldText (between non-blank lines p and q) where a change that only inserts lines lands.
  const beforeN = e.at - r.start;
  const insertion = e.removed.every(blank) && e.added.some((l) => !blank(l));
  let p = beforeN - 1;
  while (blankIn(oldLines, p)) p--;
  let q = beforeN + e.removed.length;
  while (blankIn(oldLines, q)) q++;
  const inGap = (i: number): boolean => insertion && i > p && i < q;
  /** old_at_insertion's outcome: the reference when no blank line surrounds the new lines and oldText shows all the file's there. */
  const atInsertion = (o: string[]): string | null => {
    const addedAt = newLines.findIndex((l, i) => i >= beforeN && !blank(l));
    let lastAdded = beforeN + e.added.length - 1;
    while (lastAdded > addedAt && blank(newLines[lastAdded] as string)) lastAdded--;
    const around = (blankIn(newLines, addedAt - 1) ? 1 : 0) + (blankIn(newLines, lastAdded + 1) ? 1 : 0);
    const fileBlanks = q - p - 1;
    // oldText's blank lines after its (p+1)-th non-blank line (p: the last non-blank line before the gap).
    const ordinal = oldLines.slice(0, p + 1).filter((l) => !blank(l)).length;
    let at = 0;
    for (let seen = 0; at < o.length && seen < ordinal; at++) if (!blank(o[at] as string)) seen++;
    let oldBlanks = 0;
    while (blankIn(o, at + oldBlanks)) oldBlanks++;
    return around === 0 && fileBlanks <= oldBlanks ? expected : null;
  };
  const addAt = (o: string[], drift: number[]): boolean => {
    if (!drift.some(inGap)) return false;
    add('old_at_insertion', o, newLines, atInsertion(o));
    return true;
  };
  const insertAt = (ls: string[], at: number): string[] => [...ls.slice(0, at), '', ...ls.slice(at)];

  const ctx = contextPairs(e, r);
  const last = oldLines.length - 1;
  const blanks = ctx.filter(([o]) => blankIn(oldLines, o));
  const inner = blanks.filter(([o]) => o > 0 && o < last);
  const edge = blanks.filter(([o]) => o === 0 || o === last);
  const picks = <T>(xs: T[]): T[] => (xs.length > 1 ? [xs[0] as T, xs[xs.length - 1] as T] : xs);
  const fewer: string[][] = [];
  for (const [o] of picks(inner)) {
    const d = dropAt(oldLines, [o]);
    if (!usable(d) || addAt(d, [o])) continue;
    add('old_fewer', d, newLines, expected);
    fewer.push(d);
  }
  for (const [o] of edge) {
    const d = dropAt(oldLines, [o]);
    if (usable(d, true)) add('old_fewer_edge', d, newLines, expected);
  }
  if (blanks.length >= 2) {
    const d = dropAt(
      oldLines,
      blanks.map(([o]) => o),
    );
    if (
      usable(d, inner.length === 0) &&
      !addAt(
        d,
        blanks.map(([o]) => o),
      )
    )
      add('old_fewer_all', d, newLines, expected);
  }

  // A blank line the change itself removes, left out of oldText (newText is the change as made): next to the
  // lines the change replaces, so newText without it may also read as copied from a view that never had it.
  // Also the blank context line just beside the change (old_fewer picks the first and last of the region's).
  const removedBlanks = e.removed.map((l, i) => (blank(l) ? beforeN + i : -1)).filter((i) => i >= 0 && blankIn(oldLines, i));
  for (const o of picks(removedBlanks)) {
    const d = dropAt(oldLines, [o]);
    if (usable(d)) add('old_fewer_removed', d, newLines, expected);
  }
  for (const o of [beforeN - 1, beforeN + e.removed.length]) {
    if (o <= 0 || o >= last || !blankIn(oldLines, o) || picks(inner).some(([x]) => x === o) || inGap(o)) continue;
    const d = dropAt(oldLines, [o]);
    if (usable(d)) add('old_fewer_beside', d, newLines, expected);
  }

  // One blank line too many: after a non-blank context line that has a non-blank line after it.
  // (Not in the region's trailing blank run: joined, that text would cover a real blank line of the file.)
  const hosts = ctx.filter(([o]) => !blank(oldLines[o] as string) && oldLines.slice(o + 1).some((l) => !blank(l))).map(([o]) => o);
  const more: string[][] = [];
  for (const h of picks(hosts)) {
    const d = insertAt(oldLines, h + 1);
    if (!usable(d) || addAt(d, [h === p ? h + 1 : -1])) continue;
    add('old_more', d, newLines, expected);
    more.push(d);
  }
  const [firstInner] = inner;
  if (firstInner && hosts.length > 0) {
    const h = hosts.find((x) => Math.abs(x - firstInner[0]) > 1) ?? -1;
    const d = h < 0 ? undefined : dropAt(insertAt(oldLines, h + 1), [h + 1 < firstInner[0] ? firstInner[0] + 1 : firstInner[0]]);
    if (d && usable(d) && !addAt(d, [h === p ? h + 1 : -1, firstInner[0]])) add('old_mixed', d, newLines, expected);
  }

  // A blank line at oldText's edge where the file has none (as blank_edge, newText without it).
  if (r.start > 0 && !blank(lines[r.start - 1] as string) && !blank(oldLines[0] as string)) add('old_more_edge', ['', ...oldLines], newLines, expected);
  if (r.end < lines.length && !blank(lines[r.end] as string) && !blank(oldLines[last] as string)) {
    add('old_more_edge', [...oldLines, '', ''], newLines, expected);
  }

  // One blank line too many between two lines the change replaces.
  if (e.removed.length >= 2 && e.added.length > 0) {
    const d = insertAt(oldLines, beforeN + 1);
    const addedKeys = e.added.map((l) => !blank(l));
    const firstNb = addedKeys.indexOf(true);
    const lastNb = addedKeys.lastIndexOf(true);
    const innerNew = e.added.filter((l, i) => blank(l) && i > firstNb && i < lastNb).length;
    const innerFile = e.removed.filter((l, i) => blank(l) && i > 0 && i < e.removed.length - 1).length;
    if (usable(d) && !blank(e.removed[0] as string) && !blank(e.removed[1] as string)) {
      const certain = innerNew === 0 || innerNew === innerFile;
      add(certain ? 'old_more_change' : 'old_more_change_blank', d, newLines, certain ? expected : null);
    }
  }

  // Combined with other drift: one old_fewer or old_more oldText (alternately by edit).
  const base = (e.id.length % 2 === 0 ? (fewer[0] ?? more[0]) : (more[0] ?? fewer[0])) as string[] | undefined;
  if (base) {
    const nonBlank = base.filter((l) => !blank(l));
    const minIndent = Math.min(...nonBlank.map((l) => leading(l).length));
    const allSpaces = [...base, ...newLines].every((l) => !leading(l).includes('\t'));
    if (allSpaces && minIndent > 0 && newLines.every((l) => blank(l) || leading(l).length >= minIndent)) {
      const dedent = (ls: string[]): string[] => ls.map((l) => (blank(l) ? l : l.slice(minIndent)));
      add('old_blank+indent', dedent(base), dedent(newLines), expected);
    }
    const padded = base.map((l, i) => (i === base.length - 1 && l === '' ? l : `${l}  `));
    if (!base.some((l) => /[ \t]$/.test(l))) add('old_blank+ws', padded, newLines, expected);
    out.push({ category: 'old_blank+crlf', id: e.id, file: e.file, oldText: base.join('\r\n'), newText: newLines.join('\n'), expected });
    add('old_blank+crlf_file', base, newLines, expected.replace(/\n/g, '\r\n'), e.file.replace(/\n/g, '\r\n'));
    const unit = spaceUnit(lines);
    if (unit > 0 && allSpaces && base.some((l) => leading(l).length >= unit)) {
      const tabbed = (t: string): string =>
        t
          .split('\n')
          .map((l) => toTabs(l, unit))
          .join('\n');
      add('old_blank+tabs', base, newLines, tabbed(expected), tabbed(e.file));
    }
  }

  // newText with its own blank lines where oldText drifted: two readings, so a refusal is the right outcome.
  // Only runs of blank context lines between two context lines, as long in newText as in the file, so the
  // counts are known: the file's f, oldText's f - 1, newText's f + 1 (new_extra) or 0 (new_none, f >= 2).
  const ctxNew = new Map(ctx);
  const runs: { o: number; n: number; len: number }[] = [];
  for (let o = 1; o < last; o++) {
    if (!blank(oldLines[o] as string) || blank(oldLines[o - 1] as string)) continue;
    let len = 0;
    while (o + len < last && blank(oldLines[o + len] as string)) len++;
    const ends = [o - 1, o + len];
    const n = ctxNew.get(o);
    const inRun = Array.from({ length: len }, (_, x) => o + x);
    if (n === undefined || blank(oldLines[o + len] as string) || ![...ends, ...inRun].every((x) => ctxNew.has(x))) continue;
    const nLen = newLines.slice(n).findIndex((l) => !blank(l));
    if (nLen === len && !blank(newLines[n - 1] ?? '') && ctxNew.get(o - 1) === n - 1) runs.push({ o, n, len });
  }
  const [extra] = runs;
  if (extra) {
    const d = dropAt(oldLines, [extra.o]);
    if (usable(d)) add('new_extra', d, insertAt(newLines, extra.n), null);
  }
  const double = runs.find((x) => x.len >= 2);
  if (double) {
    const d = dropAt(oldLines, [double.o]);
    if (usable(d))
      add(
        'new_none',
        d,
        dropAt(
          newLines,
          Array.from({ length: double.len }, (_, x) => double.n + x),
        ),
        null,
      );
  }
  return out;
}
