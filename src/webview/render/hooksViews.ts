/**
 * The user's hooks on the surfaces: before a mission, a card listing the hooks the next one would run —
 * the user's own, and each project file with its commands, waiting for the user's trust (a project's hooks
 * are code from the repository: they run only once trusted, in each step's sandbox) — and, on a step, the
 * hooks that ran for it: which hook, about which tool, what it decided and why.
 */
import { button, h, icon, section } from '../dom';
import type { RenderContext } from '../context';
import type { HookRunView, HooksView, StepView } from '../protocol';

const line = (hook: HooksView['files'][number]['hooks'][number]): string => `${hook.event}${hook.matcher && hook.matcher !== '*' ? ` (${hook.matcher})` : ''}`;

function fileBlock(file: HooksView['files'][number]): HTMLElement {
  const state =
    file.origin === 'user' ? 'yours: runs as configured, unconfined' : file.trusted ? "trusted: runs in each step's sandbox" : 'not trusted: will not run';
  return h(
    'li',
    {
      className: `hook-file ${file.trusted ? 'trusted' : 'untrusted'}`,
      attrs: { 'data-testid': 'hook-file', 'data-source': file.source, 'data-trusted': String(file.trusted) },
    },
    h(
      'div',
      { className: 'hook-file-head' },
      icon(file.origin === 'user' ? 'account' : 'file-code'),
      ' ',
      h('code', {}, file.source),
      h('span', { className: 'muted' }, ` — ${state}`),
    ),
    h(
      'ul',
      { className: 'hook-commands' },
      ...file.hooks.map((hook) =>
        h('li', { attrs: { 'data-testid': 'hook-command' } }, h('span', { className: 'muted' }, `${line(hook)}: `), h('code', {}, hook.command)),
      ),
    ),
    ...file.notes.map((n) => h('div', { className: 'muted hook-note' }, icon('warning'), ` ${n}`)),
  );
}

/** The hooks the next mission would run; null when there are none. */
export function renderHooksCard(ctx: RenderContext, view: HooksView | undefined): HTMLElement | null {
  if (!view) return null;
  const waiting = view.files.filter((f) => f.origin === 'project' && !f.trusted && f.hooks.length > 0);
  const ask =
    waiting.length === 0
      ? null
      : view.canTrust
        ? h(
            'div',
            { className: 'hook-trust', attrs: { 'data-testid': 'hooks-trust-card' } },
            h(
              'div',
              {},
              icon('shield'),
              " This repository has hooks: commands that would run on your machine whenever a mission starts, uses a tool or finishes a step. They run only if you trust exactly these commands — inside each step's sandbox, their writes judged like the step's own. A changed file asks again.",
            ),
            button('Trust these hooks', () => ctx.post({ type: 'trustHooks', fingerprint: view.fingerprint }), { icon: 'check', testId: 'hooks-trust' }),
          )
        : h(
            'div',
            { className: 'muted', attrs: { 'data-testid': 'hooks-restricted' } },
            icon('lock'),
            ' This workspace is not trusted: its hooks never run here.',
          );
  return section(
    waiting.length > 0 ? 'Hooks waiting for your trust' : 'Hooks (next mission)',
    'hooks-card',
    ask,
    h('ul', { className: 'hook-list' }, ...view.files.map(fileBlock)),
  );
}

const DECISION_WORDS: Record<HookRunView['decision'], string> = { none: 'ok', allow: 'allowed', ask: 'asked you', deny: 'denied', block: 'blocked' };

function runRow(run: HookRunView): HTMLElement {
  const stopped = run.decision === 'deny' || run.decision === 'block';
  const exit = run.timedOut ? 'timed out' : run.exit === null ? 'did not run' : `exit ${run.exit}`;
  return h(
    'li',
    { className: `hook-run decision-${run.decision}`, attrs: { 'data-testid': 'hook-run', 'data-decision': run.decision, 'data-event': run.event } },
    h(
      'div',
      {},
      icon(stopped ? 'circle-slash' : run.warning ? 'warning' : 'check'),
      ` ${run.event}${run.tool ? ` on ${run.tool}` : ''}: `,
      h('strong', {}, DECISION_WORDS[run.decision]),
      h('span', { className: 'muted' }, ` — ${exit}, ${run.durationMs} ms`),
    ),
    h('div', { className: 'muted' }, h('code', {}, run.command), ` (${run.source})`),
    run.reason ? h('div', { className: 'hook-reason', attrs: { 'data-testid': 'hook-reason' } }, run.reason) : null,
    run.warning && run.warning !== run.reason ? h('div', { className: 'muted hook-note' }, icon('warning'), ` ${run.warning}`) : null,
    run.writes.length > 0 ? h('div', { className: 'muted hook-note' }, `its writes refused: ${run.writes.join('; ')}`) : null,
  );
}

/** The hooks that ran for a step, the ones that said no first. */
export function renderHookRuns(step: StepView): HTMLElement | null {
  const runs = step.hooks ?? [];
  if (runs.length === 0) return null;
  const stopped = runs.filter((r) => r.decision === 'deny' || r.decision === 'block');
  const rest = runs.filter((r) => !stopped.includes(r));
  return h(
    'div',
    { className: 'field', attrs: { 'data-testid': 'step-hooks' } },
    h('div', { className: 'field-label' }, stopped.length > 0 ? `Hooks (${stopped.length} said no)` : 'Hooks'),
    h('ul', { className: 'hook-runs' }, ...[...stopped, ...rest].map(runRow)),
  );
}
