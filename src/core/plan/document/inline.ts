/**
 * How one value is written on one line of a plan document, and read back exactly. Two forms:
 *  - text (a title, a why, an assumption): as it is when it is "plain" — non-empty, no leading or trailing
 *    whitespace, no line break, nothing invisible, not starting with `"`, not a reserved word of its field —
 *    otherwise as a JSON string ("…\n…"), with every invisible or direction-changing character escaped
 *    (\u202e), so what a reviewer sees is what runs;
 *  - code lists (globs, commands, MCP grants): each item as a code span, `src/**`, fenced with one more
 *    backtick than the longest run inside it (padded with one space when it starts or ends with a backtick or
 *    a space); items that cannot be a code span (a line break, an invisible character) as JSON strings;
 *    items separated by ", "; the empty list is `none`.
 * Reading is the exact inverse of writing for every string; the tests prove it with generated text.
 */
import { err, ok, type Result } from '../../contracts/result';

/**
 * Characters that may not stand as they are: controls (tab excepted), line and paragraph separators, the
 * byte-order mark, bidirectional overrides and isolates (text that displays in another order than it
 * runs), and unpaired surrogates (not encodable in UTF-8).
 */
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udfff]/u;
const UNSAFE_GLOBAL = new RegExp(UNSAFE.source, 'gu');

/** True when `text` holds no character that must be escaped (tabs and line feeds aside, which callers judge). */
export function hasUnsafeChars(text: string, allowLineFeeds = false): boolean {
  return UNSAFE.test(allowLineFeeds ? text.replace(/\n/g, '') : text);
}

/** A JSON string literal with every unsafe character as a \u escape (JSON.parse reads it back exactly). */
export function quote(text: string): string {
  return JSON.stringify(text).replace(UNSAFE_GLOBAL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether `text` can be written plain in a text slot whose reserved words are `reserved`. */
function isPlain(text: string, reserved: readonly string[]): boolean {
  return text !== '' && text.trim() === text && !text.startsWith('"') && !hasUnsafeChars(text) && !reserved.includes(text);
}

/** Writes a text value: plain when it can be, else quoted. */
export function writeText(text: string, reserved: readonly string[] = []): string {
  return isPlain(text, reserved) ? text : quote(text);
}

/** Reads a text value written by `writeText` (a value starting with `"` must be one whole JSON string). */
export function readText(raw: string): Result<string, string> {
  if (!raw.startsWith('"')) return ok(raw);
  const scan = new Scanner(raw);
  const value = scan.jsonString();
  if (!value.ok) return value;
  if (!scan.atEnd()) return err(`text after the closing quote: ${JSON.stringify(scan.rest())}`);
  return ok(value.value);
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** One item of a code list: a code span when it can be one, else a quoted string. */
export function writeCode(item: string): string {
  if (item === '' || hasUnsafeChars(item) || item.includes('\t')) return quote(item);
  const fence = '`'.repeat(longestBacktickRun(item) + 1);
  const pad = item.startsWith('`') || item.endsWith('`') || item.startsWith(' ') || item.endsWith(' ') ? ' ' : '';
  return `${fence}${pad}${item}${pad}${fence}`;
}

/** A whole code list: items separated by ", ", or `none`. */
export function writeCodeList(items: readonly string[]): string {
  return items.length === 0 ? 'none' : items.map(writeCode).join(', ');
}

/** Reads a code list written by `writeCodeList`. */
export function readCodeList(raw: string): Result<string[], string> {
  if (raw === 'none') return ok([]);
  const scan = new Scanner(raw);
  const items: string[] = [];
  for (;;) {
    const item = scan.codeOrString();
    if (!item.ok) return item;
    items.push(item.value);
    if (scan.atEnd()) return ok(items);
    if (!scan.take(',')) return err(`expected ", " between items, found ${JSON.stringify(scan.rest())}`);
    scan.skipSpaces();
  }
}

/**
 * A cursor over one line's value, for the small grammars of field values (code lists, evidence checks):
 * each method consumes what it reads or returns an error saying what it expected.
 */
export class Scanner {
  #at = 0;
  constructor(readonly text: string) {}

  atEnd(): boolean {
    return this.#at >= this.text.length;
  }

  rest(): string {
    return this.text.slice(this.#at);
  }

  /** Consumes `literal` when the text continues with it. */
  take(literal: string): boolean {
    if (!this.text.startsWith(literal, this.#at)) return false;
    this.#at += literal.length;
    return true;
  }

  skipSpaces(): void {
    while (this.text[this.#at] === ' ') this.#at++;
  }

  /** Consumes a whole-number literal (optionally negative). */
  integer(): Result<number, string> {
    const m = /^-?\d+/.exec(this.rest());
    if (!m) return err(`expected a whole number, found ${JSON.stringify(this.rest())}`);
    this.#at += m[0].length;
    return ok(Number(m[0]));
  }

  /** Consumes a JSON string literal. */
  jsonString(): Result<string, string> {
    if (this.text[this.#at] !== '"') return err(`expected a quoted string, found ${JSON.stringify(this.rest())}`);
    let i = this.#at + 1;
    while (i < this.text.length && this.text[i] !== '"') i += this.text[i] === '\\' ? 2 : 1;
    if (i >= this.text.length) return err(`the quoted string ${JSON.stringify(this.rest())} is not closed`);
    const literal = this.text.slice(this.#at, i + 1);
    try {
      const value: unknown = JSON.parse(literal);
      if (typeof value !== 'string') return err(`${literal} is not a string`);
      this.#at = i + 1;
      return ok(value);
    } catch {
      return err(`${literal} is not a valid JSON string (escape " and \\ inside it)`);
    }
  }

  /** Consumes a code span (any fence length) or a JSON string literal. */
  codeOrString(): Result<string, string> {
    if (this.text[this.#at] === '"') return this.jsonString();
    const fence = /^`+/.exec(this.rest())?.[0];
    if (!fence) return err(`expected a code span like \`src/**\` or a quoted string, found ${JSON.stringify(this.rest())}`);
    const start = this.#at + fence.length;
    // The closing fence is the next run of exactly as many backticks.
    const closing = new RegExp(`(?<!\`)${fence}(?!\`)`, 'g');
    closing.lastIndex = start;
    const m = closing.exec(this.text);
    if (!m) return err(`the code span starting ${JSON.stringify(this.rest())} is not closed with ${fence}`);
    let content = this.text.slice(start, m.index);
    // The writer pads an item that starts or ends with a backtick or a space; an unpadded item never starts with one.
    if (content.length >= 2 && content.startsWith(' ') && content.endsWith(' ')) content = content.slice(1, -1);
    this.#at = m.index + fence.length;
    return ok(content);
  }
}
