/**
 * Progress on stderr: on a terminal one line redrawn in place (a bar, counts, what runs now); otherwise —
 * CI logs, pipes — one plain line per finished run, so a log reads top to bottom.
 */
import { terminalSafe } from '../terminalText';
import type { RunResult } from './results';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Progress {
  started(name: string): void;
  finished(name: string, result: RunResult): void;
  /** A line of its own (a warning), printed above the bar. */
  note(line: string): void;
  close(): void;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** One finished run in words: the verdict first, then what the mission said and what it cost. */
export function describeRun(name: string, r: RunResult): string {
  if (r.status === 'error') return `${name}: ERROR — ${r.error ?? 'unknown'}`;
  const verdict = r.resolved ? 'resolved' : 'not resolved';
  const why = r.resolved
    ? ''
    : !r.check?.passed
      ? ` (check ${r.check?.timedOut ? 'timed out' : `exit ${r.check?.exitCode ?? r.check?.signal ?? '?'}`})`
      : ` (untouched changed: ${r.untouchedChanged.join(', ')})`;
  const said = r.falseDone ? ', mission said done' : r.falseFail ? ', mission said failed' : `, mission ${r.mission.outcome ?? 'unknown'}`;
  return `${name}: ${verdict}${why}${said} — ${seconds(r.wallMs)}, $${r.costUsd.toFixed(4)}, ${r.modelCalls} model call(s)`;
}

export function createProgress(out: ProgressStream, total: number): Progress {
  const running = new Set<string>();
  let done = 0;
  let resolved = 0;
  let errors = 0;
  const started = Date.now();
  const tty = out.isTTY === true;
  const draw = (): void => {
    if (!tty) return;
    const width = Math.max(40, out.columns ?? 80);
    const barWidth = 20;
    const filled = total === 0 ? barWidth : Math.round((done / total) * barWidth);
    const bar = `[${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}]`;
    const counts = `${done}/${total}, ${resolved} resolved${errors ? `, ${errors} error(s)` : ''}`;
    const head = `eval ${bar} ${counts}, ${Math.round((Date.now() - started) / 1000)} s`;
    const now = running.size ? ` · ${[...running].join(', ')}` : '';
    out.write(`\r\x1b[K${terminalSafe(`${head}${now}`).slice(0, width - 1)}`);
  };
  const timer = tty ? setInterval(draw, 1000) : undefined;
  timer?.unref();
  return {
    started(name) {
      running.add(name);
      draw();
    },
    finished(name, result) {
      running.delete(name);
      done++;
      if (result.resolved) resolved++;
      if (result.status === 'error') errors++;
      const line = terminalSafe(describeRun(name, result));
      if (tty) out.write(`\r\x1b[K${line}\n`);
      else out.write(`[${done}/${total}] ${line}\n`);
      draw();
    },
    note(line) {
      out.write(`${tty ? '\r\x1b[K' : ''}${terminalSafe(line)}\n`);
      draw();
    },
    close() {
      if (timer) clearInterval(timer);
      if (tty) out.write('\r\x1b[K');
    },
  };
}
