/**
 * The sidebar's short step list: one compact row per step (status, id, the whole title wrapped, what waits),
 * in plan order. A row opens the mission board on that step, where its details, diffs and edits live.
 */
import { h, icon, section } from '../dom';
import type { RenderContext } from '../context';
import type { StepView } from '../protocol';
import { sandboxBadge } from '../render/sandboxBadge';
import { paintStatus } from '../render/statusIcons';
import { mcpBadge } from '../render/setupViews';

function row(ctx: RenderContext, step: StepView, waiting: number): HTMLElement {
  const glyph = h('span', { attrs: { role: 'img' } });
  paintStatus(glyph, step.status);
  return h(
    'li',
    { className: `step-row${step.inPlan ? '' : ' dropped'}`, attrs: { 'data-step-id': step.id, 'data-status': step.status } },
    h(
      'button',
      {
        className: 'step-row-button',
        // The name comes from the content (status glyph, id, title, what waits), as the user sees it.
        attrs: { type: 'button', 'data-testid': `step-${step.id}`, title: `Show step ${step.id} on the mission board` },
        on: { click: () => ctx.selectStep(step.id) },
      },
      glyph,
      h('span', { className: 'step-id' }, step.id),
      ' ',
      h('span', { className: 'step-title' }, step.title),
      // The marks share the grid's last column (more cells would wrap into a new grid row).
      h(
        'span',
        { className: 'step-badges' },
        step.authority.commands.length > 0 && ctx.state.sandbox ? sandboxBadge(ctx.state.sandbox, false) : null,
        mcpBadge(step, false),
        step.authority.network
          ? h(
              'span',
              {
                className: 'badge badge-network',
                attrs: {
                  title: 'its commands may use the network',
                  'aria-label': 'its commands may use the network',
                  role: 'img',
                  'data-testid': 'network-badge',
                },
              },
              icon('globe'),
            )
          : null,
        waiting
          ? h('span', { className: 'badge waiting-badge', attrs: { title: `${waiting} waiting for your approval` } }, icon('bell-dot'), ` ${waiting} waiting`)
          : null,
      ),
    ),
  );
}

/**
 * The list's title counts what it shows: the plan's steps, and the rows of steps no longer in it said as
 * what they are — "Steps (4 in the plan · 1 replaced)" over five rows, never "Steps (4)".
 */
function stepsTitle(steps: readonly StepView[]): string {
  const inPlan = steps.filter((s) => s.inPlan).length;
  const out = steps.filter((s) => !s.inPlan);
  if (out.length === 0) return `Steps (${inPlan})`;
  const replaced = out.filter((s) => s.status === 'replaced').length;
  const parts = [`${inPlan} in the plan`, replaced > 0 ? `${replaced} replaced` : '', out.length > replaced ? `${out.length - replaced} dropped` : ''];
  return `Steps (${parts.filter(Boolean).join(' · ')})`;
}

export function renderStepList(ctx: RenderContext): HTMLElement | null {
  const m = ctx.state.mission;
  if (!m || m.steps.length === 0) return null;
  const waitingBy = new Map<string, number>();
  for (const a of ctx.state.approvals) if (a.stepId) waitingBy.set(a.stepId, (waitingBy.get(a.stepId) ?? 0) + 1);
  return section(
    stepsTitle(m.steps),
    'step-list',
    h('ol', { className: 'step-list', attrs: { 'aria-label': 'Plan steps' } }, ...m.steps.map((s) => row(ctx, s, waitingBy.get(s.id) ?? 0))),
  );
}
