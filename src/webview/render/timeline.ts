/**
 * The plan-version timeline, newest first: each version with its author, its reason and what changed
 * (steps added and removed, and each changed field before → after), and the replans that produced no
 * version (refused or failed), in words. The sidebar shows it compact (no field diffs).
 */
import { h, icon, section } from '../dom';
import type { RenderContext } from '../context';
import type { PlanVersionView, ReplanUiView } from '../protocol';

function describeDiff(v: PlanVersionView): string {
  if (!v.diff) return '';
  const parts: string[] = [];
  if (v.diff.removed.length) parts.push(`removed ${v.diff.removed.join(', ')}`);
  if (v.diff.added.length) parts.push(`added ${v.diff.added.join(', ')}`);
  if (v.diff.changed.length) parts.push(`changed ${v.diff.changed.map((c) => `${c.stepId} (${c.fields.join(', ')})`).join(', ')}`);
  if (v.diff.planFields?.length) parts.push(`changed the plan's ${v.diff.planFields.join(', ')}`);
  return parts.join('; ');
}

const AUTHOR_ICON = { planner: 'lightbulb', user: 'person', replanner: 'sync' } as const;
const AUTHOR_WORDS = { planner: 'the planner', user: 'you', replanner: 'the replanner' } as const;

function fieldChanges(v: PlanVersionView): HTMLElement | null {
  if (v.changes.length === 0) return null;
  return h(
    'div',
    { className: 'field-changes' },
    ...v.changes.map((c) =>
      h(
        'div',
        { className: 'field-change', attrs: { 'data-testid': 'field-change' } },
        h('div', { className: 'field-label' }, `${c.stepId} · ${c.field}`),
        h('div', { className: 'diff-before', attrs: { 'aria-label': 'before' } }, c.before || '—'),
        h('div', { className: 'diff-after', attrs: { 'aria-label': 'after' } }, c.after || '—'),
      ),
    ),
  );
}

function versionItem(v: PlanVersionView, detailed: boolean): HTMLElement {
  const diff = describeDiff(v);
  return h(
    'li',
    { attrs: { 'data-testid': 'plan-version', 'data-version': String(v.version), 'data-author': v.author } },
    h(
      'div',
      {},
      icon(AUTHOR_ICON[v.author]),
      h('strong', {}, ` v${v.version}`),
      ` by ${AUTHOR_WORDS[v.author]}: `,
      h('span', { className: 'reason' }, v.reason),
    ),
    diff ? h('div', { className: 'muted' }, diff) : null,
    detailed ? fieldChanges(v) : null,
  );
}

function replanItem(r: ReplanUiView): HTMLElement {
  const refused = r.refusedBecause.length > 0;
  return h(
    'li',
    { className: 'replan-refused', attrs: { 'data-testid': 'replan-refused', 'data-from-version': String(r.fromVersion) } },
    refused
      ? h('div', {}, icon('circle-slash'), h('strong', {}, ' Replan refused: '), `after ${r.trigger}, the new plan was not accepted because`)
      : h('div', {}, icon('circle-slash'), h('strong', {}, ' No new version: '), `replanning after ${r.trigger} did not produce an accepted plan.`),
    refused
      ? h('ul', { className: 'refusal-reasons' }, ...r.refusedBecause.map((reason) => h('li', { attrs: { 'data-testid': 'refusal-reason' } }, reason)))
      : r.detail
        ? h('div', { className: 'muted replan-detail' }, r.detail)
        : null,
  );
}

export function renderTimeline(ctx: RenderContext, options: { detailed: boolean }): HTMLElement | null {
  const m = ctx.state.mission;
  const versions = m?.versions ?? [];
  if (!m || versions.length === 0) return null;
  // Newest first; a refused replan sits right after (above) the version it started from.
  const items: HTMLElement[] = [];
  for (const v of [...versions].reverse()) {
    for (const r of m.replans.filter((x) => x.toVersion === null && x.fromVersion === v.version).reverse()) items.push(replanItem(r));
    items.push(versionItem(v, options.detailed));
  }
  return section('Plan versions', 'timeline', h('ul', { className: 'timeline' }, ...items));
}
