/**
 * The whole-line str_replace tiers, after the substring ones, each forgiving line endings, trailing
 * whitespace and typographic quotes too:
 *   - indentation / tabs_spaces — every non-blank line of the snippet shifted by the SAME number of
 *     columns (tabs counted as one indent level of the other side); `newText` is re-indented by that shift
 *     in the file's own style. A shift that differs line to line is not a match — that would be guessing.
 *   - blank_lines — the same, while blank (empty or whitespace-only) lines may be missing or extra
 *     anywhere in the snippet: the non-blank lines must follow each other in the file with only blank
 *     lines between them. See editLines.ts for which blank lines the result keeps.
 * A tier that finds several places is `ambiguous`; one whose single place cannot be written back without
 * a guess (re-indenting left of column 0, tab widths that disagree, a blank line whose place is unclear)
 * is refused with the reason.
 */
import { type BlankConflict, type BlankDriftResult, renderBlankDrift } from './editBlankLines';
import { keepEdgeBreaks, trimEdgeBlankLines } from './editEdges';
import { type Eol, type FileLines, localEol, renderReplacement, textLines } from './editLines';
import { hasTrailingWhitespace, hasTypographicQuotes, straightenQuotes, stripTrailingWhitespace } from './editNormalize';
import { ok } from '../contracts/result';

export interface LineTierMatch {
  tier: 'indentation' | 'blank_lines';
  /** 0-based first line of every distinct match. */
  starts: number[];
  /** Present when exactly one match exists and it can be written back. */
  apply?: { text: string; tabsVersusSpaces: boolean; first: number; last: number };
  /** One match exists but it cannot be written back without a guess. */
  unrenderable?: 'indent' | 'placement';
  /** With `placement`: the gap whose blank lines cannot be placed, and the file lines the match covers. */
  conflict?: BlankConflict;
  region?: { first: number; last: number };
}

/** A text as lines, and whether it ends with a line break. */
type TextLines = { lines: string[]; endsNl: boolean };

/** Where one candidate match lies (file lines first..last) and how its replacement text is rendered. */
interface Placement {
  first: number;
  last: number;
  render: (regionStart: number, regionEnd: number, neu: TextLines, renderNew: (line: string) => string, eol: Eol) => BlankDriftResult;
}

interface Line {
  indent: string;
  body: string;
}

function splitLine(raw: string): Line {
  const noCr = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const body = stripTrailingWhitespace(noCr);
  const m = /^[ \t]*/.exec(body);
  const indent = m ? m[0] : '';
  return { indent, body: straightenQuotes(body.slice(indent.length)) };
}

