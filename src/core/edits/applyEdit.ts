/**
 * The str_replace engine: `oldText` must identify exactly one place in the file.
 *
 * Levels, tried in order; the FIRST level that finds any match decides — one match applies, several are
 * `ambiguous` (later levels are strictly more forgiving, so they could only find more):
 *   1. exact          — byte-for-byte substring, written as the literal replacement.
 *   2. line_endings   — CRLF and LF treated alike.
 *   3. trailing_whitespace — plus spaces/tabs at line ends ignored.
 *   4. typographic_quotes  — plus ‘’“” read as '".
 *   5. indentation / tabs_spaces — plus whole lines whose indentation differs by ONE uniform shift
 *      (columns, tabs counted as one indent level); `newText` is re-indented by that shift.
 *   6. blank_lines    — plus blank lines missing or extra anywhere in the snippet (editIndent.ts).
 * A wrong application is the worst outcome, so nothing here guesses: no fuzzy similarity ever applies an
 * edit; similarity is only used to describe the closest candidate region in a `not_found` failure. A
 * substring level's one match is refused where the same texts read another way (otherReading): the snippet
 * also fits elsewhere with its indentation shifted, or lines added after a snippet sent without its line's
 * indentation may be relative to it; so is an empty newText that would leave an empty line (emptiedLines). A
 * `newText` that repeats the file line just outside the match (one line of context copied into newText
 * only) is refused: applying it would write that line twice.
 *
 * The match is written back line by line (editLines.ts): lines the edit keeps stay the file's bytes; new
 * and changed lines come from `newText` — re-indented, in the region's line-ending style, and without
 * trailing whitespace or typographic quotes when a level forgave them and the region has none. Nothing of
 * a replaced line (its trailing whitespace, say) is carried onto the new text. A byte-order mark stays.
 */
import type { BlankConflict } from './editBlankLines';
import { keepEdgeBreaks, trimEdgeBlankLines } from './editEdges';
import { closestRegions, type CandidateRegion } from './editCandidates';
import { matchLineTiers, shiftedPlaces } from './editIndent';
import { type FileLines, fileLines, lineAt, localEol, renderReplacement, textLines } from './editLines';
import {
  findAll,
  hasTrailingWhitespace,
  hasTypographicQuotes,
  normalizeText,
  originalOffsets,
  straightenQuotes,
  stripTrailingWhitespace,
  type NormalizeOptions,
} from './editNormalize';
import { toEol } from './textFile';

export interface TextEdit {
  oldText: string;
  newText: string;
}

export type EditStrategy = 'exact' | 'line_endings' | 'trailing_whitespace' | 'typographic_quotes' | 'indentation' | 'tabs_spaces' | 'blank_lines';

export type EditFailureReason = 'not_found' | 'ambiguous' | 'no_op' | 'invalid';

export type ApplyEditResult =
  | { ok: true; text: string; strategy: EditStrategy }
  | { ok: false; reason: EditFailureReason; message: string; candidates?: CandidateRegion[]; matchLines?: number[] };

const LEVELS: { strategy: EditStrategy; opts: NormalizeOptions }[] = [
  { strategy: 'line_endings', opts: { eol: true, trailing: false, quotes: false } },
  { strategy: 'trailing_whitespace', opts: { eol: true, trailing: true, quotes: false } },
  { strategy: 'typographic_quotes', opts: { eol: true, trailing: true, quotes: true } },
];

/** Largest text the engine accepts (the workspace layer enforces its own, usually smaller, byte cap). */
export const MAX_EDIT_TEXT = 10 * 1024 * 1024;

function fail(reason: EditFailureReason, message: string, extra: Partial<Extract<ApplyEditResult, { ok: false }>> = {}): ApplyEditResult {
  return { ok: false, reason, message, ...extra };
}

