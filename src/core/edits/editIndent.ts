/**
 * The last tolerant str_replace level: whole-line matching that forgives a *uniform* indentation shift of
 * the snippet (and tabs written as spaces or the reverse), on top of line-ending, trailing-whitespace and
 * quote forgiveness. Every non-blank line must be shifted by the same number of columns; `newText` is then
 * re-indented by that shift in the file's own indentation style. A shift that differs line to line is not
 * a match — that would be guessing.
 */
import { hasTrailingWhitespace, hasTypographicQuotes, straightenQuotes, stripTrailingWhitespace } from './editNormalize';

export interface IndentMatch {
  /** 0-based first line of every distinct match. */
  starts: number[];
  /** Present when exactly one match exists. */
  apply?: { text: string; tabsVersusSpaces: boolean };
  /** A match exists but `newText` cannot be re-indented (it would go left of column 0). */
  unrenderable?: boolean;
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
  return g === 2 || g === 4 || g === 8 ? g : g > 0 && g % 4 === 0 ? 4 : 4;
}

export function matchIndentation(original: string, oldText: string, newText: string): IndentMatch {
  const lfOld = oldText.replace(/\r\n/g, '\n');
  const oldEndsNl = lfOld.endsWith('\n');
  const oldLines = (oldEndsNl ? lfOld.slice(0, -1) : lfOld).split('\n').map(splitLine);
  if (!oldLines.some((l) => l.body.length > 0)) return { starts: [] };

  const rawFile = original.split('\n');
  const fileLines = rawFile.map(splitLine);
  const fileUsesTabs = fileLines.some((l) => l.indent.startsWith('\t'));
  const editUsesTabs = oldLines.some((l) => l.indent.startsWith('\t'));
  // When one side is written with tabs and the other with spaces, one tab stands for one indentation level
  // of the space-written side. Its width is inferred, but 2, 4 and 8 are tried too (see below for which wins).
  const inferred = fileUsesTabs && !editUsesTabs
    ? spaceUnit([...oldLines.map((l) => l.indent), ...newText.split('\n').map((l) => /^[ \t]*/.exec(l)?.[0] ?? '')])
    : !fileUsesTabs && editUsesTabs
      ? spaceUnit(fileLines.map((l) => l.indent))
      : 4;
  const widths = fileUsesTabs !== editUsesTabs ? [...new Set([inferred, 2, 4, 8])] : [4];

  const m = oldLines.length;
  const matches: { start: number; delta: number; tab: number }[] = [];
  for (const tab of widths) {
    for (let i = 0; i + m <= fileLines.length; i++) {
      let delta: number | null = null;
      let ok = true;
      for (let j = 0; j < m && ok; j++) {
        const o = oldLines[j] as Line;
        const f = fileLines[i + j] as Line;
        if (o.body.length === 0) {
          ok = f.body.length === 0;
          continue;
        }
        if (o.body !== f.body) {
          ok = false;
          continue;
        }
        const d = columns(f.indent, tab) - columns(o.indent, tab);
        if (delta === null) delta = d;
        else if (d !== delta) ok = false;
      }
      if (ok && delta !== null) matches.push({ start: i, delta, tab });
    }
  }
  const starts = [...new Set(matches.map((x) => x.start))].sort((a, b) => a - b);
  if (starts.length !== 1) return { starts };
  const start = starts[0] as number;
  // A tab width under which the snippet needs no shift at all is the plain reading (each tab was written as
  // that many spaces): when exactly one width gives that, it decides. Otherwise every width must agree.
  const unshifted = matches.filter((x) => x.delta === 0);
  const candidates = unshifted.length === 1 ? unshifted : matches;
  const renders = new Set<string>();
  let text: string | undefined;
  for (const { delta, tab } of candidates) {
    const r = render(original, rawFile, start, m, oldEndsNl, newText, delta, tab, fileUsesTabs);
    if (r === undefined) return { starts, unrenderable: true };
    renders.add(r);
    text ??= r;
  }
  if (renders.size > 1 || text === undefined) return { starts, unrenderable: true };
  const regionTabs = rawFile.slice(start, start + m).some((l) => l.startsWith('\t'));
  return { starts, apply: { text, tabsVersusSpaces: fileUsesTabs !== editUsesTabs && (regionTabs || editUsesTabs) } };
}

/** The file with lines start..start+m-1 replaced by newText re-indented by `delta` columns (undefined: cannot). */
function render(
  original: string,
  rawFile: string[],
  start: number,
  m: number,
  oldEndsNl: boolean,
  newText: string,
  delta: number,
  tab: number,
  fileUsesTabs: boolean,
): string | undefined {
  // The original region: whole lines, plus the final line break only when oldText ended with one.
  const lineStart: number[] = [];
  let off = 0;
  for (const raw of rawFile) {
    lineStart.push(off);
    off += raw.length + 1;
  }
  const lastIdx = start + m - 1;
  const lastRaw = rawFile[lastIdx] as string;
  const regionStart = lineStart[start] as number;
  const lastContentEnd = (lineStart[lastIdx] as number) + (lastRaw.endsWith('\r') ? lastRaw.length - 1 : lastRaw.length);
  const hasNextLine = lastIdx + 1 < rawFile.length;
  const regionEnd = oldEndsNl && hasNextLine ? (lineStart[lastIdx + 1] as number) : lastContentEnd;
  const region = original.slice(regionStart, regionEnd);

  const eol = /\r\n/.test(region) || (region.indexOf('\n') === -1 && /\r\n/.test(original)) ? '\r\n' : '\n';
  const regionTabs = rawFile.slice(start, start + m).some((l) => l.startsWith('\t'));
  const regionSpaces = rawFile.slice(start, start + m).some((l) => l.startsWith(' '));
  const useTabs = regionTabs || (!regionSpaces && fileUsesTabs);
  const keepTrailing = hasTrailingWhitespace(region);
  const keepQuotes = hasTypographicQuotes(region);

  const rendered: string[] = [];
  for (const raw of newText.replace(/\r\n/g, '\n').split('\n')) {
    const indent = /^[ \t]*/.exec(raw)?.[0] ?? '';
    let body = raw.slice(indent.length);
    if (!keepTrailing) body = stripTrailingWhitespace(body);
    if (!keepQuotes) body = straightenQuotes(body);
    if (body.length === 0) {
      rendered.push(keepTrailing ? raw : '');
      continue;
    }
    const cols = columns(indent, tab) + delta;
    if (cols < 0) return undefined;
    const lead = useTabs ? '\t'.repeat(Math.floor(cols / tab)) + ' '.repeat(cols % tab) : ' '.repeat(cols);
    rendered.push(lead + body);
  }
  if (oldEndsNl && !hasNextLine && rendered[rendered.length - 1] === '') rendered.pop();
  return original.slice(0, regionStart) + rendered.join(eol) + original.slice(regionEnd);
}
