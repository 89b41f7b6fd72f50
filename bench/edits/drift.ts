/**
 * More ways models err, on the same real edits (see perturb.ts for the first ones). Each case carries its
 * expected file, or null when the only right outcome is a refusal.
 *   blank_fewer / blank_more / blank_several / blank_edge — blank lines missing or extra in oldText (and,
 *     consistently, in newText): the model's copy of the context lost or gained blank lines. The file keeps
 *     its own blank lines.
 *   blank_at_insertion — a blank line missing right where newText inserts lines: the file's blank line may
 *     go before or after them, both readings fit what the model sent, so the right outcome is a refusal.
 *   blank_crlf / blank_tabs — blank drift in a CRLF file, in a tab-indented file edited with spaces.
 *   trailing_ws_leak — the file has trailing whitespace on every line of the region (the last one too), the
 *     snippet has none: kept lines keep it, new and changed lines must not get it.
 *   bom / no_final_newline / mixed_indent / mid_line — file shapes and snippet shapes.
 *   doubled_neighbour — newText repeats the line just outside oldText (must be refused: it would double).
 *   hallucinated / ambiguous_blank — text from another file; a snippet that fits two places once blank
 *     lines are ignored (both must be refused).
 */
import type { BaseEdit } from './corpus';
import { count, region, type BenchCase, type Region } from './perturb';

const WIDE = 3;

const blank = (l: string): boolean => l.trim() === '';
const leading = (l: string): string => /^[ \t]*/.exec(l)?.[0] ?? '';
const splice = (lines: string[], r: Region, by: string[]): string[] => [...lines.slice(0, r.start), ...by, ...lines.slice(r.end)];

/** Context positions of the region: [old index, new index] of every unchanged line before and after the change. */
export function contextPairs(e: BaseEdit, r: Region): [number, number][] {
  const beforeN = e.at - r.start;
  const pairs: [number, number][] = [];
  for (let i = 0; i < beforeN; i++) pairs.push([i, i]);
  const afterN = r.end - (e.at + e.removed.length);
  for (let i = 0; i < afterN; i++) pairs.push([beforeN + e.removed.length + i, r.afterAt + i]);
  return pairs;
}

/** Removes the given old/new indices (pairs of the same context line) from both sides. */
function without(oldLines: string[], newLines: string[], drop: [number, number][]): { o: string[]; n: string[] } {
  const od = new Set(drop.map((d) => d[0]));
  const nd = new Set(drop.map((d) => d[1]));
  return { o: oldLines.filter((_, i) => !od.has(i)), n: newLines.filter((_, i) => !nd.has(i)) };
}

/**
 * Is a dropped context blank line's place in the result clear from what the model sent? Not when the
 * model's newText puts inserted lines exactly where it was (between the two context lines around it).
 */
function placeIsClear(e: BaseEdit, r: Region, oldIdx: number): boolean {
  const beforeN = e.at - r.start;
  // The gap between the last before-context line and the first after-context line, with nothing removed.
  const atChangeBoundary = oldIdx === beforeN - 1 || oldIdx === beforeN + e.removed.length;
  return !(atChangeBoundary && e.removed.length === 0 && e.added.length > 0);
}

function toTabs(line: string, unit: number): string {
  const ind = leading(line);
  if (ind.includes('\t') || ind.length === 0) return line;
  return '\t'.repeat(Math.floor(ind.length / unit)) + ' '.repeat(ind.length % unit) + line.slice(ind.length);
}

function spaceUnit(lines: string[]): number {
  let g = 0;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  for (const l of lines) {
    const ind = leading(l);
    if (ind.length > 0 && !ind.includes('\t') && l.trim()) g = gcd(g, ind.length);
  }
  return g === 2 || g === 4 ? g : 0;
}

