/**
 * The HTML report: one self-contained file (inline CSS and SVG, no script, nothing fetched) that puts the
 * modes side by side for every configuration — a chart of the resolve rate with its spread over repeats
 * and the cost per run, the summary table, the per-task verdicts, and every run with its check's output and
 * its trace. All text from tasks, models and checks is escaped.
 */
import type { EvalConfig, EvalFile, RunResult } from './results';
import { configFacts, configTitle, duration, summaryRows, taskCell } from './summary';
import { configTotals, type ModeTotals } from './totals';

const esc = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type Attrs = Record<string, string | number>;
const attrs = (a: Attrs): string =>
  Object.entries(a)
    .map(([k, v]) => ` ${k}="${esc(String(v))}"`)
    .join('');
/** An element; `inner` is markup (escape text before passing it). */
const el = (name: string, a: Attrs, inner = ''): string => `<${name}${attrs(a)}>${inner}</${name}>`;
const svgLine = (x1: number, y1: number, x2: number, y2: number, extra: Attrs = {}): string => `<line${attrs({ x1, y1, x2, y2, stroke: '#222', ...extra })}/>`;
const row = (cells: string[], cell = 'td'): string => el('tr', {}, cells.map((c) => `<${cell}>${c}</${cell}>`).join(''));

/** A file path as a link, or as text when it could be anything else (a results file may come from anywhere). */
function fileLink(path: string): string {
  const local = !/^[a-z][a-z0-9+.-]*:/i.test(path) || /^[a-z]:[\\/]/i.test(path);
  return local ? el('a', { href: path.split('/').map(encodeURIComponent).join('/') }, esc(path)) : esc(path);
}

const MODE_COLOURS: Record<string, string> = { planned: '#3b6fd6', direct: '#d9822b' };

const CSS = [
  'body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1d2330;background:#fff}',
  'h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2.5rem;border-bottom:1px solid #d5d9e0;padding-bottom:.3rem}',
  'table{border-collapse:collapse;margin:.8rem 0;width:100%}',
  'th,td{border:1px solid #d5d9e0;padding:.3rem .5rem;text-align:left;vertical-align:top}',
  'th{background:#f3f5f8}td.num{text-align:right;font-variant-numeric:tabular-nums}.facts{color:#4a5262;white-space:pre-line}',
  '.ok{color:#17803d;font-weight:600}.no{color:#b3261e;font-weight:600}.err{color:#8a5a00}',
  'pre{white-space:pre-wrap;max-height:16rem;overflow:auto;background:#f6f7f9;padding:.5rem;margin:.3rem 0}',
  '.charts{display:flex;gap:2rem;flex-wrap:wrap}',
  '.legend span{display:inline-block;width:.8rem;height:.8rem;margin:0 .3rem 0 1rem;vertical-align:-1px}',
  '@media (prefers-color-scheme:dark){body{background:#15181e;color:#dde1e8}th{background:#232833}th,td{border-color:#39404d}',
  'pre{background:#1d2129}.facts{color:#a8b0bd}}',
].join('\n');

interface Bar {
  mean: number;
  min: number;
  max: number;
}

/** Vertical bars per mode with a min–max whisker; `format` labels a value. */
function barChart(title: string, totals: readonly ModeTotals[], value: (t: ModeTotals) => Bar, max: number, format: (x: number) => string): string {
  const [w, h, top, bottom] = [380, 240, 50, 30];
  const plot = h - top - bottom;
  const slot = (w - 40) / Math.max(1, totals.length);
  const y = (v: number): number => top + plot - (max === 0 ? 0 : (v / max) * plot);
  const text = (x: number, ty: number, label: string, extra: Attrs = {}): string =>
    el('text', { x, y: ty, 'text-anchor': 'middle', 'font-size': 12, fill: 'currentColor', ...extra }, esc(label));
  const bars = totals.map((t, i) => {
    const v = value(t);
    const x = 40 + i * slot + slot * 0.2;
    const bw = slot * 0.6;
    const mid = x + bw / 2;
    const cap = (at: number): string => svgLine(mid - 6, y(at), mid + 6, y(at));
    const whisker = v.max > v.min ? svgLine(mid, y(v.max), mid, y(v.min), { 'stroke-width': 1.5 }) + cap(v.max) + cap(v.min) : '';
    const tip = el('title', {}, esc(`${t.mode}: ${format(v.mean)} (min ${format(v.min)}, max ${format(v.max)})`));
    const rect = el('rect', { x, y: y(v.mean), width: bw, height: top + plot - y(v.mean), fill: MODE_COLOURS[t.mode] ?? '#777' }, tip);
    return rect + whisker + text(mid, y(v.max) - 6, format(v.mean)) + text(mid, h - 10, t.mode);
  });
  const heading = el('text', { x: 0, y: 16, 'font-size': 13, 'font-weight': 600, fill: 'currentColor' }, esc(title));
  const axis = svgLine(36, top + plot, w, top + plot, { stroke: '#999' });
  return el('figure', {}, el('svg', { role: 'img', 'aria-label': title, width: w, height: h, viewBox: `0 0 ${w} ${h}` }, heading + axis + bars.join('')));
}

