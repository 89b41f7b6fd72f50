/**
 * bench/edits — str_replace robustness on real code changes, perturbed the way models err.
 *   npx tsx bench/edits/index.ts [--limit N] [--baseline REF | --no-baseline] [--large N] [--git DIR[,DIR…] [--commits N]]
 *   [--only CLASS_REGEX] [--dump DIR]
 *   (or `npm run bench -- edits`)
 * For every class: successes (the right outcome: the expected file, or a refusal where the class must be
 * refused), WRONG (applied, but the file differs from the expected one — or applied at all where it must
 * be refused; target 0) and safe failures (a refusal where one place was intended).
 * The same cases also run, interleaved in the same process, through the applyEdit of REF (default main),
 * loaded from `git show REF:src/core/edits/...` into a temp directory — outcomes and cases per second
 * side by side, measured in one run. Corpus provenance: see corpus.ts (npm packages fetched with `npm pack`
 * into a local cache, not committed); `--git` takes the edits from local repositories' last commits instead
 * (gitCorpus.ts: Python, Go, Rust… — code the npm corpus lacks).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyEdit } from '../../src/core/edits/applyEdit';
import { buildCorpus, cacheDir, PACKAGES } from './corpus';
import { blankGapCasesFor } from './blankGap';
import { driftCasesFor } from './drift';
import { gitCorpus } from './gitCorpus';
import { largeCases } from './large';
import { oldDriftCasesFor } from './oldDrift';
import { casesFor, type BenchCase } from './perturb';

type Outcome = 'success' | 'wrong' | 'safe_failure';
type Apply = (original: string, edit: { oldText: string; newText: string }) => { ok: true; text: string; strategy: string } | { ok: false };

const ORDER = [
  'exact',
  'crlf_file',
  'crlf_edit',
  'trailing_ws_edit',
  'trailing_ws_file',
  'trailing_ws_leak',
  'indent_dedented',
  'indent_extra',
  'tabs_file',
  'mixed_indent',
  'smart_quotes',
  'combined',
  'blank_fewer',
  'blank_more',
  'blank_several',
  'blank_edge',
  'blank_crlf',
  'blank_tabs',
  'old_fewer',
  'old_fewer_edge',
  'old_fewer_all',
  'old_fewer_removed',
  'old_fewer_beside',
  'gap_change_above',
  'gap_change_below',
  'gap_change_both',
  'gap_insert_above',
  'gap_insert_below',
  'gap_delete_above',
  'gap_delete_below',
  'gap_split_above',
  'gap_remove_blank',
  'gap_add_blank',
  'old_more',
  'old_more_change',
  'old_more_edge',
  'old_mixed',
  'old_blank+indent',
  'old_blank+ws',
  'old_blank+crlf',
  'old_blank+crlf_file',
  'old_blank+tabs',
  'bom',
  'no_final_newline',
  'mid_line',
  'large_file',
  'blank_at_insertion',
  'new_extra',
  'new_none',
  'old_more_change_blank',
  'doubled_neighbour',
  'ambiguous',
  'ambiguous_indent',
  'ambiguous_blank',
  'gap_two_readings',
  'absent_near_miss',
  'hallucinated',
];
/** The classes the first version of this bench had (for a like-for-like speed figure). */
const FIRST_CLASSES = new Set([
  'exact',
  'crlf_file',
  'crlf_edit',
  'trailing_ws_edit',
  'trailing_ws_file',
  'indent_dedented',
  'indent_extra',
  'ambiguous_indent',
  'tabs_file',
  'smart_quotes',
  'combined',
  'ambiguous',
  'absent_near_miss',
]);

function judge(c: BenchCase, result: { ok: true; text: string } | { ok: false }): Outcome {
  if (!result.ok) return c.expected === null ? 'success' : 'safe_failure';
  if (c.expected === null) return 'wrong';
  return result.text === c.expected ? 'success' : 'wrong';
}