function ambiguous(lines: FileLines, offsets: number[], level: string): ApplyEditResult {
  const at = [...new Set(offsets.map((o) => lineAt(lines, o)))];
  const shown = at
    .slice(0, 3)
    .map((l) => excerpt(lines, l, 2))
    .join('\n   …\n');
  return fail(
    'ambiguous',
    `oldText matches ${offsets.length >= 50 ? '50 or more' : offsets.length} places (${level}), starting at lines ${at
      .slice(0, 10)
      .map((l) => l + 1)
      .join(
        ', ',
      )}${at.length > 10 ? ', …' : ''}. Include more surrounding lines so it identifies exactly one place. The first ${Math.min(3, at.length)}:\n${shown}`,
    { matchLines: at.map((l) => l + 1) },
  );
}

function finish(original: string, text: string, strategy: EditStrategy): ApplyEditResult {
  if (text === original) return fail('no_op', 'the edit would leave the file unchanged');
  return { ok: true, text, strategy };
}

export function applyEdit(original: string, edit: TextEdit): ApplyEditResult {
  if (typeof original !== 'string' || typeof edit?.oldText !== 'string' || typeof edit?.newText !== 'string') {
    return fail('invalid', 'original, oldText and newText must be strings');
  }
  // A byte-order mark is the file's encoding, not its text: kept in front, never matched or written.
  const bom = (t: string): string => (t.startsWith('\uFEFF') ? t.slice(1) : t);
  if (original.startsWith('\uFEFF')) {
    const r = applyEdit(original.slice(1), { oldText: bom(edit.oldText), newText: bom(edit.newText) });
    return r.ok ? { ...r, text: `\uFEFF${r.text}` } : r;
  }
  const refused = invalidEdit(original, edit);
  if (refused) return refused;
  const lines = fileLines(original);
  // The levels in order; the first that finds anything decides (see the top of this file).
  return exactLevel(original, lines, edit) ?? normalisedLevels(original, lines, edit) ?? lineTiers(original, lines, edit) ?? notFound(original, edit.oldText);
}

function invalidEdit(original: string, { oldText, newText }: TextEdit): ApplyEditResult | undefined {
  if (oldText.length === 0) return fail('invalid', 'oldText is empty; use create or insert to add text');
  if (original.includes('\0') || oldText.includes('\0') || newText.includes('\0')) {
    return fail('invalid', 'NUL bytes: the text editor handles text files only');
  }
  if (original.length > MAX_EDIT_TEXT || newText.length > MAX_EDIT_TEXT) return fail('invalid', 'text is over the editor size cap');
  if (oldText === newText) return fail('no_op', 'oldText and newText are identical');
  return undefined;
}

/** Level 1: byte-for-byte. Undefined when oldText is not in the file as it is. */
function exactLevel(original: string, lines: FileLines, { oldText, newText }: TextEdit): ApplyEditResult | undefined {
  const exact = findAll(original, oldText);
  if (exact.length > 1) return ambiguous(lines, exact, 'exact match');
  if (exact.length === 0) return undefined;
  const at = exact[0] as number;
  const refused = otherReading(lines, at, { oldText, newText }, { how: 'exactly', quotes: false });
  if (refused) return refused;
  return spliced(original, lines, { at, end: at + oldText.length, oldText, newText }, (l) => l, 'exact');
}

/** Levels 2–4: normalised substrings (a level that changes neither text cannot find anything new). */
function normalisedLevels(original: string, lines: FileLines, { oldText, newText }: TextEdit): ApplyEditResult | undefined {
  for (const { strategy, opts } of LEVELS) {
    if (!levelApplies(strategy, original, oldText)) continue;
    const fileText = normalizeText(original, opts);
    const needle = normalizeText(oldText, opts);
    if (needle.length === 0) continue;
    // Whitespace that ended oldText is only "trailing" if the match ends a line; mid-line it is significant
    // (`foo ` must not match the start of `foobar`).
    const mustEndLine = opts.trailing && /[ \t]$/.test(oldText);
    const hits = findAll(fileText, needle).filter((h) => !mustEndLine || h + needle.length === fileText.length || fileText[h + needle.length] === '\n');
    if (hits.length > 1) return ambiguous(lines, originalOffsets(original, opts, hits), strategy.replace('_', ' '));
    if (hits.length === 0) continue;
    const s = hits[0] as number;
    const [start, lastChar] = originalOffsets(original, opts, [s, s + needle.length - 1]) as [number, number];
    const end = lastChar + 1;
    const refused = otherReading(lines, start, { oldText, newText }, { how: `ignoring ${strategy.replace('_', ' ')}`, quotes: opts.quotes });
    if (refused) return refused;
    const stripTrailing = opts.trailing && !hasTrailingWhitespace(original.slice(start, end));
    const straighten = opts.quotes && !hasTypographicQuotes(original.slice(start, end));
    const renderNew = (l: string): string => {
      const t = stripTrailing ? stripTrailingWhitespace(l) : l;
      return straighten ? straightenQuotes(t) : t;
    };
    return spliced(original, lines, { at: start, end, oldText, newText }, renderNew, strategy);
  }
  return undefined;
}

