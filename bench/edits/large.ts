/**
 * Very large files: a case of another class placed inside a file of about 50,000 lines of real code (the
 * other corpus files around it), so every tier scans a file of that size. Same expected outcome as the
 * original case, unless the snippet also occurs in the surrounding code (then the case is left out).
 */
import type { BaseEdit } from './corpus';
import type { BenchCase } from './perturb';

const TARGET_LINES = 50_000;
const KINDS = [
  'exact',
  'trailing_ws_leak',
  'indent_dedented',
  'blank_fewer',
  'blank_tabs',
  'old_fewer',
  'old_more',
  'smart_quotes',
  'absent_near_miss',
  'hallucinated',
  'doubled_neighbour',
];

const packageOf = (id: string): string => id.slice(0, id.indexOf('/'));

/** `wanted` cases; the surrounding code is the last package's files (repeated), the cases come from the others. */
export function largeCases(cases: BenchCase[], edits: BaseEdit[], wanted: number): BenchCase[] {
  const last = edits[edits.length - 1];
  if (!last) return [];
  const fillerPackages = new Set([packageOf(last.id)]);
  const files = [...new Set(edits.filter((e) => fillerPackages.has(packageOf(e.id))).map((e) => (e.file.endsWith('\n') ? e.file : `${e.file}\n`)))];
  const filler: string[] = [];
  for (let lines = 0, i = 0; lines < TARGET_LINES; i++) {
    const f = files[i % files.length] as string;
    filler.push(f);
    lines += f.split('\n').length - 1;
  }
  const half = Math.floor(filler.length / 2);
  const pre = filler.slice(0, half).join('');
  const post = `\n${filler.slice(half).join('')}`;
  const out: BenchCase[] = [];
  const byKind = KINDS.map((k) => cases.filter((c) => c.category === k && !c.file.includes('\r') && !fillerPackages.has(packageOf(c.id))));
  for (let i = 0; out.length < wanted && i < wanted * 4; i++) {
    const pool = byKind[i % byKind.length] as BenchCase[];
    const c = pool[(Math.floor(i / byKind.length) * 7) % Math.max(1, pool.length)];
    if (!c || pre.includes(c.oldText) || post.includes(c.oldText)) continue;
    const body = c.file.endsWith('\n') ? c.file : `${c.file}\n`;
    const expected = c.expected === null ? null : pre + (c.file.endsWith('\n') ? c.expected : `${c.expected}\n`) + post;
    out.push({ category: 'large_file', id: `${c.category} ${c.id}`, file: pre + body + post, oldText: c.oldText, newText: c.newText, expected });
  }
  return out;
}
