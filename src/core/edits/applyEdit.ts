/**
 * The str_replace engine: `oldText` must identify exactly one place in the file.
 *
 * Levels, tried in order; the FIRST level that finds any match decides — one match applies, several are
 * `ambiguous` (later levels are strictly more forgiving, so they could only find more):
 *   1. exact          — byte-for-byte substring.
 *   2. line_endings   — CRLF and LF treated alike.
 *   3. trailing_whitespace — plus spaces/tabs at line ends ignored.
 *   4. typographic_quotes  — plus ‘’“” read as '".
 *   5. indentation / tabs_spaces — plus whole lines whose indentation differs by ONE uniform shift
 *      (columns, tabs counted as one indent level); `newText` is re-indented by that shift.
 * A wrong application is the worst outcome, so nothing here guesses: no fuzzy similarity ever applies an
 * edit; similarity is only used to describe the closest candidate region in a `not_found` failure.
 * `newText` is written in the file's own style: its line endings, and — only when the level forgave them and
 * the replaced region has none — without trailing whitespace or typographic quotes.
 */
import { closestRegions, type CandidateRegion } from './editCandidates';
import { matchIndentation } from './editIndent';
import {
  findAll,
  hasTrailingWhitespace,
  hasTypographicQuotes,
  lineOf,
  normalizeText,
  originalOffsets,
  straightenQuotes,
  stripTrailingWhitespace,
  type NormalizeOptions,
} from './editNormalize';
import { dominantEol, toEol } from './textFile';

export interface TextEdit {
  oldText: string;
  newText: string;
}

export type EditStrategy =
  | 'exact'
  | 'line_endings'
  | 'trailing_whitespace'
  | 'typographic_quotes'
  | 'indentation'
  | 'tabs_spaces';

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

function ambiguous(original: string, offsets: number[], level: string): ApplyEditResult {
  const lines = [...new Set(offsets.map((o) => lineOf(original, o)))];
  return fail(
    'ambiguous',
    `oldText matches ${offsets.length >= 50 ? '50 or more' : offsets.length} places (${level}), starting at lines ${lines.slice(0, 10).join(', ')}${lines.length > 10 ? ', …' : ''}. Include more surrounding lines so it identifies exactly one place.`,
    { matchLines: lines },
  );
}

/** newText in the file's line-ending style (only when the file has line breaks to take a style from). */
function inFileEol(original: string, newText: string): string {
  return /\n/.test(original) ? toEol(newText, dominantEol(original)) : newText;
}

function finish(original: string, text: string, strategy: EditStrategy): ApplyEditResult {
  if (text === original) return fail('no_op', 'the edit would leave the file unchanged');
  return { ok: true, text, strategy };
}