/** Levels 5–6: whole lines, a uniform indentation shift, then blank-line drift (editIndent.ts). */
function lineTiers(original: string, lines: FileLines, { oldText, newText }: TextEdit): ApplyEditResult | undefined {
  const tier = matchLineTiers(lines, oldText, newText);
  const tierName = tier.tier === 'blank_lines' ? 'ignoring blank lines and indentation' : 'ignoring indentation';
  if (tier.starts.length > 1)
    return ambiguous(
      lines,
      tier.starts.map((line) => lines.start[line] as number),
      tierName,
    );
  if (tier.apply) {
    const doubled = doubledNeighbour(lines, tier.apply.first, tier.apply.last, true, true, oldText, newText);
    if (doubled) return doubled;
    const strategy: EditStrategy = tier.tier === 'blank_lines' ? 'blank_lines' : tier.apply.tabsVersusSpaces ? 'tabs_spaces' : 'indentation';
    return finish(original, tier.apply.text, strategy);
  }
  if (tier.unrenderable === 'indent') {
    return fail(
      'not_found',
      `oldText matches one place (line ${(tier.starts[0] as number) + 1}) only after an indentation change that cannot be carried over to newText unambiguously (it would go left of column 0, or the tab width is unclear); send oldText and newText with the file's real indentation:\n${excerpt(lines, tier.starts[0] as number, 12)}`,
    );
  }
  if (tier.unrenderable === 'placement') {
    const start = tier.starts[0] as number;
    const region = tier.region ?? { first: start, last: start + 15 };
    return fail('ambiguous', placementMessage(lines, region, tier.conflict, tier.tier === 'blank_lines'), { matchLines: [start + 1] });
  }
  return undefined;
}

function notFound(original: string, oldText: string): ApplyEditResult {
  const candidates = closestRegions(original, oldText, 1);
  const best = candidates[0];
  const where = best
    ? ` Closest candidate: lines ${best.startLine}–${best.endLine} (similarity ${best.similarity.toFixed(2)}):\n${best.excerpt}${best.diff ? `\nWhat differs (- the file, + your oldText):\n${best.diff}` : ''}`
    : ' The file is empty.';
  return fail(
    'not_found',
    `oldText was not found (also tried ignoring line endings, trailing whitespace, typographic quotes, a uniform indentation shift and missing or extra blank lines).${where}`,
    { candidates },
  );
}

/** Where a substring level matched: `at`..`end` of the original, for this oldText and newText. */
interface SubstringMatch {
  at: number;
  end: number;
  oldText: string;
  newText: string;
}