function columns(indent: string, tab: number): number {
  let col = 0;
  for (const c of indent) col = c === '\t' ? (Math.floor(col / tab) + 1) * tab : col + 1;
  return col;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The width one indentation level has in space-indented lines (2, 4 or 8; 4 when unclear). */
function spaceUnit(indents: string[]): number {
  let g = 0;
  for (const ind of indents) if (ind.length > 0 && !ind.includes('\t')) g = gcd(g, ind.length);
  return g === 2 || g === 4 || g === 8 ? g : 4;
}

/** The file and the snippet, split into lines and compared once; every step below reads them from here. */
interface Sides {
  lines: FileLines;
  oldText: string;
  newText: string;
  /** oldText's and newText's raw lines. */
  old: TextLines;
  neu: TextLines;
  oldLines: Line[];
  fileLines: Line[];
  /** How many of the file's lines a blank can be paired with. */
  realLines: number;
  fileUsesTabs: boolean;
  editUsesTabs: boolean;
  /** Index in oldLines of each non-blank old line. */
  nonBlankOld: number[];
}

interface Candidate {
  /** File line of each non-blank old line (-1 for blank old lines in the indentation tier: see items). */
  anchors: number[];
  delta: number;
  tab: number;
}

/** One candidate written back: the whole file, and the file lines its match covers. */
interface Written {
  text: string;
  first: number;
  last: number;
}

/** Why the one place found cannot be written back (the fields a refusing LineTierMatch carries). */
type Refusal = { unrenderable: 'indent' } | { unrenderable: 'placement'; conflict: BlankConflict; region: { first: number; last: number } };

/** Tries the indentation tier, then (when it found nothing) the blank_lines tier. */
export function matchLineTiers(lines: FileLines, oldText: string, newText: string): LineTierMatch {
  const sides = readSides(lines, oldText, newText);
  if (sides.nonBlankOld.length === 0) return { tier: 'indentation', starts: [] };
  const widths = tabWidths(sides);
  const windowMatches = indentationMatches(sides, widths);
  const driftMatches = blankLineMatches(sides, widths);
  // Every indentation match is a blank_lines match too: one place only if the more forgiving tier agrees
  // (a short snippet shifted elsewhere must not win over the place it came from, drifted).
  if (windowMatches.length > 0) {
    const windowStarts = new Set(windowMatches.map((c) => c.anchors[0] as number));
    const elsewhere = driftMatches.filter((c) => !windowStarts.has(c.anchors[0] as number));
    if (elsewhere.length > 0)
      return { tier: 'blank_lines', starts: [...new Set([...windowStarts, ...elsewhere.map((c) => c.anchors[0] as number)])].sort((a, b) => a - b) };
    return decide(sides, 'indentation', windowMatches, (c) => windowPlacement(sides, c));
  }
  return decide(sides, 'blank_lines', driftMatches, (c) => driftPlacement(sides, c));
}

/**
 * The places (0-based first lines) where oldText's lines stand with every non-blank line's indentation
 * shifted by the same non-zero amount, blank lines blank: where the snippet also fits if its indentation
 * was misremembered. A substring level's one match is a place among others when this finds any other.
 */
export function shiftedPlaces(lines: FileLines, oldText: string, newText: string): number[] {
  const sides = readSides(lines, oldText, newText);
  if (sides.nonBlankOld.length === 0) return [];
  const shifted = indentationMatches(sides, tabWidths(sides)).filter((c) => c.delta !== 0);
  return [...new Set(shifted.map((c) => (c.anchors[0] as number) - (sides.nonBlankOld[0] as number)))].sort((a, b) => a - b);
}

function readSides(lines: FileLines, oldText: string, newText: string): Sides {
  const old = textLines(oldText);
  const oldLines = old.lines.map(splitLine);
  const n = lines.start.length;
  const fileLines: Line[] = new Array<Line>(n);
  for (let i = 0; i < n; i++) fileLines[i] = splitLine(lines.text.slice(lines.start[i], lines.contentEnd[i]));
  return {
    lines,
    oldText,
    newText,
    old,
    neu: textLines(newText),
    oldLines,
    fileLines,
    // A text ending in LF has an empty pseudo-line after it: not a line a blank can be paired with.
    realLines: lines.text.endsWith('\n') ? n - 1 : n,
    fileUsesTabs: fileLines.some((l) => l.indent.startsWith('\t')),
    editUsesTabs: oldLines.some((l) => l.indent.startsWith('\t')),
    nonBlankOld: oldLines.flatMap((l, j) => (l.body.length > 0 ? [j] : [])),
  };
}

/**
 * The tab widths to try. When one side is written with tabs and the other with spaces, one tab stands for one
 * indentation level of the space-written side: its width is inferred, but 2, 4 and 8 are tried too (decide
 * says which wins).
 */
function tabWidths({ oldLines, fileLines, newText, fileUsesTabs, editUsesTabs }: Sides): number[] {
  if (fileUsesTabs === editUsesTabs) return [4];
  const inferred = fileUsesTabs
    ? spaceUnit([...oldLines.map((l) => l.indent), ...newText.split('\n').map((l) => /^[ \t]*/.exec(l)?.[0] ?? '')])
    : spaceUnit(fileLines.map((l) => l.indent));
  return [...new Set([inferred, 2, 4, 8])];
}

/** The one column shift that takes every non-blank old line onto its anchor in the file (null: none). */
function shiftOf({ oldLines, fileLines, nonBlankOld }: Sides, anchors: number[], tab: number): number | null {
  let delta: number | null = null;
  for (let u = 0; u < anchors.length; u++) {
    const o = oldLines[nonBlankOld[u] as number] as Line;
    const f = fileLines[anchors[u] as number] as Line;
    if (o.body !== f.body) return null;
    const d = columns(f.indent, tab) - columns(o.indent, tab);
    if (delta === null) delta = d;
    else if (d !== delta) return null;
  }
  return delta;
}

/** indentation: a window of exactly the snippet's lines, blank where the snippet is blank. */
function indentationMatches(sides: Sides, widths: number[]): Candidate[] {
  const { oldLines, fileLines, realLines, nonBlankOld } = sides;
  const j0 = nonBlankOld[0] as number;
  const firstBody = (oldLines[j0] as Line).body;
  const matches: Candidate[] = [];
  for (let i = 0; i + oldLines.length <= realLines; i++) {
    if ((fileLines[i + j0] as Line).body !== firstBody) continue;
    if (!oldLines.every((o, j) => o.body.length > 0 || (fileLines[i + j] as Line).body.length === 0)) continue;
    const anchors = nonBlankOld.map((j) => i + j);
    for (const tab of widths) {
      const delta = shiftOf(sides, anchors, tab);
      if (delta !== null) matches.push({ anchors, delta, tab });
    }
  }
  return matches;
}

/** blank_lines: the non-blank lines in order, anything blank between them. */
function blankLineMatches(sides: Sides, widths: number[]): Candidate[] {
  const { oldLines, fileLines, realLines, nonBlankOld } = sides;
  const firstBody = (oldLines[nonBlankOld[0] as number] as Line).body;
  const nonBlankFile: number[] = [];
  for (let i = 0; i < realLines; i++) if ((fileLines[i] as Line).body.length > 0) nonBlankFile.push(i);
  const k = nonBlankOld.length;
  const matches: Candidate[] = [];
  for (let t = 0; t + k <= nonBlankFile.length; t++) {
    if ((fileLines[nonBlankFile[t] as number] as Line).body !== firstBody) continue;
    const anchors = nonBlankFile.slice(t, t + k);
    for (const tab of widths) {
      const delta = shiftOf(sides, anchors, tab);
      if (delta !== null) matches.push({ anchors, delta, tab });
    }
  }
  return matches;
}

function texts({ lines, old }: Sides, neu: TextLines): { lines: FileLines; oldLines: string[]; oldEndsNl: boolean; newLines: string[]; newEndsNl: boolean } {
  return { lines, oldLines: old.lines, oldEndsNl: old.endsNl, newLines: neu.lines, newEndsNl: neu.endsNl };
}

/** oldText's lines are the window's, one for one: the plain line-by-line write-back. */
function windowPlacement(sides: Sides, c: Candidate): Placement {
  const first = (c.anchors[0] as number) - (sides.nonBlankOld[0] as number);
  const last = first + sides.oldLines.length - 1;
  return {
    first,
    last,
    render: (regionStart, regionEnd, neu, renderNew, eol) =>
      ok(renderReplacement({ ...texts(sides, neu), firstLine: first, regionStart, regionEnd, renderNew, eol })),
  };
}

/** The file's blank lines in each gap of oldText (at the edges only as many as oldText has there), then editBlankLines. */
function driftPlacement(sides: Sides, c: Candidate): Placement {
  const { fileLines, realLines, nonBlankOld } = sides;
  const anchors = c.anchors;
  const k = nonBlankOld.length;
  const m = sides.oldLines.length;
  const blankAt = (i: number): boolean => i >= 0 && i < realLines && (fileLines[i] as Line).body.length === 0;
  const range = (a: number, b: number): number[] => Array.from({ length: Math.max(0, b - a) }, (_, x) => a + x);
  const top = anchors[0] as number;
  const bottom = anchors[k - 1] as number;
  let above = 0;
  while (above < (nonBlankOld[0] as number) && blankAt(top - above - 1)) above++;
  let below = 0;
  while (below < m - 1 - (nonBlankOld[k - 1] as number) && blankAt(bottom + below + 1)) below++;
  const fileGaps = [range(top - above, top), ...anchors.slice(1).map((a, u) => range((anchors[u] as number) + 1, a)), range(bottom + 1, bottom + 1 + below)];
  return {
    first: top - above,
    last: bottom + below,
    render: (regionStart, regionEnd, neu, renderNew, eol) =>
      renderBlankDrift({ ...texts(sides, neu), anchors, fileGaps, regionStart, regionEnd, renderNew, eol }),
  };
}

/** One tier's answer: several places, one place written back, or one place that cannot be. */
function decide(sides: Sides, tier: 'indentation' | 'blank_lines', matches: Candidate[], place: (c: Candidate) => Placement): LineTierMatch {
  const starts = [...new Set(matches.map((x) => x.anchors[0] as number))].sort((a, b) => a - b);
  if (starts.length !== 1) return { tier, starts };
  // A tab width under which the snippet needs no shift at all is the plain reading (each tab was written as
  // that many spaces): when exactly one width gives that, it decides. Otherwise every width must agree.
  const unshifted = matches.filter((x) => x.delta === 0);
  const candidates = unshifted.length === 1 ? unshifted : matches;
  let result: Written | undefined;
  for (const c of candidates) {
    const written = writeBack(sides, c, place(c));
    if ('unrenderable' in written) return { tier, starts, ...written };
    if (result !== undefined && result.text !== written.text) return { tier, starts, unrenderable: 'indent' };
    result = written;
  }
  if (!result) return { tier, starts, unrenderable: 'indent' };
  const regionTabs = linesOf(sides.lines, result.first, result.last).some((l) => l.startsWith('\t'));
  return { tier, starts, apply: { ...result, tabsVersusSpaces: sides.fileUsesTabs !== sides.editUsesTabs && (regionTabs || sides.editUsesTabs) } };
}

/** The file with one candidate's region replaced by newText, re-indented and with its blank lines placed. */
function writeBack(sides: Sides, c: Candidate, { first, last, render }: Placement): Written | Refusal {
  const { lines, oldText, newText } = sides;
  const start = lines.start[first] as number;
  const end = sides.old.endsNl ? (lines.end[last] as number) : (lines.contentEnd[last] as number);
  const renderNew = reindenter(sides, { first, last, start, end }, c.delta, c.tab);
  if (sides.neu.lines.some((l) => renderNew(l) === undefined)) return { unrenderable: 'indent' };
  const sent = trimEdgeBlankLines(lines, first, last, { start: true, end: true }, oldText, keepEdgeBreaks(lines.text, start, end, oldText, newText));
  if (typeof sent !== 'string') return { unrenderable: 'placement', conflict: sent, region: { first, last } };
  const trimmed = textLines(sent);
  const body = render(start, end, trimmed, (l) => renderNew(l) as string, localEol(lines, first, last));
  if (!body.ok) return { unrenderable: 'placement', conflict: body.error, region: { first, last } };
  return { text: lines.text.slice(0, start) + body.value + lines.text.slice(end), first, last };
}

function linesOf(lines: FileLines, a: number, b: number): string[] {
  return Array.from({ length: Math.max(0, b - a + 1) }, (_, x) => lines.text.slice(lines.start[a + x], lines.contentEnd[a + x]));
}

/** A newText line re-indented by `delta` columns in the region's style (undefined: left of column 0). */
function reindenter(
  { lines, fileUsesTabs }: Sides,
  region: { first: number; last: number; start: number; end: number },
  delta: number,
  tab: number,
): (raw: string) => string | undefined {
  const regionText = lines.text.slice(region.start, region.end);
  const regionLines = linesOf(lines, region.first, region.last);
  const regionTabs = regionLines.some((l) => l.startsWith('\t'));
  const regionSpaces = regionLines.some((l) => l.startsWith(' '));
  const useTabs = regionTabs || (!regionSpaces && fileUsesTabs);
  // Trailing whitespace and typographic quotes in newText are the snippet's style, not the file's: kept
  // only when the region has some of its own.
  const keepTrailing = hasTrailingWhitespace(regionText);
  const keepQuotes = hasTypographicQuotes(regionText);
  return (raw) => {
    const indent = /^[ \t]*/.exec(raw)?.[0] ?? '';
    let body = raw.slice(indent.length);
    if (!keepTrailing) body = stripTrailingWhitespace(body);
    if (!keepQuotes) body = straightenQuotes(body);
    if (body.length === 0) return keepTrailing ? raw : '';
    const cols = columns(indent, tab) + delta;
    if (cols < 0) return undefined;
    const lead = useTabs ? '\t'.repeat(Math.floor(cols / tab)) + ' '.repeat(cols % tab) : ' '.repeat(cols);
    return lead + body;
  };
}
