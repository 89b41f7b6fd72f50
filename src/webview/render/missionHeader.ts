/**
 * The mission's header on both surfaces: the user's own task (word for word, always visible), the plan's
 * goal, the mission's state in the words every surface uses (SurfaceState.status: the same words as the
 * status bar, so they never disagree), steps done, cost (only when it is a real figure), plan version, the
 * summary once it ended, the steps running now, and one banner when the state needs explaining (what an
 * interruption cut off and what Resume will do, a mission picked up after a reload).
 */
import { badge, button, h, icon } from '../dom';
import type { RenderContext } from '../context';
import type { MissionView } from '../protocol';
import { renderMissionControls } from './missionControls';
import { renderModelWaits } from './modelWaits';

/** "3/4 steps": succeeded of those that count (replaced and skipped steps do not). */
function stepsDone(m: MissionView): string {
  const counted = m.steps.filter((s) => s.status !== 'replaced' && s.status !== 'skipped');
  return `${counted.filter((s) => s.status === 'succeeded').length}/${counted.length} steps`;
}

function banner(ctx: RenderContext): HTMLElement | null {
  const { status } = ctx.state;
  if (!status.detail || (status.kind !== 'interrupted' && status.kind !== 'resuming')) return null;
  return h(
    'div',
    { className: 'notice warn state-banner', attrs: { role: 'status', 'data-testid': 'state-banner', 'data-kind': status.kind } },
    icon(status.kind === 'resuming' ? 'sync' : 'debug-pause'),
    ` ${status.detail}`,
  );
}

export function renderMissionHeader(ctx: RenderContext): HTMLElement | null {
  const m = ctx.state.mission;
  if (!m) return null;
  const { status } = ctx.state;
  const running = m.steps.filter((s) => s.status === 'running' || s.status === 'verifying');
  return h(
    'div',
    { className: 'mission-header', attrs: { 'data-testid': 'mission-header', 'data-phase': m.phase, 'data-state': status.kind } },
    h(
      'div',
      { className: 'task-quote', attrs: { 'data-testid': 'mission-task', title: 'Your task, as you typed it' } },
      icon('comment'),
      h('span', { className: 'task-text' }, m.task || '(no task recorded)'),
    ),
    m.goal && m.goal.trim() !== m.task.trim() ? h('div', { className: 'goal', attrs: { title: "The planner's goal" } }, m.goal) : null,
    h(
      'div',
      { className: 'row badges' },
      h(
        'span',
        { className: `badge phase phase-${m.phase} state-${status.kind}`, attrs: { title: 'mission state', 'data-testid': 'mission-state' } },
        status.label,
      ),
      h('span', { className: 'badge', attrs: { 'data-testid': 'steps-done', title: 'steps done' } }, stepsDone(m)),
      status.costUsd !== null
        ? h('span', { className: 'badge', attrs: { title: 'cost so far', 'data-testid': 'mission-cost' } }, `$${status.costUsd.toFixed(4)}`)
        : null,
      m.planVersion !== null ? badge(`plan v${m.planVersion}`) : null,
    ),
    // Right under the state, before anything long: a short board (a diff open below it) still shows what runs.
    running.length > 1
      ? h(
          'div',
          { className: 'running-strip', attrs: { 'aria-label': 'Steps running in parallel', 'data-testid': 'running-strip' } },
          ...running.map((s) =>
            h('span', { className: 'chip', attrs: { 'data-step-id': s.id, title: s.title } }, icon('loading', undefined, 'codicon-modifier-spin'), ` ${s.id}`),
          ),
        )
      : null,
    m.phaseReason && m.phaseReason !== m.summary && (m.phase === 'replanning' || m.phase === 'failed' || m.phase === 'cancelled')
      ? h('div', { className: 'muted phase-reason' }, m.phaseReason)
      : null,
    m.summary ? h('div', { className: 'summary', attrs: { 'data-testid': 'mission-summary' } }, m.summary) : null,
    m.costReport?.length
      ? h(
          'details',
          { className: 'cost-report', attrs: { 'data-testid': 'cost-report' } },
          h('summary', {}, m.costReport[0]!),
          h('pre', {}, m.costReport.slice(1).join('\n')),
        )
      : null,
    banner(ctx),
    renderModelWaits(m.waits),
    renderMissionControls(ctx, m),
  );
}

/** The busy bar (planning a new mission) with its cancel button. */
export function renderBusy(ctx: RenderContext): HTMLElement | null {
  if (!ctx.state.busy) return null;
  return h(
    'div',
    { className: 'busy', attrs: { role: 'status', 'data-testid': 'busy' } },
    h('vscode-progress-ring', { attrs: { 'aria-label': ctx.state.busy.label } }),
    h('span', {}, ctx.state.busy.label),
    button('Cancel', () => ctx.post({ type: 'cancelMission' }), { secondary: true, icon: 'stop-circle', testId: 'cancel-busy' }),
  );
}
