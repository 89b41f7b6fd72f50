/**
 * Front matter of instruction files (`---` … `---` at the top), read as the small YAML subset these files
 * use: `key: value` lines, with quoted or bare scalars, `true`/`false`, flow lists `[a, b]` and block lists
 * (`- item` lines). Anything else is reported as malformed — a value, never an exception — and the caller
 * decides what the file is worth without it. The schemas per convention live with the discovery.
 */
export type FrontMatterValue = string | boolean | string[] | null;
import { err, ok, type Result } from '../contracts/result';

/** Malformed front matter: why, and the text after it. */
export type FrontMatterError = { reason: string; body: string };
export type FrontMatter = Result<{ data: Record<string, FrontMatterValue>; body: string; present: boolean }, FrontMatterError>;

const KEY_LINE = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/;

function unquote(raw: string): string {
  const t = raw.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) return t.slice(1, -1);
  return t;
}

/** A scalar with a trailing ` # comment` removed (outside quotes). */
function stripComment(raw: string): string {
  const t = raw.trim();
  const q = t[0];
  if (q === '"' || q === "'") {
    const close = t.indexOf(q, 1);
    return close === -1 ? t : t.slice(0, close + 1);
  }
  const at = t.search(/\s#/);
  return at === -1 ? t : t.slice(0, at).trim();
}

function scalar(raw: string): FrontMatterValue | { error: string } {
  const t = stripComment(raw);
  if (t === '' || t === '~' || t === 'null') return null;
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (t.startsWith('[')) {
    if (!t.endsWith(']')) return { error: `an unclosed list: ${t}` };
    const inner = t.slice(1, -1).trim();
    return inner === ''
      ? []
      : inner
          .split(',')
          .map(unquote)
          .filter((s) => s !== '');
  }
  if (/^["']/.test(t) && !/["']$/.test(t)) return { error: `an unclosed quote: ${t}` };
  if (t.startsWith('{') || t.startsWith('|') || t.startsWith('>')) return { error: `a value this reader does not take: ${t}` };
  return unquote(t);
}

export function parseFrontMatter(text: string): FrontMatter {
  const clean = text.replace(/^\uFEFF/, '');
  const lines = clean.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return ok({ data: {}, body: clean, present: false });
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (end === -1) return err({ reason: 'the front matter has no closing "---" line', body: clean });
  const body = lines.slice(end + 1).join('\n');
  const data: Record<string, FrontMatterValue> = {};
  let listKey: string | null = null;
  for (let i = 1; i < end; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const item = /^\s*-\s*(.*)$/.exec(line);
    if (item && listKey !== null) {
      const prev = data[listKey];
      data[listKey] = [...(Array.isArray(prev) ? prev : []), unquote(stripComment(item[1]!))];
      continue;
    }
    const kv = KEY_LINE.exec(line);
    if (!kv || /^\s/.test(line)) return err({ reason: `line ${i + 1} of the front matter is not "key: value": ${line.trim().slice(0, 80)}`, body });
    const value = scalar(kv[2]!);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return err({ reason: `line ${i + 1} of the front matter has ${value.error.slice(0, 80)}`, body });
    }
    data[kv[1]!] = value;
    listKey = value === null ? kv[1]! : null;
  }
  return ok({ data, body, present: true });
}
