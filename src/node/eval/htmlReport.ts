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

/** A file path as a link, or as text when it could be anything else (a results file may come from anywhere). */
function fileLink(path: string): string {
  const local = !/^[a-z][a-z0-9+.-]*:/i.test(path) || /^[a-z]:[\\/]/i.test(path);
  return local ? `<a href="${esc(path.split('/').map(encodeURIComponent).join('/'))}">${esc(path)}</a>` : esc(path);
}

const MODE_COLOURS: Record<string, string> = { planned: '#3b6fd6', direct: '#d9822b' };

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1d2330;background:#fff}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2.5rem;border-bottom:1px solid #d5d9e0;padding-bottom:.3rem}
table{border-collapse:collapse;margin:.8rem 0;width:100%}th,td{border:1px solid #d5d9e0;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f5f8}td.num{text-align:right;font-variant-numeric:tabular-nums}.facts{color:#4a5262;white-space:pre-line}
.ok{color:#17803d;font-weight:600}.no{color:#b3261e;font-weight:600}.err{color:#8a5a00}pre{white-space:pre-wrap;max-height:16rem;overflow:auto;background:#f6f7f9;padding:.5rem;margin:.3rem 0}
.charts{display:flex;gap:2rem;flex-wrap:wrap}.legend span{display:inline-block;width:.8rem;height:.8rem;margin:0 .3rem 0 1rem;vertical-align:-1px}
@media (prefers-color-scheme:dark){body{background:#15181e;color:#dde1e8}th{background:#232833}th,td{border-color:#39404d}pre{background:#1d2129}.facts{color:#a8b0bd}}
`;

/** Vertical bars per mode with a min–max whisker; `format` labels a value. */
function barChart(title: string, totals: readonly ModeTotals[], value: (t: ModeTotals) => { mean: number; min: number; max: number }, max: number, format: (x: number) => string): string {
  const w = 380;
  const h = 240;
  const top = 50;
  const bottom = 30;
  const plot = h - top - bottom;
  const slot = (w - 40) / Math.max(1, totals.length);
  const y = (v: number): number => top + plot - (max === 0 ? 0 : (v / max) * plot);
  const bars = totals.map((t, i) => {
    const v = value(t);
    const x = 40 + i * slot + slot * 0.2;
    const bw = slot * 0.6;
    const colour = MODE_COLOURS[t.mode] ?? '#777';
    const whisker = v.max > v.min
      ? `<line x1="${x + bw / 2}" x2="${x + bw / 2}" y1="${y(v.max)}" y2="${y(v.min)}" stroke="#222" stroke-width="1.5"/><line x1="${x + bw / 2 - 6}" x2="${x + bw / 2 + 6}" y1="${y(v.max)}" y2="${y(v.max)}" stroke="#222"/><line x1="${x + bw / 2 - 6}" x2="${x + bw / 2 + 6}" y1="${y(v.min)}" y2="${y(v.min)}" stroke="#222"/>`
      : '';
    return `<rect x="${x}" y="${y(v.mean)}" width="${bw}" height="${top + plot - y(v.mean)}" fill="${colour}"><title>${esc(`${t.mode}: ${format(v.mean)} (min ${format(v.min)}, max ${format(v.max)})`)}</title></rect>${whisker}`
      + `<text x="${x + bw / 2}" y="${y(v.max) - 6}" text-anchor="middle" font-size="12" fill="currentColor">${esc(format(v.mean))}</text>`
      + `<text x="${x + bw / 2}" y="${h - 10}" text-anchor="middle" font-size="12" fill="currentColor">${esc(t.mode)}</text>`;
  });
  return `<figure><svg role="img" aria-label="${esc(title)}" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><text x="0" y="16" font-size="13" font-weight="600" fill="currentColor">${esc(title)}</text>`
    + `<line x1="36" x2="${w}" y1="${top + plot}" y2="${top + plot}" stroke="#999"/>${bars.join('')}</svg></figure>`;
}

function runRow(r: RunResult): string {
  const verdict = r.status === 'error' ? '<span class="err">error</span>' : r.resolved ? '<span class="ok">resolved</span>' : '<span class="no">not resolved</span>';
  const check = r.check ? `${r.check.passed ? 'passed' : r.check.timedOut ? 'timed out' : `exit ${r.check.exitCode ?? r.check.signal ?? '?'}`} (${duration(r.check.durationMs)})` : '–';
  const said = r.falseDone ? ' <span class="no">(said done)</span>' : r.falseFail ? ' <span class="err">(said failed)</span>' : '';
  const detail = [
    r.error ? `<p class="err">${esc(r.error)}</p>` : '',
    r.mission.summary ? `<p>${esc(r.mission.summary)}</p>` : '',
    r.untouchedChanged.length ? `<p class="no">untouched files changed: ${esc(r.untouchedChanged.join(', '))}</p>` : '',
    r.check?.outputTail ? `<pre>${esc(r.check.outputTail)}</pre>` : '',
    r.trace ? `<p>trace: ${fileLink(r.trace)}${r.log ? ` · log: ${fileLink(r.log)}` : ''}</p>` : '',
  ].join('');
  return `<tr><td>${esc(r.task)}</td><td>${esc(r.mode)}</td><td class="num">${r.repeat}</td><td>${verdict}</td><td>${check}</td><td>${esc(r.mission.outcome ?? '–')}${said}</td>`
    + `<td class="num">$${r.costUsd.toFixed(4)}</td><td class="num">${r.tokens.input + r.tokens.cacheRead + r.tokens.cacheWrite} / ${r.tokens.output}</td><td class="num">${duration(r.wallMs)}</td>`
    + `<td class="num">${r.modelCalls}</td><td class="num">${r.steps.planned} (${r.steps.attempts})</td><td class="num">${r.replans.accepted}/${r.replans.refused}</td><td class="num">${r.policyDenials}/${r.sandboxDenials}</td>`
    + `<td>${detail ? `<details><summary>details</summary>${detail}</details>` : ''}</td></tr>`;
}

function configSection(config: EvalConfig): string {
  const totals = configTotals(config);
  const maxCost = Math.max(0, ...totals.map((t) => t.costPerRun.max));
  const charts = barChart('resolved, share of runs', totals, (t) => ({ mean: t.resolveRate, min: t.spread.min, max: t.spread.max }), 1, (x) => `${Math.round(x * 100)}%`)
    + barChart('cost per run (USD)', totals, (t) => t.costPerRun, maxCost, (x) => `$${x.toFixed(x >= 1 ? 2 : 4)}`);
  const head = config.modes.map((m) => `<th>${esc(m)}</th>`).join('');
  const summary = summaryRows(config, totals).map((r) => `<tr><th>${esc(r.label)}</th>${r.cells.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('');
  const tasks = config.suite.tasks.filter((t) => config.results.some((r) => r.task === t.id))
    .map((t) => `<tr><td>${esc(t.id)}</td><td>${esc(t.language)}</td><td>${esc(t.kind)}</td><td>${esc(t.difficulty)}</td>${config.modes.map((m) => `<td>${esc(taskCell(config.results, t.id, m, config.repeat))}</td>`).join('')}</tr>`).join('');
  const runs = [...config.results].sort((a, b) => a.task.localeCompare(b.task) || a.mode.localeCompare(b.mode) || a.repeat - b.repeat).map(runRow).join('');
  const legend = config.modes.map((m) => `<span style="background:${MODE_COLOURS[m] ?? '#777'}"></span>${esc(m)}`).join('')
    + (config.repeat > 1 ? ` &nbsp;· whiskers: lowest and highest of the ${config.repeat} repeats` : '');
  return `<h2>${esc(configTitle(config))}</h2><p class="facts">${esc(configFacts(config))}</p>`
    + `<p class="legend">${legend}</p><div class="charts">${charts}</div>`
    + `<table><thead><tr><th></th>${head}</tr></thead><tbody>${summary}</tbody></table>`
    + `<h3>Tasks</h3><table><thead><tr><th>task</th><th>language</th><th>kind</th><th>difficulty</th>${head}</tr></thead><tbody>${tasks}</tbody></table>`
    + `<details><summary>Every run (${config.results.length})</summary><table><thead><tr><th>task</th><th>mode</th><th>#</th><th>verdict</th><th>check</th><th>mission</th><th>cost</th>`
    + `<th>tokens in/out</th><th>wall</th><th>calls</th><th>steps (attempts)</th><th>replans acc/ref</th><th>policy/sandbox</th><th></th></tr></thead><tbody>${runs}</tbody></table></details>`;
}

export function htmlReport(file: EvalFile): string {
  const body = file.configs.length ? file.configs.map(configSection).join('') : '<p>No results.</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`
    + `<title>Plan &amp; Execute — eval report</title><style>${CSS}</style></head><body><h1>Plan &amp; Execute — eval report</h1>`
    + `<p>Resolved means the task's hidden check passed and no file its <code>untouched</code> globs name changed — nothing else. `
    + `<b>planned</b>: planner, executors, verifier and replans, as a user runs a mission; <b>direct</b>: the single-loop baseline — one executor with the whole task and the union authority, no planner, no verifier. Generated ${esc(file.createdAt)}.</p>`
    + `${body}</body></html>\n`;
}
