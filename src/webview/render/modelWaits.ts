/**
 * "s2: waiting for the model (rate limited), 8 s" — one line per model call that waits before it tries
 * again, counting down to the retry. The countdown is local (one timer for the page, updating the text of
 * every `[data-until]` element), so a wait costs no host messages.
 */
import { h, icon } from '../dom';
import type { WaitView } from '../protocol';

const REASONS: Record<WaitView['reason'], string> = {
  rate_limited: 'rate limited',
  overloaded: 'overloaded',
  server_error: 'server error',
  connection: 'connection lost',
  stream_cut: 'answer cut off',
};

function who(w: WaitView): string {
  if (w.stepId) return w.role === 'verifier' ? `${w.stepId} (verifier)` : w.stepId;
  return w.role === 'replanner' ? 'the replanner' : 'the planner';
}

function secondsLeft(until: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(until) - now) / 1000));
}

function countdownText(until: string): string {
  const s = secondsLeft(until, Date.now());
  return s > 0 ? `${s} s` : 'retrying now';
}

let timer: ReturnType<typeof setInterval> | undefined;

function tick(): void {
  const els = document.querySelectorAll<HTMLElement>('[data-until]');
  if (els.length === 0 && timer !== undefined) {
    clearInterval(timer);
    timer = undefined;
    return;
  }
  els.forEach((el) => {
    el.textContent = countdownText(el.dataset.until ?? '');
  });
}

export function renderModelWaits(waits: readonly WaitView[]): HTMLElement | null {
  if (waits.length === 0) return null;
  timer ??= setInterval(tick, 1000);
  return h(
    'div',
    { className: 'model-waits' },
    ...waits.map((w) =>
      h(
        'div',
        { className: 'notice', attrs: { role: 'status', 'data-testid': 'model-wait', title: w.message } },
        icon('watch'),
        ` ${who(w)}: waiting for the model (${REASONS[w.reason]}), `,
        h('span', { attrs: { 'data-until': w.until } }, countdownText(w.until)),
      ),
    ),
  );
}