/** `--dump DIR`: every wrong case as one JSON file (texts, expected and actual), to read by hand. */
function dumpCase(dir: string, c: BenchCase, actual: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const name = `${c.category}-${c.id.replace(/[^A-Za-z0-9]+/g, '_')}-${Math.random().toString(36).slice(2, 8)}.json`;
  fs.writeFileSync(path.join(dir, name), JSON.stringify({ ...c, actual }, null, 1));
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/**
 * REF's applyEdit, from REF's src/core written to a temp directory with the same layout (the edits import
 * the contracts and primitives beside them).
 */
async function loadBaseline(ref: string): Promise<{ apply: Apply; label: string } | undefined> {
  const root = path.resolve(__dirname, '..', '..');
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' }).trim();
    const dir = path.join(os.tmpdir(), 'pe-bench-edits-baseline', sha);
    const files = execFileSync('git', ['ls-tree', '-r', '--name-only', ref, 'src/core/'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
    for (const f of files) {
      fs.mkdirSync(path.join(dir, path.dirname(f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), execFileSync('git', ['show', `${ref}:${f}`], { cwd: root, encoding: 'utf8' }));
    }
    const mod = (await import(path.join(dir, 'src', 'core', 'edits', 'applyEdit.ts'))) as { applyEdit: Apply };
    return { apply: mod.applyEdit, label: `${ref} (${sha})` };
  } catch (err) {
    console.error(`[bench/edits] no baseline from ${ref}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    return undefined;
  }
}

interface Tally {
  n: number;
  now: Record<Outcome, number>;
  base: Record<Outcome, number>;
  mustRefuse: boolean;
}

async function main(): Promise<void> {
  const limit = Number(arg('--limit') ?? Infinity);
  const baseline = process.argv.includes('--no-baseline') ? undefined : await loadBaseline(arg('--baseline') ?? 'main');
  const t0 = Date.now();
  const gitDirs = arg('--git');
  const dump = arg('--dump');
  const edits = (gitDirs ? gitCorpus(gitDirs.split(','), Number(arg('--commits') ?? 150)) : buildCorpus()).slice(0, limit);
  const only = new RegExp(arg('--only') ?? '');
  const cases = edits.flatMap((e, i) =>
    [...casesFor(e), ...driftCasesFor(e, edits[(i + 97) % edits.length]), ...oldDriftCasesFor(e), ...blankGapCasesFor(e)].filter((c) => only.test(c.category)),
  );
  cases.push(...largeCases(cases, edits, Number(arg('--large') ?? 40)));

  const stats = new Map<string, Tally>();
  const strategies = new Map<string, number>();
  const wrongExamples: string[] = [];
  const ms = { now: 0, base: 0, nowFirst: 0, baseFirst: 0, firstCases: 0 };
  for (const c of cases) {
    const s = stats.get(c.category) ?? {
      n: 0,
      now: { success: 0, wrong: 0, safe_failure: 0 },
      base: { success: 0, wrong: 0, safe_failure: 0 },
      mustRefuse: c.expected === null,
    };
    const edit = { oldText: c.oldText, newText: c.newText };
    const t = performance.now();
    const r = applyEdit(c.file, edit);
    const dt = performance.now() - t;
    ms.now += dt;
    const outcome = judge(c, r.ok ? { ok: true, text: r.text } : { ok: false });
    if (r.ok) strategies.set(r.strategy, (strategies.get(r.strategy) ?? 0) + 1);
    if (outcome === 'wrong' && wrongExamples.length < 8) wrongExamples.push(`${c.category} ${c.id}`);
    if (outcome === 'wrong' && dump) dumpCase(dump, c, r.ok ? r.text : '');
    s.n++;
    s.now[outcome]++;
    if (baseline) {
      const tb = performance.now();
      const b = baseline.apply(c.file, edit);
      const dtb = performance.now() - tb;
      ms.base += dtb;
      s.base[judge(c, b.ok ? { ok: true, text: b.text } : { ok: false })]++;
      if (FIRST_CLASSES.has(c.category)) {
        ms.nowFirst += dt;
        ms.baseFirst += dtb;
        ms.firstCases++;
      }
    }
    stats.set(c.category, s);
  }

  const pad = (v: string | number, w: number): string => String(v).padStart(w);
  console.log(
    `bench/edits — ${edits.length} real edits from ${gitDirs ? `the last commits of ${gitDirs}` : PACKAGES.map((p) => `${p.name} ${p.from}→${p.to}`).join(', ')}`,
  );
  console.log(`(package cache: ${cacheDir()}; ok = the right outcome: the intended file, or a refusal for a 'refuse' class)\n`);
  const head = (label: string): string => `${label.padStart(14)}${pad('WRONG', 7)}${pad('safe-fail', 10)}`;
  console.log(
    `${'class'.padEnd(19)}${'expect'.padEnd(7)}${pad('cases', 6)} │ ${head('now: ok')}${baseline ? ` │ ${head(`${arg('--baseline') ?? 'main'}: ok`)}` : ''}`,
  );
  const total = { n: 0, now: { success: 0, wrong: 0, safe_failure: 0 }, base: { success: 0, wrong: 0, safe_failure: 0 } };
  const cell = (r: Record<Outcome, number>, n: number): string =>
    `${`${r.success} (${Math.floor((1000 * r.success) / n) / 10}%)`.padStart(14)}${pad(r.wrong, 7)}${pad(r.safe_failure, 10)}`;
  const below: string[] = [];
  for (const cat of [...ORDER, ...[...stats.keys()].filter((k) => !ORDER.includes(k))]) {
    const s = stats.get(cat);
    if (!s) continue;
    total.n += s.n;
    for (const k of ['success', 'wrong', 'safe_failure'] as const) {
      total.now[k] += s.now[k];
      total.base[k] += s.base[k];
    }
    if (s.now.wrong > 0 || (!s.mustRefuse && s.now.success < 0.99 * s.n)) below.push(cat);
    console.log(
      `${cat.padEnd(19)}${(s.mustRefuse ? 'refuse' : 'apply').padEnd(7)}${pad(s.n, 6)} │ ${cell(s.now, s.n)}${baseline ? ` │ ${cell(s.base, s.n)}` : ''}`,
    );
  }
  console.log(`${'TOTAL'.padEnd(26)}${pad(total.n, 6)} │ ${cell(total.now, total.n)}${baseline ? ` │ ${cell(total.base, total.n)}` : ''}`);
  console.log(
    `\nwrong applications: now ${total.now.wrong}${baseline ? `, ${baseline.label} ${total.base.wrong}` : ''}${wrongExamples.length ? ` — e.g. ${wrongExamples.join('; ')}` : ''}`,
  );
  console.log(`classes under target (any WRONG, or < 99% ok where one place is intended): ${below.length ? below.join(', ') : 'none'}`);
  console.log(`strategies used now: ${[...strategies.entries()].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  const rate = (n: number, t: number): string => `${Math.round(n / (t / 1000))} cases/s`;
  console.log(
    `speed, all ${cases.length} cases: now ${ms.now.toFixed(0)} ms (${rate(cases.length, ms.now)})${baseline ? `; ${baseline.label} ${ms.base.toFixed(0)} ms (${rate(cases.length, ms.base)})` : ''}`,
  );
  if (baseline)
    console.log(
      `speed, the ${ms.firstCases} cases of the first bench's classes: now ${rate(ms.firstCases, ms.nowFirst)}; ${baseline.label} ${rate(ms.firstCases, ms.baseFirst)}`,
    );
  console.log(`total run ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