/** Writes newText over a substring match, line by line (editLines.ts), keeping the lines the edit keeps. */
function spliced(original: string, fl: FileLines, match: SubstringMatch, renderNew: (l: string) => string, strategy: EditStrategy): ApplyEditResult {
  const { end, oldText: oText, newText: nText } = match;
  // A match that begins at the LF of a CR LF takes the CR along: the break is replaced whole.
  let start = match.at;
  if (original[start] === '\n' && start > 0 && original[start - 1] === '\r') start--;
  const first = lineAt(fl, start);
  const last = lineAt(fl, Math.max(start, end - 1));
  const old = textLines(oText);
  const head = original.slice(fl.start[first], start);
  let regionEnd = end;
  const tail = old.endsNl ? '' : original.slice(end, fl.contentEnd[last]);
  // Whitespace left after the match on its last line is that line's trailing whitespace: it goes with
  // the line (kept when the line is kept, dropped when the line is replaced), never onto new text.
  if (/^[ \t]+$/.test(tail)) regionEnd = fl.contentEnd[last] as number;
  const doubled = doubledNeighbour(fl, first, last, head.trim() === '', tail.trim() === '', oText, nText);
  if (doubled) return doubled;
  const emptied = nText === '' && head === '' && !old.endsNl && tail.trim() === '' ? emptiedLines(fl, first, last) : undefined;
  if (emptied) return emptied;
  const whole = keepEdgeBreaks(original, start, end, oText, nText);
  const sent = trimEdgeBlankLines(fl, first, last, { start: head === '', end: tail.trim() === '' }, oText, whole);
  if (typeof sent !== 'string') return fail('ambiguous', placementMessage(fl, { first, last }, sent, false), { matchLines: [first + 1] });
  const neu = textLines(sent);
  if (old.lines.length !== last - first + 1) {
    // Line counts disagree (a lone CR in the text): fall back to the plain splice.
    return finish(original, original.slice(0, start) + toEol(sent, localEol(fl, first, last)) + original.slice(end), strategy);
  }
  const body = renderReplacement({
    lines: fl,
    oldLines: old.lines,
    oldEndsNl: old.endsNl,
    newLines: neu.lines,
    newEndsNl: neu.endsNl,
    firstLine: first,
    regionStart: start,
    regionEnd,
    renderNew,
    eol: localEol(fl, first, last),
  });
  return finish(original, original.slice(0, start) + body + original.slice(regionEnd), strategy);
}

/**
 * A newText that begins (ends) with the file line just above (below) the match, when oldText does not,
 * would write that line twice: models do this when they copy one line of context into newText only.
 * Refused: whether the doubled line is wanted cannot be known.
 */
function doubledNeighbour(
  lines: FileLines,
  first: number,
  last: number,
  startsLine: boolean,
  endsLine: boolean,
  oldText: string,
  newText: string,
): ApplyEditResult | undefined {
  const neu = textLines(newText).lines;
  const old = textLines(oldText).lines;
  if (neu.length < 2 || old.length === 0) return undefined;
  // Indentation counts: a doubled line is a copy of its neighbour; a `}` at another depth is not one.
  const key = (l: string): string => stripTrailingWhitespace(straightenQuotes(l).replace(/\r$/, ''));
  const fileLine = (i: number): string => lines.text.slice(lines.start[i], lines.contentEnd[i]);
  const realLines = lines.text.endsWith('\n') ? lines.start.length - 1 : lines.start.length;
  const say = (line: number, where: string): ApplyEditResult =>
    fail(
      'ambiguous',
      `newText ${where} with line ${line + 1} of the file (${JSON.stringify(fileLine(line).trim())}), which is ${where === 'starts' ? 'above' : 'below'} the text oldText matches but is not part of oldText: the result would have that line twice. Include line ${line + 1} in oldText too, or leave it out of newText.`,
      { matchLines: [first + 1] },
    );
  // The nearest non-blank line outside the match, and newText's / oldText's non-blank line on that side.
  const outer = (from: number, step: number): number => {
    let i = from;
    while (i >= 0 && i < realLines && key(fileLine(i)).trim() === '') i += step;
    return i >= 0 && i < realLines ? i : -1;
  };
  const edge = (ls: string[], fromEnd: boolean): string => {
    const keys = ls.map(key).filter((k) => k.trim() !== '');
    return (fromEnd ? keys[keys.length - 1] : keys[0]) ?? '';
  };
  if (startsLine) {
    const above = outer(first - 1, -1);
    if (above >= 0 && edge(neu, false) === key(fileLine(above)) && edge(old, false) !== key(fileLine(above))) return say(above, 'starts');
  }
  if (endsLine) {
    const below = outer(last + 1, 1);
    if (below >= 0 && edge(neu, true) === key(fileLine(below)) && edge(old, true) !== key(fileLine(below))) return say(below, 'ends');
  }
  return undefined;
}

/**
 * An empty newText for whole lines (from a line's start to a line's end, that last line break left out of
 * oldText) empties them: taken literally one empty line stays where they were, which a deletion of the
 * lines — what an empty newText usually means — would not leave. Refused unless no line break follows.
 */
