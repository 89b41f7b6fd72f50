/**
 * The summary of a results file, as rows both reports share (summaryRows), and as Markdown: what eval
 * prints at the end, and what `--markdown` writes for a README or a CI job summary. Every figure comes
 * from totals.ts; nothing here computes a verdict.
 */
import type { EvalConfig, EvalFile, Mode, RunResult } from './results';
import { configTotals, taskScore, type ModeTotals, type Spread } from './totals';

const pct = (x: number): string => `${Math.round(x * 100)}%`;
const usd = (x: number): string => (x >= 100 ? `$${x.toFixed(0)}` : x >= 1 ? `$${x.toFixed(2)}` : `$${x.toFixed(4)}`);
/** Free text (meta.json) inside a Markdown table cell. */
const md = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const count = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${Math.round(n / 1e3)}k` : String(n));

export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

const spreadText = (s: Spread, format: (x: number) => string): string => `${format(s.min)}–${format(s.max)} (sd ${format(s.sd)})`;

/** One label and one cell per mode, in the config's mode order. */
export function summaryRows(config: EvalConfig, totals: readonly ModeTotals[] = configTotals(config)): { label: string; cells: string[] }[] {
  const row = (label: string, cell: (t: ModeTotals) => string): { label: string; cells: string[] } => ({ label, cells: totals.map(cell) });
  const repeats = config.repeat > 1;
  return [
    row('resolved', (t) => `${t.resolved}/${t.ran} (${pct(t.resolveRate)})`),
    ...(repeats ? [row(`spread over ${config.repeat} repeats`, (t) => spreadText(t.spread, pct))] : []),
    row('mission said done, check said no', (t) => String(t.falseDone)),
    row('mission said failed, check said yes', (t) => String(t.falseFail)),
    row('cost', (t) =>
      t.ran > 0 && t.localRuns === t.ran
        ? 'local — no cost'
        : `${usd(t.costUsd)} (${usd(t.costPerRun.mean)}/run)${t.unpricedRuns ? `, ${t.unpricedRuns} run(s) at unknown price` : ''}`,
    ),
    ...(repeats ? [row('cost per run over repeats', (t) => spreadText(t.costPerRun, usd))] : []),
    row(
      'tokens in / out (cached share)',
      (t) => `${count(t.tokens.input + t.tokens.cacheRead + t.tokens.cacheWrite)} / ${count(t.tokens.output)} (${pct(t.tokens.cachedShare)})`,
    ),
    row('wall time', (t) => `${duration(t.wallMs)} (${duration(t.wallPerRun.mean)}/run)`),
    row('actual ÷ estimate (executors and verifiers)', (t) =>
      t.estimate.tokensRatio === null
        ? '–'
        : `${t.estimate.tokensRatio.toFixed(2)}× tokens${t.estimate.costRatio === null ? '' : `, ${t.estimate.costRatio.toFixed(2)}× money`} (${t.estimate.runs} run(s))`,
    ),
    row('model calls', (t) => `${t.modelCalls} (${t.ran ? (t.modelCalls / t.ran).toFixed(1) : '0'}/run)`),
    row('steps (attempts)', (t) => `${t.steps} (${t.stepAttempts})`),
    row('replans accepted / refused', (t) => `${t.replans.accepted} / ${t.replans.refused}`),
    row('policy refusals / sandbox denials', (t) => `${t.policyDenials} / ${t.sandboxDenials}`),
    row('runs that could not run', (t) => String(t.errors)),
  ];
}

/** A task's cell for one mode: ✓/✗ with one run, k/n with repeats, and the false "done" count. */
export function taskCell(results: readonly RunResult[], task: string, mode: Mode, repeats: number): string {
  const s = taskScore(results, task, mode);
  if (s.ran === 0) return s.errors ? 'error' : '–';
  const falseDone = results.filter((r) => r.task === task && r.mode === mode && r.falseDone).length;
  const head = repeats > 1 || s.ran > 1 ? `${s.resolved}/${s.ran}` : s.resolved ? '✓' : '✗';
  return `${head}${falseDone ? ` (said done ${falseDone}×)` : ''}${s.errors ? `, ${s.errors} error(s)` : ''}`;
}

export function configTitle(c: EvalConfig): string {
  const m = c.models;
  const executors = new Set([m.executor.light, m.executor.standard, m.executor.heavy]);
  const exec = executors.size === 1 ? m.executor.standard : `${m.executor.light} / ${m.executor.standard} / ${m.executor.heavy}`;
  return `${c.provider} — planner ${m.planner}, executor ${exec}, verifier ${m.verifier}`;
}

export function configFacts(c: EvalConfig): string {
  const products = [...new Set(c.parts.map((p) => `${p.product.name} ${p.product.version}${p.product.commit ? ` (${p.product.commit.slice(0, 10)})` : ''}`))];
  const dates = c.parts.map((p) => p.startedAt).sort();
  const hosts = [...new Set(c.parts.map((p) => `${p.host.platform}/${p.host.arch}, node ${p.host.node}, sandbox ${p.host.sandbox}`))];
  const shards = c.parts.filter((p) => p.shard).length;
  const interrupted = c.parts.some((p) => p.interrupted);
  const first = dates[0]?.slice(0, 10) ?? '?';
  const last = dates.at(-1)?.slice(0, 10) ?? first;
  const endpoints = [...new Set(c.parts.map((p) => p.endpoint).filter((e): e is string => e !== null))];
  return [
    `${products.join(', ')}; run ${first}${last !== first ? ` to ${last}` : ''}`,
    `suite "${c.suite.name}": ${c.suite.tasks.length} task(s) × ${c.repeat} repeat(s), modes ${c.modes.join(' and ')}, sandbox ${c.sandbox}`,
    `${c.parts.length} part(s)${shards ? ` (${shards} shard(s))` : ''}${interrupted ? ', INTERRUPTED before every run had run' : ''}; ${hosts.join('; ')}`,
    ...(endpoints.length ? [`endpoint ${endpoints.join(', ')}`] : []),
  ].join('\n');
}

export function markdownSummary(file: EvalFile): string {
  const out: string[] = [];
  for (const config of file.configs) {
    const totals = configTotals(config);
    out.push(
      `### ${configTitle(config)}`,
      '',
      ...configFacts(config)
        .split('\n')
        .map((l) => `- ${l}`),
      '',
    );
    out.push(`| | ${config.modes.join(' | ')} |`, `|---|${config.modes.map(() => '---').join('|')}|`);
    for (const r of summaryRows(config, totals)) out.push(`| ${r.label} | ${r.cells.join(' | ')} |`);
    out.push('', `| task | language | kind | ${config.modes.join(' | ')} |`, `|---|---|---|${config.modes.map(() => '---').join('|')}|`);
    for (const t of config.suite.tasks) {
      if (!config.results.some((r) => r.task === t.id)) continue;
      out.push(`| ${t.id} | ${md(t.language)} | ${md(t.kind)} | ${config.modes.map((m) => taskCell(config.results, t.id, m, config.repeat)).join(' | ')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
