/**
 * Normalised views of text for the tolerant str_replace levels. Each view keeps a map from every
 * normalised character back to its offset in the original, so a match found in the view replaces exactly
 * the original region it came from. Levels are cumulative: each one forgives everything the previous did,
 * which is why the first level that finds anything decides (more forgiving levels only find more).
 */

export interface NormalizeOptions {
  /** CRLF → LF. */
  eol: boolean;
  /** Drop spaces and tabs before a line break or the end of the text. */
  trailing: boolean;
  /** Typographic quotes → ASCII quotes (one character for one, so offsets stay aligned). */
  quotes: boolean;
}

export interface NormalizedView {
  text: string;
  /** map[k] = offset in the original of normalised char k; map[text.length] = original length. */
  map: number[];
}

const QUOTES: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u2032': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"', '\u2033': '"',
};

export function hasTypographicQuotes(text: string): boolean {
  return /[\u2018\u2019\u201A\u201B\u2032\u201C\u201D\u201E\u201F\u2033]/.test(text);
}

export function straightenQuotes(text: string): string {
  return text.replace(/[\u2018\u2019\u201A\u201B\u2032\u201C\u201D\u201E\u201F\u2033]/g, (c) => QUOTES[c] ?? c);
}

export function hasTrailingWhitespace(text: string): boolean {
  return /[ \t]+(\r?\n|$)/.test(text);
}

export function stripTrailingWhitespace(text: string): string {
  return text.replace(/[ \t]+(?=\r?\n|$)/g, '');
}

export function normalize(text: string, opts: NormalizeOptions): NormalizedView {
  const out: string[] = [];
  const map: number[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i] as string;
    if (opts.eol && c === '\r' && text[i + 1] === '\n') {
      i++;
      continue;
    }
    if (opts.trailing && (c === ' ' || c === '\t')) {
      let j = i;
      while (j < n && (text[j] === ' ' || text[j] === '\t')) j++;
      const atLineEnd = j === n || text[j] === '\n' || (text[j] === '\r' && text[j + 1] === '\n');
      if (!atLineEnd) {
        for (let k = i; k < j; k++) {
          out.push(text[k] as string);
          map.push(k);
        }
      }
      i = j;
      continue;
    }
    out.push(opts.quotes ? (QUOTES[c] ?? c) : c);
    map.push(i);
    i++;
  }
  map.push(n);
  return { text: out.join(''), map };
}

/** Every start offset of `needle` in `haystack`, overlapping ones included (stops after `limit`). */
export function findAll(haystack: string, needle: string, limit = 50): number[] {
  const found: number[] = [];
  if (needle.length === 0) return found;
  for (let i = haystack.indexOf(needle); i !== -1 && found.length < limit; i = haystack.indexOf(needle, i + 1)) found.push(i);
  return found;
}

/** 1-based line number of an offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
