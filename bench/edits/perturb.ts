/**
 * Turns one real edit into bench cases, each perturbed the way models err, with the file the edit should
 * produce — or `null` when the only right outcome is a refusal (ambiguous or absent text).
 */
import type { BaseEdit } from './corpus';

export interface BenchCase {
  category: string;
  id: string;
  file: string;
  oldText: string;
  newText: string;
  /** The correct resulting file; null = must fail. */
  expected: string | null;
}

const CONTEXT = 1;

export interface Region {
  start: number;
  end: number; // exclusive line index
  /** Index in `newLines` where the after-context begins. */
  afterAt: number;
  newLines: string[];
}

/** The edit's lines with `k` lines of context each side, before and after the change. */
export function region(e: BaseEdit, lines: string[], k: number): Region {
  const start = Math.max(0, e.at - k);
  const end = Math.min(lines.length, e.at + e.removed.length + k);
  const before = lines.slice(start, e.at);
  const after = lines.slice(e.at + e.removed.length, end);
  return { start, end, afterAt: before.length + e.added.length, newLines: [...before, ...e.added, ...after] };
}

export function count(hay: string, needle: string): number {
  if (needle === '') return 0; // indexOf('') finds the end forever: an empty snippet is in no place
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) n++;
  return n;
}

function replaceLines(lines: string[], r: Region, newLines: string[]): string {
  return [...lines.slice(0, r.start), ...newLines, ...lines.slice(r.end)].join('\n');
}

const leading = (l: string): string => /^[ \t]*/.exec(l)?.[0] ?? '';

function spaceUnit(lines: string[]): number {
  let g = 0;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  for (const l of lines) {
    const ind = leading(l);
    if (ind.length > 0 && !ind.includes('\t') && l.trim()) g = gcd(g, ind.length);
  }
  return g === 2 || g === 4 ? g : 0;
}

function toTabs(line: string, unit: number): string {
  const ind = leading(line);
  if (ind.includes('\t') || ind.length === 0) return line;
  return '\t'.repeat(Math.floor(ind.length / unit)) + ' '.repeat(ind.length % unit) + line.slice(ind.length);
}

