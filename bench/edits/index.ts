/**
 * bench/edits — str_replace robustness on real code changes, perturbed the way models err.
 *   npx tsx bench/edits/index.ts [--limit N]
 * For every category: successes (result equals the expected file), WRONG applications (the edit applied
 * but the file differs from the expected one — the worst outcome; target 0) and safe failures (a refusal),
 * for applyEdit and, side by side in the same run, a plain exact-match str_replace.
 * For `ambiguous` and `absent_near_miss` the right outcome is a refusal: any application counts as wrong.
 * Corpus provenance: see corpus.ts (npm packages fetched with `npm pack` into a local cache, not committed).
 */
import { applyEdit } from '../../src/core/edits/applyEdit';
import { buildCorpus, cacheDir, PACKAGES } from './corpus';
import { casesFor, type BenchCase } from './perturb';

type Outcome = 'success' | 'wrong' | 'safe_failure';

function exactReplace(file: string, oldText: string, newText: string): { ok: true; text: string } | { ok: false } {
  const first = file.indexOf(oldText);
  if (oldText.length === 0 || first === -1 || file.indexOf(oldText, first + 1) !== -1) return { ok: false };
  return { ok: true, text: file.slice(0, first) + newText + file.slice(first + oldText.length) };
}

function judge(c: BenchCase, result: { ok: true; text: string } | { ok: false }): Outcome {
  if (!result.ok) return 'safe_failure';
  if (c.expected === null) return 'wrong';
  return result.text === c.expected ? 'success' : 'wrong';
}

function main(): void {
  const limitArg = process.argv.indexOf('--limit');
  const limit = limitArg > 0 ? Number(process.argv[limitArg + 1]) : Infinity;
  const t0 = Date.now();
  const edits = buildCorpus().slice(0, limit);
  const cases = edits.flatMap(casesFor);
  const stats = new Map<string, { n: number; engine: Record<Outcome, number>; plain: Record<Outcome, number> }>();
  const strategies = new Map<string, number>();
  const wrongExamples: string[] = [];
  let engineMs = 0;
  for (const c of cases) {
    const s = stats.get(c.category) ?? { n: 0, engine: { success: 0, wrong: 0, safe_failure: 0 }, plain: { success: 0, wrong: 0, safe_failure: 0 } };
    const t = performance.now();
    const r = applyEdit(c.file, { oldText: c.oldText, newText: c.newText });
    engineMs += performance.now() - t;
    const outcome = judge(c, r.ok ? { ok: true, text: r.text } : { ok: false });
    if (r.ok) strategies.set(r.strategy, (strategies.get(r.strategy) ?? 0) + 1);
    if (outcome === 'wrong' && wrongExamples.length < 5) wrongExamples.push(`${c.category} ${c.id}`);
    s.n++;
    s.engine[outcome]++;
    s.plain[judge(c, exactReplace(c.file, c.oldText, c.newText))]++;
    stats.set(c.category, s);
  }

  const pad = (v: string | number, w: number): string => String(v).padStart(w);
  console.log(`bench/edits — ${edits.length} real edits from ${PACKAGES.map((p) => `${p.name} ${p.from}→${p.to}`).join(', ')}`);
  console.log(`(package cache: ${cacheDir()})\n`);
  console.log(`${'category'.padEnd(18)}${pad('cases', 7)} │ ${'applyEdit: ok'.padStart(14)}${pad('wrong', 7)}${pad('safe-fail', 10)} │ ${'exact-only: ok'.padStart(15)}${pad('wrong', 7)}${pad('safe-fail', 10)}`);
  const total = { n: 0, e: { success: 0, wrong: 0, safe_failure: 0 }, p: { success: 0, wrong: 0, safe_failure: 0 } };
  const order = ['exact', 'crlf_file', 'crlf_edit', 'trailing_ws_edit', 'trailing_ws_file', 'indent_dedented', 'indent_extra', 'tabs_file', 'smart_quotes', 'combined', 'ambiguous', 'absent_near_miss'];
  for (const cat of order) {
    const s = stats.get(cat);
    if (!s) continue;
    total.n += s.n;
    for (const k of ['success', 'wrong', 'safe_failure'] as const) {
      total.e[k] += s.engine[k];
      total.p[k] += s.plain[k];
    }
    const pct = (x: number): string => `${x} (${Math.round((100 * x) / s.n)}%)`;
    console.log(`${cat.padEnd(18)}${pad(s.n, 7)} │ ${pct(s.engine.success).padStart(14)}${pad(s.engine.wrong, 7)}${pad(s.engine.safe_failure, 10)} │ ${pct(s.plain.success).padStart(15)}${pad(s.plain.wrong, 7)}${pad(s.plain.safe_failure, 10)}`);
  }
  console.log(`${'TOTAL'.padEnd(18)}${pad(total.n, 7)} │ ${String(total.e.success).padStart(14)}${pad(total.e.wrong, 7)}${pad(total.e.safe_failure, 10)} │ ${String(total.p.success).padStart(15)}${pad(total.p.wrong, 7)}${pad(total.p.safe_failure, 10)}`);
  const perturbed = order.filter((c) => !['exact', 'ambiguous', 'absent_near_miss'].includes(c)).map((c) => stats.get(c)).filter((s) => s !== undefined);
  const pe = perturbed.reduce((a, s) => a + s.engine.success, 0);
  const pp = perturbed.reduce((a, s) => a + s.plain.success, 0);
  const pn = perturbed.reduce((a, s) => a + s.n, 0);
  console.log(`\nperturbed cases applied correctly: applyEdit ${pe}/${pn} (${((100 * pe) / Math.max(1, pn)).toFixed(1)}%) vs exact-only ${pp}/${pn} (${((100 * pp) / Math.max(1, pn)).toFixed(1)}%)`);
  console.log(`wrong applications: applyEdit ${total.e.wrong}, exact-only ${total.p.wrong}${wrongExamples.length ? ` — e.g. ${wrongExamples.join('; ')}` : ''}`);
  console.log(`applyEdit strategies used: ${[...strategies.entries()].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`applyEdit time: ${engineMs.toFixed(0)} ms for ${cases.length} cases; total run ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

main();