export function applyEdit(original: string, edit: TextEdit): ApplyEditResult {
  if (typeof original !== 'string' || typeof edit?.oldText !== 'string' || typeof edit?.newText !== 'string') {
    return fail('invalid', 'original, oldText and newText must be strings');
  }
  const { oldText, newText } = edit;
  if (oldText.length === 0) return fail('invalid', 'oldText is empty; use create or insert to add text');
  if (original.includes('\0') || oldText.includes('\0') || newText.includes('\0')) {
    return fail('invalid', 'NUL bytes: the text editor handles text files only');
  }
  if (original.length > MAX_EDIT_TEXT || newText.length > MAX_EDIT_TEXT) return fail('invalid', 'text is over the editor size cap');
  if (oldText === newText) return fail('no_op', 'oldText and newText are identical');

  // 1. exact
  const exact = findAll(original, oldText);
  if (exact.length > 1) return ambiguous(original, exact, 'exact match');
  if (exact.length === 1) {
    const at = exact[0] as number;
    let replacement = inFileEol(original, newText);
    // oldText began at the LF of a CRLF: the CR before it is already there, so don't write a second one.
    if (at > 0 && original[at - 1] === '\r' && oldText.startsWith('\n') && replacement.startsWith('\r\n')) replacement = replacement.slice(1);
    const indented = indentFollowingLines(original, at, oldText, replacement);
    return finish(original, original.slice(0, at) + indented.text + original.slice(at + oldText.length), indented.changed ? 'indentation' : 'exact');
  }

  // 2–4. normalised substring levels (a level that changes neither text cannot find anything new)
  for (const { strategy, opts } of LEVELS) {
    if (!levelApplies(strategy, original, oldText)) continue;
    const fileText = normalizeText(original, opts);
    const needle = normalizeText(oldText, opts);
    if (needle.length === 0) continue;
    // Whitespace that ended oldText is only "trailing" if the match ends a line; mid-line it is significant
    // (`foo ` must not match the start of `foobar`).
    const mustEndLine = opts.trailing && /[ \t]$/.test(oldText);
    const hits = findAll(fileText, needle).filter((h) => !mustEndLine || h + needle.length === fileText.length || fileText[h + needle.length] === '\n');
    if (hits.length > 1) return ambiguous(original, originalOffsets(original, opts, hits), strategy.replace('_', ' '));
    if (hits.length === 0) continue;
    const s = hits[0] as number;
    const [mappedStart, lastChar] = originalOffsets(original, opts, [s, s + needle.length - 1]) as [number, number];
    let start = mappedStart;
    const end = lastChar + 1;
    // A match that begins at a line break must take that break's CR along with it.
    if (fileText[s] === '\n' && start > 0 && original[start - 1] === '\r') start--;
    const region = original.slice(start, end);
    let replacement = inFileEol(original, newText);
    if (opts.trailing && !hasTrailingWhitespace(region)) replacement = stripTrailingWhitespace(replacement);
    if (opts.quotes && !hasTypographicQuotes(region)) replacement = straightenQuotes(replacement);
    return finish(original, original.slice(0, start) + replacement + original.slice(end), strategy);
  }

  // 5. uniform indentation shift
  const indent = matchIndentation(original, oldText, newText);
  if (indent.starts.length > 1) {
    const offsets = indent.starts.map((line) => nthLineOffset(original, line));
    return ambiguous(original, offsets, 'ignoring indentation');
  }
  if (indent.apply) return finish(original, indent.apply.text, indent.apply.tabsVersusSpaces ? 'tabs_spaces' : 'indentation');
  if (indent.unrenderable) {
    return fail('not_found', 'oldText matches one place only after an indentation change that cannot be carried over to newText unambiguously (it would go left of column 0, or the tab width is unclear); send oldText and newText with the file\'s real indentation');
  }

  const candidates = closestRegions(original, oldText, 1);
  const best = candidates[0];
  const where = best
    ? ` Closest candidate: lines ${best.startLine}–${best.endLine} (similarity ${best.similarity.toFixed(2)}):\n${best.excerpt}`
    : ' The file is empty.';
  return fail(
    'not_found',
    `oldText was not found (also tried ignoring line endings, trailing whitespace, typographic quotes and a uniform indentation shift).${where}`,
    { candidates },
  );
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
 * A one-line oldText sent without its line's indentation (it matched right after the leading whitespace)
 * usually comes with newText lines written without it too: `return x;` → `log(x);\nreturn x;` would put
 * the second line at column 0. When every later non-blank newText line is indented less than the line's
 * own indentation, that indentation is added to them. Multi-line oldText is left alone: there the file's
 * own later lines were matched exactly, so newText's indentation is already the file's.
 */
function indentFollowingLines(original: string, at: number, oldText: string, replacement: string): { text: string; changed: boolean } {
  if (oldText.replace(/\r?\n$/, '').includes('\n') || !replacement.includes('\n')) return { text: replacement, changed: false };
  const lineStart = original.lastIndexOf('\n', at - 1) + 1;
  const lead = original.slice(lineStart, at);
  if (lead.length === 0 || !/^[ \t]+$/.test(lead)) return { text: replacement, changed: false };
  const lines = replacement.split('\n');
  const later = lines.slice(1).filter((l) => l.replace(/\r$/, '').trim().length > 0);
  if (later.length === 0 || !later.every((l) => !l.startsWith(lead))) return { text: replacement, changed: false };
  const shifted = lines.map((l, i) => (i === 0 || l.replace(/\r$/, '').trim().length === 0 ? l : lead + l));
  return { text: shifted.join('\n'), changed: true };
}

function nthLineOffset(text: string, line: number): number {
  let off = 0;
  for (let i = 0; i < line; i++) {
    const nl = text.indexOf('\n', off);
    if (nl === -1) return text.length;
    off = nl + 1;
  }
  return off;
}
