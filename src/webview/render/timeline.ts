/** The plan-version timeline: every version with its author, its reason and what changed. */
import { h, icon, section } from '../dom';
import type { RenderContext } from '../context';
import type { PlanVersionView, ReplanView } from '../protocol';

export function describeDiff(v: PlanVersionView): string {
  if (!v.diff) return '';
  const parts: string[] = [];
  if (v.diff.removed.length) parts.push(`removed ${v.diff.removed.join(', ')}`);
  if (v.diff.added.length) parts.push(`added ${v.diff.added.join(', ')}`);
  if (v.diff.changed.length) parts.push(`changed ${v.diff.changed.map((c) => `${c.stepId} (${c.fields.join(', ')})`).join(', ')}`);
  return parts.join('; ');
}

/** A replan that produced no version: refused (with the reasons, in words) or the planner failed. */
function unproducedReplan(r: ReplanView): HTMLElement {
  const refused = r.refusedBecause.length > 0;
  return h(
    'li',
    { className: 'replan-refused', attrs: { 'data-testid': 'replan-refused', 'data-from-version': String(r.fromVersion) } },
    h('div', {}, icon(refused ? 'circle-slash' : 'warning'), ' ', h('strong', {}, refused ? 'Replan refused' : 'Replan failed'), ` after ${r.trigger}`),
    refused
      ? h('ul', { className: 'refusal-reasons' }, ...r.refusedBecause.map((reason) => h('li', { attrs: { 'data-testid': 'refusal-reason' } }, reason)))
      : h('div', { className: 'muted' }, 'the planner gave no usable answer'),
  );
}

export function renderTimeline(ctx: RenderContext): HTMLElement | null {
  const mission = ctx.state.mission;
  const versions = mission?.versions ?? [];
  if (versions.length === 0) return null;
  const authorIcon = { planner: 'lightbulb', user: 'person', replanner: 'sync' } as const;
  // Versions and the replans that produced none, newest first (by time; a version precedes its refusals).
  const items: { at: string; el: HTMLElement }[] = [
    ...versions.map((v) => ({
      at: v.at,
      el: h(
        'li',
        { attrs: { 'data-testid': 'plan-version', 'data-version': String(v.version), 'data-author': v.author } },
        h('div', {}, icon(authorIcon[v.author]), h('strong', {}, ` v${v.version}`), ` by ${v.author}: `, h('span', { className: 'reason' }, v.reason)),
        describeDiff(v) ? h('div', { className: 'muted' }, describeDiff(v)) : null,
      ),
    })),
    ...(mission?.replans ?? []).filter((r) => r.toVersion === null).map((r) => ({ at: r.at, el: unproducedReplan(r) })),
  ];
  items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return section('Plan versions', 'timeline', h('ol', { className: 'timeline', attrs: { reversed: true } }, ...items.map((i) => i.el)));
}