function runRow(r: RunResult): string {
  const verdict =
    r.status === 'error'
      ? el('span', { class: 'err' }, 'error')
      : r.resolved
        ? el('span', { class: 'ok' }, 'resolved')
        : el('span', { class: 'no' }, 'not resolved');
  const check = r.check
    ? `${r.check.passed ? 'passed' : r.check.timedOut ? 'timed out' : `exit ${r.check.exitCode ?? r.check.signal ?? '?'}`} (${duration(r.check.durationMs)})`
    : '–';
  const said = r.falseDone ? ` ${el('span', { class: 'no' }, '(said done)')}` : r.falseFail ? ` ${el('span', { class: 'err' }, '(said failed)')}` : '';
  const detail = [
    r.error ? el('p', { class: 'err' }, esc(r.error)) : '',
    r.mission.summary ? el('p', {}, esc(r.mission.summary)) : '',
    r.untouchedChanged.length ? el('p', { class: 'no' }, esc(`untouched files changed: ${r.untouchedChanged.join(', ')}`)) : '',
    r.check?.outputTail ? el('pre', {}, esc(r.check.outputTail)) : '',
    r.trace ? el('p', {}, `trace: ${fileLink(r.trace)}${r.log ? ` · log: ${fileLink(r.log)}` : ''}`) : '',
  ].join('');
  const num = (text: string): string => el('td', { class: 'num' }, esc(text));
  const prompt = r.tokens.input + r.tokens.cacheRead + r.tokens.cacheWrite;
  const tokens = `${prompt} / ${r.tokens.output}${prompt ? ` (${Math.round((100 * r.tokens.cacheRead) / prompt)}% cached)` : ''}`;
  return el(
    'tr',
    {},
    [
      el('td', {}, esc(r.task)),
      el('td', {}, esc(r.mode)),
      num(String(r.repeat)),
      el('td', {}, verdict),
      el('td', {}, esc(check)),
      el('td', {}, esc(r.mission.outcome ?? '–') + said),
      num(`$${r.costUsd.toFixed(4)}`),
      num(tokens),
      num(duration(r.wallMs)),
      num(String(r.modelCalls)),
      num(`${r.steps.planned} (${r.steps.attempts})`),
      num(`${r.replans.accepted}/${r.replans.refused}`),
      num(`${r.policyDenials}/${r.sandboxDenials}`),
      el('td', {}, detail ? el('details', {}, el('summary', {}, 'details') + detail) : ''),
    ].join(''),
  );
}

const RUN_COLUMNS = ['task', 'mode', '#', 'verdict', 'check', 'mission', 'cost', 'tokens in/out', 'wall', 'calls', 'steps (attempts)', 'replans acc/ref'];

function configSection(config: EvalConfig): string {
  const totals = configTotals(config);
  const maxCost = Math.max(0, ...totals.map((t) => t.costPerRun.max));
  const resolved = (t: ModeTotals): Bar => ({ mean: t.resolveRate, min: t.spread.min, max: t.spread.max });
  const charts =
    barChart('resolved, share of runs', totals, resolved, 1, (x) => `${Math.round(x * 100)}%`) +
    barChart(
      'cost per run (USD)',
      totals,
      (t) => t.costPerRun,
      maxCost,
      (x) => `$${x.toFixed(x >= 1 ? 2 : 4)}`,
    );
  const modes = config.modes.map((m) => esc(m));
  const summary = summaryRows(config, totals).map((r) => el('tr', {}, el('th', {}, esc(r.label)) + r.cells.map((c) => el('td', {}, esc(c))).join('')));
  const tasks = config.suite.tasks
    .filter((t) => config.results.some((r) => r.task === t.id))
    .map((t) => row([t.id, t.language, t.kind, t.difficulty, ...config.modes.map((m) => taskCell(config.results, t.id, m, config.repeat))].map(esc)));
  const runs = [...config.results].sort((a, b) => a.task.localeCompare(b.task) || a.mode.localeCompare(b.mode) || a.repeat - b.repeat);
  const swatches = config.modes.map((m) => `${el('span', { style: `background:${MODE_COLOURS[m] ?? '#777'}` })}${esc(m)}`).join('');
  const whiskers = config.repeat > 1 ? ` &nbsp;· whiskers: lowest and highest of the ${config.repeat} repeats` : '';
  const table = (head: string[], body: string[]): string => el('table', {}, el('thead', {}, row(head, 'th')) + el('tbody', {}, body.join('')));
  return [
    el('h2', {}, esc(configTitle(config))),
    el('p', { class: 'facts' }, esc(configFacts(config))),
    el('p', { class: 'legend' }, swatches + whiskers),
    el('div', { class: 'charts' }, charts),
    table(['', ...modes], summary),
    el('h3', {}, 'Tasks'),
    table(['task', 'language', 'kind', 'difficulty', ...modes], tasks),
    el('details', {}, el('summary', {}, `Every run (${config.results.length})`) + table([...RUN_COLUMNS, 'policy/sandbox', ''], runs.map(runRow))),
  ].join('');
}

export function htmlReport(file: EvalFile): string {
  const body = file.configs.length ? file.configs.map(configSection).join('') : el('p', {}, 'No results.');
  const intro =
    "Resolved means the task's hidden check passed and no file its <code>untouched</code> globs name changed — nothing else. " +
    '<b>planned</b>: planner, executors, verifier and replans, as a user runs a mission; <b>direct</b>: the single-loop baseline — ' +
    `one executor with the whole task and the union authority, no planner, no verifier. Generated ${esc(file.createdAt)}.`;
  const head = `<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Plan &amp; Execute — eval report</title>`;
  const page = `<h1>Plan &amp; Execute — eval report</h1><p>${intro}</p>${body}`;
  return `<!doctype html><html lang="en"><head>${head}<style>${CSS}</style></head><body>${page}</body></html>\n`;
}
