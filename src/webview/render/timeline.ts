/** The plan-version timeline: every version with its author, its reason and what changed. */
import { h, icon, section } from '../dom';
import type { RenderContext } from '../context';
import type { PlanVersionView } from '../protocol';

export function describeDiff(v: PlanVersionView): string {
  if (!v.diff) return '';
  const parts: string[] = [];
  if (v.diff.removed.length) parts.push(`removed ${v.diff.removed.join(', ')}`);
  if (v.diff.added.length) parts.push(`added ${v.diff.added.join(', ')}`);
  if (v.diff.changed.length) parts.push(`changed ${v.diff.changed.map((c) => `${c.stepId} (${c.fields.join(', ')})`).join(', ')}`);
  return parts.join('; ');
}

export function renderTimeline(ctx: RenderContext): HTMLElement | null {
  const versions = ctx.state.mission?.versions ?? [];
  if (versions.length === 0) return null;
  const authorIcon = { planner: 'lightbulb', user: 'person', replanner: 'sync' } as const;
  return section(
    'Plan versions',
    'timeline',
    h(
      'ol',
      { className: 'timeline', attrs: { reversed: true } },
      ...[...versions].reverse().map((v) =>
        h(
          'li',
          { attrs: { 'data-testid': 'plan-version', 'data-version': String(v.version), 'data-author': v.author } },
          h('div', {}, icon(authorIcon[v.author]), h('strong', {}, ` v${v.version}`), ` by ${v.author}: `, h('span', { className: 'reason' }, v.reason)),
          describeDiff(v) ? h('div', { className: 'muted' }, describeDiff(v)) : null,
        ),
      ),
    ),
  );
}