export function driftCasesFor(e: BaseEdit, other: BaseEdit | undefined): BenchCase[] {
  const lines = e.file.split('\n');
  const out: BenchCase[] = [];
  const add = (category: string, file: string, o: string, n: string, exp: string | null): void => {
    out.push({ category, id: e.id, file, oldText: o, newText: n, expected: exp });
  };
  const r = region(e, lines, WIDE);
  const oldLines = lines.slice(r.start, r.end);
  const oldText = oldLines.join('\n');
  const newText = r.newLines.join('\n');
  if (oldText.trim() === '' || count(e.file, oldText) !== 1) return out;
  const expected = splice(lines, r, r.newLines).join('\n');
  const unique = (o: string, file = e.file): boolean => count(file, o) === 0;

  // Blank-line drift in the context.
  const ctx = contextPairs(e, r);
  const blanks = ctx.filter(([o]) => blank(oldLines[o] as string) && o > 0 && o < oldLines.length - 1);
  const clear = blanks.filter(([o]) => placeIsClear(e, r, o));
  const unclear = blanks.filter(([o]) => !placeIsClear(e, r, o));
  if (clear.length > 0) {
    const d = without(oldLines, r.newLines, [clear[0] as [number, number]]);
    if (unique(d.o.join('\n'))) {
      add('blank_fewer', e.file, d.o.join('\n'), d.n.join('\n'), expected);
      add('blank_crlf', e.file.replace(/\n/g, '\r\n'), d.o.join('\n'), d.n.join('\n'), expected.replace(/\n/g, '\r\n'));
      const unit = spaceUnit(lines);
      const allSpaces = [...oldLines, ...r.newLines].every((l) => !leading(l).includes('\t'));
      if (unit > 0 && allSpaces && oldLines.some((l) => leading(l).length >= unit)) {
        const tabbed = lines.map((l) => toTabs(l, unit)).join('\n');
        add(
          'blank_tabs',
          tabbed,
          d.o.join('\n'),
          d.n.join('\n'),
          expected
            .split('\n')
            .map((l) => toTabs(l, unit))
            .join('\n'),
        );
      }
    }
  }
  if (unclear.length > 0) {
    const d = without(oldLines, r.newLines, [unclear[0] as [number, number]]);
    if (unique(d.o.join('\n'))) add('blank_at_insertion', e.file, d.o.join('\n'), d.n.join('\n'), null);
  }
  if (clear.length >= 2 && unclear.length === 0) {
    const d = without(oldLines, r.newLines, clear);
    if (unique(d.o.join('\n'))) add('blank_several', e.file, d.o.join('\n'), d.n.join('\n'), expected);
  }
  // One blank line more: after a non-blank context line that is not the region's last.
  const host = ctx.find(([o]) => !blank(oldLines[o] as string) && o < oldLines.length - 1 && !blank(oldLines[o + 1] as string));
  if (host) {
    const o = [...oldLines.slice(0, host[0] + 1), '', ...oldLines.slice(host[0] + 1)];
    const n = [...r.newLines.slice(0, host[1] + 1), '', ...r.newLines.slice(host[1] + 1)];
    if (unique(o.join('\n'))) add('blank_more', e.file, o.join('\n'), n.join('\n'), expected);
    // Several: that extra blank line, and every context blank line whose place is clear dropped.
    if (clear.length > 0 && unclear.length === 0) {
      const shifted = clear.map(([a, b]) => [a > host[0] ? a + 1 : a, b > host[1] ? b + 1 : b] as [number, number]);
      const d = without(o, n, shifted);
      if (unique(d.o.join('\n'))) add('blank_several', e.file, d.o.join('\n'), d.n.join('\n'), expected);
    }
  }
  // At the edges: an extra blank line leading or trailing the snippet where the file has none.
  if (r.start > 0 && !blank(lines[r.start - 1] as string) && !blank(oldLines[0] as string)) {
    add('blank_edge', e.file, `\n${oldText}`, `\n${newText}`, expected);
  }
  if (r.end < lines.length && !blank(lines[r.end] as string) && !blank(oldLines[oldLines.length - 1] as string)) {
    add('blank_edge', e.file, `${oldText}\n\n`, `${newText}\n\n`, expected);
  }

  // Trailing whitespace on every region line in the file (lines whose text occurs at most once in oldText
  // and once in newText, so which line is kept is plain), the snippet has none. Twice: the whole region,
  // and the region without its after-context, so that oldText ends on a replaced line.
  if (!/[ \t]$/m.test(oldText) && !/[ \t]$/m.test(newText)) {
    const inOld = new Map<string, number>();
    const inNew = new Map<string, number>();
    for (const l of oldLines) inOld.set(l, (inOld.get(l) ?? 0) + 1);
    for (const l of r.newLines) inNew.set(l, (inNew.get(l) ?? 0) + 1);
    const plain = (l: string): boolean => (inOld.get(l) ?? 0) <= 1 && (inNew.get(l) ?? 0) <= 1;
    const padded = [...lines];
    for (let i = r.start; i < r.end; i++) {
      const l = padded[i] as string;
      if (l.trim() && plain(l)) padded[i] = `${l}${i % 2 ? '\t' : '  '}`;
    }
    // Kept lines (the same text in oldText and newText) keep their padding; the others are newText's.
    const kept = (ls: string[]): string[] => ls.map((l) => (plain(l) && oldLines.includes(l) ? (padded[r.start + oldLines.indexOf(l)] as string) : l));
    if (padded.join('\n') !== e.file) {
      add('trailing_ws_leak', padded.join('\n'), oldText, newText, splice(padded, r, kept(r.newLines)).join('\n'));
      const afterN = r.end - (e.at + e.removed.length);
      if (afterN > 0 && e.removed.length > 0) {
        const short: Region = { ...r, end: r.end - afterN };
        const o = oldLines.slice(0, -afterN);
        const n = r.newLines.slice(0, r.newLines.length - afterN);
        // A removed blank line last would vanish in the join (`X` and `` give `X\n`): oldText would not show it.
        if (count(e.file, o.join('\n')) === 1 && !blank(o[o.length - 1] as string))
          add('trailing_ws_leak', padded.join('\n'), o.join('\n'), n.join('\n'), splice(padded, short, kept(n)).join('\n'));
      }
    }
  }

  add('bom', `\uFEFF${e.file}`, oldText, newText, `\uFEFF${expected}`);

  // The file ends with the region's last line, without a final newline; the model may add one to both.
  const cut = lines.slice(0, r.end);
  const cutExpected = splice(cut, r, r.newLines).join('\n');
  if (!blank(cut[cut.length - 1] as string) && count(cut.join('\n'), oldText) === 1) {
    const withNl = e.id.length % 2 === 0;
    add('no_final_newline', cut.join('\n'), withNl ? `${oldText}\n` : oldText, withNl ? `${newText}\n` : newText, cutExpected);
  }

  // Mixed indentation: every other indented line outside the region uses tabs; the snippet is dedented.
  const unit = spaceUnit(lines);
  const nonBlank = oldLines.filter((l) => l.trim());
  const minIndent = Math.min(...nonBlank.map((l) => leading(l).length));
  const allSpaces = [...oldLines, ...r.newLines].every((l) => !leading(l).includes('\t'));
  if (unit > 0 && allSpaces && minIndent > 0 && r.newLines.every((l) => !l.trim() || leading(l).length >= minIndent)) {
    let flip = false;
    const mixed = lines.map((l, i) => ((i >= r.start && i < r.end) || !leading(l) || !(flip = !flip) ? l : toTabs(l, unit)));
    const dedent = (ls: string[]): string => ls.map((l) => (l.trim() ? l.slice(minIndent) : l)).join('\n');
    add('mixed_indent', mixed.join('\n'), dedent(oldLines), dedent(r.newLines), splice(mixed, r, r.newLines).join('\n'));
  }

  // Starting or ending mid-line: the first (last) context line without its first (last) few characters.
  const firstCtx = e.at > r.start ? (oldLines[0] as string) : '';
  if (firstCtx.trim().length >= 8) {
    const cutAt = leading(firstCtx).length + 3;
    const o = oldText.slice(cutAt);
    if (count(e.file, o) === 1) add('mid_line', e.file, o, newText.slice(cutAt), expected);
  }
  const lastCtx = r.end > e.at + e.removed.length ? (oldLines[oldLines.length - 1] as string) : '';
  if (lastCtx.trim().length >= 8) {
    const o = oldText.slice(0, -3);
    if (count(e.file, o) === 1) add('mid_line', e.file, o, newText.slice(0, -3), expected);
  }

  // newText repeats the line just above (below) oldText, which oldText leaves out.
  const differs = (a: string, ...bs: (string | undefined)[]): boolean => bs.every((b) => a.trim() !== (b ?? '').trim());
  if (r.start > 0 && (lines[r.start - 1] as string).trim() && differs(lines[r.start - 1] as string, r.newLines[0], oldLines[0])) {
    add('doubled_neighbour', e.file, oldText, `${lines[r.start - 1] as string}\n${newText}`, null);
  }
  if (
    r.end < lines.length - 1 &&
    (lines[r.end] as string).trim() &&
    differs(lines[r.end] as string, r.newLines[r.newLines.length - 1], oldLines[oldLines.length - 1])
  ) {
    add('doubled_neighbour', e.file, oldText, `${newText}\n${lines[r.end] as string}`, null);
  }

  // Text from another file.
  if (other) {
    const ol = other.file.split('\n');
    const or = region(other, ol, WIDE);
    const foreign = ol.slice(or.start, or.end).join('\n');
    const foreignKey = foreign
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => l.trim())
      .join('\n');
    const fileKey = lines
      .filter((l) => l.trim())
      .map((l) => l.trim())
      .join('\n');
    if (foreign.trim() && !fileKey.includes(foreignKey)) add('hallucinated', e.file, foreign, or.newLines.join('\n'), null);
  }

  // Two places once blank lines are ignored: the file gains a copy of the region with a blank line
  // inserted, and the snippet has a blank line where neither place has one.
  if (oldLines.length >= 3) {
    const copy = [...oldLines.slice(0, 1), '', ...oldLines.slice(1)];
    const snippet = [...oldLines.slice(0, 2), '', ...oldLines.slice(2)];
    const file = `${e.file}\n${copy.join('\n')}\n`;
    if (count(file, snippet.join('\n')) === 0 && !blank(oldLines[1] as string) && !blank(oldLines[2] as string)) {
      add('ambiguous_blank', file, snippet.join('\n'), [...r.newLines.slice(0, 2), '', ...r.newLines.slice(2)].join('\n'), null);
    }
  }
  return out;
}