function smart(text: string): string {
  let open = true;
  return text.replace(/'/g, '\u2019').replace(/"/g, () => ((open = !open) ? '\u201D' : '\u201C'));
}

/** A near miss: one character of the longest identifier in the old block changed. */
function nearMiss(oldText: string): string | null {
  const words = [...oldText.matchAll(/[A-Za-z_][A-Za-z0-9_]{3,}/g)];
  if (words.length === 0) return null;
  const w = words.reduce((a, b) => (b[0].length > a[0].length ? b : a));
  const at = (w.index ?? 0) + Math.floor(w[0].length / 2);
  const c = oldText[at] as string;
  return oldText.slice(0, at) + (c === 'x' ? 'y' : 'x') + oldText.slice(at + 1);
}

/**
 * How many places a snippet sent with the wrong indentation fits: windows whose lines equal the snippet's
 * once indentation is ignored, every non-blank line shifted by the same number of columns. More than one:
 * the model's text no longer says which was meant, and the right outcome is a refusal.
 */
function shiftedPlaces(lines: string[], snippet: string[]): number {
  let n = 0;
  for (let i = 0; i + snippet.length <= lines.length; i++) {
    let shift: number | null = null;
    let ok = true;
    for (let j = 0; j < snippet.length && ok; j++) {
      const a = lines[i + j] as string;
      const b = snippet[j] as string;
      if (a.trim() !== b.trim()) ok = false;
      else if (b.trim()) {
        const d = leading(a).length - leading(b).length;
        if (shift === null) shift = d;
        else if (d !== shift) ok = false;
      }
    }
    if (ok) n++;
  }
  return n;
}

export function casesFor(e: BaseEdit): BenchCase[] {
  const lines = e.file.split('\n');
  const r = region(e, lines, CONTEXT);
  const oldLines = lines.slice(r.start, r.end);
  const oldText = oldLines.join('\n');
  const newText = r.newLines.join('\n');
  const expected = replaceLines(lines, r, r.newLines);
  const out: BenchCase[] = [];
  const add = (category: string, file: string, o: string, n: string, exp: string | null): void => {
    out.push({ category, id: e.id, file, oldText: o, newText: n, expected: exp });
  };

  // Minimal edits (no context) that occur more than once: the right outcome is a refusal.
  if (e.removed.length > 0) {
    const minimal = e.removed.join('\n');
    if (minimal.trim().length > 0 && count(e.file, minimal) > 1) add('ambiguous', e.file, minimal, e.added.join('\n'), null);
  }
  if (oldText.trim() === '' || count(e.file, oldText) !== 1) return out;

  add('exact', e.file, oldText, newText, expected);
  add('crlf_file', e.file.replace(/\n/g, '\r\n'), oldText, newText, expected.replace(/\n/g, '\r\n'));
  add('crlf_edit', e.file, oldText.replace(/\n/g, '\r\n'), newText.replace(/\n/g, '\r\n'), expected);

  if (!/[ \t]$/m.test(oldText) && !/[ \t]$/m.test(newText)) {
    const pad = (t: string): string =>
      t
        .split('\n')
        .map((l) => (l.length ? `${l}  ` : l))
        .join('\n');
    add('trailing_ws_edit', e.file, pad(oldText), pad(newText), expected);
    if (oldLines.length >= 3) {
      // The file carries trailing spaces inside the region (not on its last line); the edit does not.
      // The lines the edit keeps (its context) keep their trailing spaces; new lines are written as sent.
      const padded = [...lines];
      for (let i = r.start; i < r.end - 1; i++) if ((padded[i] as string).trim()) padded[i] = `${padded[i]}   `;
      const beforeN = e.at - r.start;
      const kept = r.newLines.map((l, i) => (i < beforeN ? (padded[r.start + i] as string) : l));
      add('trailing_ws_file', padded.join('\n'), oldText, newText, replaceLines(padded, r, kept));
    }
  }

  const nonBlank = oldLines.filter((l) => l.trim());
  const minIndent = Math.min(...nonBlank.map((l) => leading(l).length));
  const allSpaces = [...oldLines, ...r.newLines].every((l) => !leading(l).includes('\t'));
  if (allSpaces && minIndent > 0 && r.newLines.every((l) => !l.trim() || leading(l).length >= minIndent)) {
    const dedent = (ls: string[]): string => ls.map((l) => (l.trim() ? l.slice(minIndent) : l)).join('\n');
    const places = shiftedPlaces(lines, dedent(oldLines).split('\n'));
    add(places > 1 ? 'ambiguous_indent' : 'indent_dedented', e.file, dedent(oldLines), dedent(r.newLines), places > 1 ? null : expected);
  }
  if (allSpaces) {
    const indent = (ls: string[]): string => ls.map((l) => (l.trim() ? `    ${l}` : l)).join('\n');
    const places = shiftedPlaces(lines, indent(oldLines).split('\n'));
    add(places > 1 ? 'ambiguous_indent' : 'indent_extra', e.file, indent(oldLines), indent(r.newLines), places > 1 ? null : expected);
  }

  const unit = spaceUnit(lines);
  if (allSpaces && unit > 0 && oldLines.some((l) => leading(l).length >= unit)) {
    const tabbed = lines.map((l) => toTabs(l, unit));
    const tabbedExpected = expected
      .split('\n')
      .map((l) => toTabs(l, unit))
      .join('\n');
    add('tabs_file', tabbed.join('\n'), oldText, newText, tabbedExpected);
  }

  if (/['"]/.test(oldText) && !/[\u2018\u2019\u201C\u201D]/.test(e.file) && !/[\u2018\u2019\u201C\u201D]/.test(newText)) {
    add('smart_quotes', e.file, smart(oldText), smart(newText), expected);
  }

  if (
    allSpaces &&
    minIndent > 0 &&
    /['"]/.test(oldText) &&
    r.newLines.every((l) => !l.trim() || leading(l).length >= minIndent) &&
    !/[\u2018\u2019\u201C\u201D]/.test(e.file + newText)
  ) {
    const dedent = (ls: string[]): string => ls.map((l) => (l.trim() ? l.slice(minIndent) : l)).join('\n');
    add('combined', e.file.replace(/\n/g, '\r\n'), smart(dedent(oldLines)), smart(dedent(r.newLines)), expected.replace(/\n/g, '\r\n'));
  }

  const miss = nearMiss(oldText);
  if (miss && count(e.file, miss) === 0) add('absent_near_miss', e.file, miss, newText, null);
  return out;
}
