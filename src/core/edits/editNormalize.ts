/**
 * Normalised views of text for the tolerant str_replace levels. A match found in the normalised text is
 * mapped back to original offsets (`originalOffsets`), so it replaces exactly the original region it came
 * from. Levels are cumulative: each one forgives everything the previous did,
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

const QUOTES: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u2032': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u2033': '"',
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

/** The normalised text alone (native regex passes; no offset map).  */
export function normalizeText(text: string, opts: NormalizeOptions): string {
  let t = text;
  if (opts.eol) t = t.replace(/\r\n/g, '\n');
  if (opts.trailing) t = opts.eol ? t.replace(/[ \t]+(?=\n|$)/g, '') : t.replace(/[ \t]+(?=\r?\n|$)/g, '');
  if (opts.quotes) t = straightenQuotes(t);
  return t;
}

/**
 * Original offsets of the given normalised offsets (ascending), by walking the original once and stopping
 * after the last one — the map `normalize` builds, paid for only when there is a match.
 */
export function originalOffsets(text: string, opts: NormalizeOptions, targets: number[]): number[] {
  const out: number[] = [];
  if (targets.length === 0) return out;
  const n = text.length;
  let emitted = 0;
  let t = 0;
  let i = 0;
  const emit = (orig: number): boolean => {
    while (t < targets.length && targets[t] === emitted) {
      out.push(orig);
      t++;
    }
    emitted++;
    return t >= targets.length;
  };
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
      if (!atLineEnd) for (let k = i; k < j; k++) if (emit(k)) return out;
      i = j;
      continue;
    }
    if (emit(i)) return out;
    i++;
  }
  while (t < targets.length) {
    out.push(n);
    t++;
  }
  return out;
}

/** Every start offset of `needle` in `haystack`, overlapping ones included (stops after `limit`). */
export function findAll(haystack: string, needle: string, limit = 50): number[] {
  const found: number[] = [];
  if (needle.length === 0) return found;
  for (let i = haystack.indexOf(needle); i !== -1 && found.length < limit; i = haystack.indexOf(needle, i + 1)) found.push(i);
  return found;
}