function emptiedLines(fl: FileLines, first: number, last: number): ApplyEditResult | undefined {
  if ((fl.end[last] as number) === (fl.contentEnd[last] as number)) return undefined;
  const one = first === last;
  return fail(
    'ambiguous',
    `newText is empty and oldText is the whole of ${one ? `line ${first + 1}` : `lines ${first + 1}–${last + 1}`} without the line break that ends line ${last + 1}: taken literally, one empty line stays where ${one ? 'it was' : 'they were'}, which deleting ${one ? 'the line' : 'them'} would not leave. To delete ${one ? 'it' : 'them'}, end oldText with that line break; to leave an empty line, include the next line in oldText and newText:\n${excerpt(fl, Math.max(0, first - 1), Math.min(30, last - first + 3))}`,
    { matchLines: [first + 1] },
  );
}

/** Why the blank lines of a match cannot be placed with certainty, with the file's lines there. */
function placementMessage(lines: FileLines, region: { first: number; last: number }, c: BlankConflict | undefined, ignoringBlanks: boolean): string {
  const start = region.first;
  const head = ignoringBlanks
    ? `oldText matches one place (from line ${start + 1}) only when blank lines are ignored, and its blank lines disagree with the file's`
    : `oldText matches one place (from line ${start + 1}), but newText's blank lines cannot be placed with certainty`;
  const ask = 'Send oldText with the blank lines exactly as the file has them, and newText with the blank lines you want there';
  const realLines = lines.text.endsWith('\n') ? lines.start.length - 1 : lines.start.length;
  // The lines the match covers (and the gap's neighbours), at most 30, around the gap when there are more.
  const known = c ? [c.above, c.below].filter((x) => x >= 0) : [];
  const from = Math.max(0, Math.min(region.first, ...known) - 1);
  const to = Math.min(realLines, Math.max(region.last, ...known) + 2);
  const centre = known.length > 0 ? Math.min(...known) : from;
  const shownFrom = to - from <= 30 ? from : Math.max(from, Math.min(centre - 10, to - 30));
  const shown = excerpt(lines, shownFrom, Math.min(30, to - shownFrom));
  if (!c) return `${head}. ${ask}:\n${shown}`;
  const plural = (x: number): string => `${x} blank line${x === 1 ? '' : 's'}`;
  const where =
    c.above >= 0 && c.below >= 0
      ? `between lines ${c.above + 1} and ${c.below + 1}`
      : c.above >= 0
        ? `after line ${c.above + 1}`
        : c.below >= 0
          ? `before line ${c.below + 1}`
          : 'across the snippet';
  const counts = `the file has ${plural(c.file)} and oldText ${plural(c.old)}`;
  const why = {
    pairing: `newText's lines pair with oldText's in two ways (repeated lines), and the two put a different number of blank lines ${where}`,
    insertion: `newText inserts lines ${where}, where ${counts}: which side of the new lines the file's belong on cannot be told`,
    removal:
      `newText removes lines ${where}, where ${counts}; newText's ${c.new} may be oldText's kept or the file's, ` + 'and nothing else in the edit tells which',
    count:
      `${where} the file has ${plural(c.file)}, oldText ${plural(c.old)} and newText ${plural(c.new)}: ` +
      "newText's may be meant as written or as a change to oldText's, and the two give different results",
    neighbour:
      `${where} ${counts}, and newText changes a line beside them without them: ` +
      'they may be meant to stay, or to go with the line it changes, and nothing else in the edit tells which',
    edge:
      `${where} the file has ${plural(c.file)}, ${plural(c.file - c.old)} of them outside oldText (which has ${c.old}); ` +
      `newText has ${c.new} there: whether it repeats the file's or adds to them cannot be told`,
  }[c.kind];
  return `${head}: ${why}. ${ask}:\n${shown}`;
}

/** Lines from..from+count-1 (0-based), numbered like `view` output. */
function excerpt(lines: FileLines, from: number, count: number): string {
  const out: string[] = [];
  for (let i = from; i < Math.min(lines.start.length, from + count); i++)
    out.push(`${String(i + 1).padStart(6)}\t${lines.text.slice(lines.start[i], lines.contentEnd[i])}`);
  return out.join('\n');
}

/** Skips a normalised level when it would not change the file or oldText (it could find nothing new). */
function levelApplies(strategy: EditStrategy, original: string, oldText: string): boolean {
  const both = (re: RegExp): boolean => re.test(original) || re.test(oldText);
  if (strategy === 'line_endings') return both(/\r\n/);
  if (strategy === 'trailing_whitespace') return both(/[ \t](\r?\n|$)/);
  if (strategy === 'typographic_quotes') return both(/[\u2018\u2019\u201A\u201B\u2032\u201C\u201D\u201E\u201F\u2033]/);
  return true;
}

/**
 * A substring level's one match, refused where the same texts read another way that writes a different
 * file (the literal replacement is applied only when it is the one reading):
 *   - the snippet's lines also stand elsewhere with their indentation uniformly shifted (a leading line break
 *     read as a blank line included): models misremember a snippet's indentation, so the place written
 *     exactly is one of several;
 *   - oldText starts after its line's indentation and has no later line of text to pin the columns, while
 *     newText adds lines of which some stand left of that indentation: they may be written as they should
 *     stand (the literal replacement) or relative to oldText's first line, the line's indentation missing
 *     from them too. Added lines all at or right of it are the literal replacement's.
 */
function otherReading(lines: FileLines, at: number, { oldText, newText }: TextEdit, level: { how: string; quotes: boolean }): ApplyEditResult | undefined {
  const how = level.how;
  const line = lineAt(lines, at);
  const others = mayStandElsewhere(lines.text, oldText, level.quotes) ? shiftedPlaces(lines, oldText, newText).filter((l) => l !== line) : [];
  if (others.length > 0) {
    const shown = [line, ...others]
      .slice(0, 3)
      .map((l) => excerpt(lines, l, Math.min(6, textLines(oldText).lines.length + 1)))
      .join('\n   …\n');
    return fail(
      'ambiguous',
      `oldText matches line ${line + 1} ${how}, and line${others.length > 1 ? 's' : ''} ${others
        .slice(0, 10)
        .map((l) => l + 1)
        .join(
          ', ',
        )} with the indentation of every line shifted by the same amount: which place is meant cannot be told (a snippet's indentation is easily misremembered). Include more surrounding lines, with the file's exact indentation, so it identifies exactly one place:\n${shown}`,
      { matchLines: [line, ...others].map((l) => l + 1) },
    );
  }
  const lead = lines.text.slice(lines.start[line], at);
  const later = (t: string): string[] =>
    t
      .split('\n')
      .slice(1)
      .filter((l) => l.trim() !== '');
  // Every added line at or right of the matched line's indentation: the literal replacement stands.
  if (lead.length === 0 || lead.trim() !== '' || later(oldText).length > 0 || later(newText).every((l) => l.startsWith(lead))) return undefined;
  const width = lead.includes('\t') ? JSON.stringify(lead) : `${lead.length} space${lead.length === 1 ? '' : 's'}`;
  return fail(
    'ambiguous',
    `oldText matches line ${line + 1} ${how} but starts after that line's indentation (${width}), and newText adds lines indented less than that: they may be meant as they stand in newText (left of line ${line + 1}), or indented relative to its first line (${width} further right, like it); the two give different results. Send oldText from the start of line ${line + 1}, with its indentation, and newText with the indentation every line should have:\n${excerpt(lines, Math.max(0, line - 1), 4)}`,
    { matchLines: [line + 1] },
  );
}

/**
 * Whether oldText's longest lines of text (three at most) each occur twice in the file — in the match and
 * once more: without that no other place can hold the snippet shifted. Where typographic quotes were
 * forgiven a line may be spelled otherwise in the file, so nothing is ruled out.
 */
function mayStandElsewhere(text: string, oldText: string, quotesForgiven: boolean): boolean {
  if (quotesForgiven) return true;
  const bodies = oldText
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .sort((a, b) => b.length - a.length)
    .slice(0, 3);
  return bodies.every((body) => {
    const once = text.indexOf(body);
    return once >= 0 && text.indexOf(body, once + 1) >= 0;
  });
}
