/**
 * The mission's header on both surfaces: the user's own task (word for word, always visible), the plan's
 * goal, phase, steps done, cost and plan version, the summary once it ended, and the steps running now.
 */
import { badge, h, icon } from '../dom';
import type { RenderContext } from '../context';
import type { MissionView } from '../protocol';
import { renderMissionControls } from './missionControls';
import { renderModelWaits } from './modelWaits';

const ACTIVE_PHASES = new Set(['planning', 'awaiting_approval', 'running', 'replanning']);

export function missionIsActive(mission: MissionView | null): boolean {
  return mission !== null && mission.live && ACTIVE_PHASES.has(mission.phase);
}

export function isResumable(m: MissionView): boolean {
  return !m.live && (m.phase === 'interrupted' || m.phase === 'awaiting_approval' || m.phase === 'running');
}

const PHASE_WORDS: Record<MissionView['phase'], string> = {
  planning: 'planning',
  awaiting_approval: 'plan waits for you',
  running: 'running',
  replanning: 'replanning',
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

export function phaseWords(phase: MissionView['phase']): string {
  return PHASE_WORDS[phase];
}

/** "3/4 steps": succeeded of those that count (replaced and skipped steps do not). */
export function stepsDone(m: MissionView): string {
  const counted = m.steps.filter((s) => s.status !== 'replaced' && s.status !== 'skipped');
  return `${counted.filter((s) => s.status === 'succeeded').length}/${counted.length} steps`;
}

export function renderMissionHeader(ctx: RenderContext): HTMLElement | null {
  const m = ctx.state.mission;
  if (!m) return null;
  const running = m.steps.filter((s) => s.status === 'running' || s.status === 'verifying');
  return h(
    'div',
    { className: 'mission-header', attrs: { 'data-testid': 'mission-header', 'data-phase': m.phase } },
    h('div', { className: 'task-quote', attrs: { 'data-testid': 'mission-task', title: 'Your task, as you typed it' } }, icon('comment'), h('span', { className: 'task-text' }, m.task || '(no task recorded)')),
    m.goal && m.goal.trim() !== m.task.trim() ? h('div', { className: 'goal', attrs: { title: "The planner's goal" } }, m.goal) : null,
    h(
      'div',
      { className: 'row badges' },
      badge(m.phaseLabel ?? phaseWords(m.phase), 'mission phase', `badge phase phase-${m.phase}`),
      h('span', { className: 'badge', attrs: { 'data-testid': 'steps-done', title: 'steps done' } }, stepsDone(m)),
      badge(`$${m.costUsd.toFixed(4)}`, 'cost so far'),
      m.planVersion !== null ? badge(`plan v${m.planVersion}`) : null,
    ),
    m.phaseReason && m.phaseReason !== m.summary && (m.phase === 'replanning' || m.phase === 'failed' || m.phase === 'cancelled') ? h('div', { className: 'muted phase-reason' }, m.phaseReason) : null,
    m.summary ? h('div', { className: 'summary', attrs: { 'data-testid': 'mission-summary' } }, m.summary) : null,
    running.length > 1
      ? h('div', { className: 'running-strip', attrs: { 'aria-label': 'Steps running in parallel' } }, ...running.map((s) => h('span', { className: 'chip' }, icon('loading', undefined, 'codicon-modifier-spin'), ` ${s.id}`)))
      : null,
    isResumable(m) ? h('div', { className: 'notice warn', attrs: { role: 'status' } }, icon('debug-pause'), ' This mission was interrupted.') : null,
    renderModelWaits(m.waits),
    renderMissionControls(ctx, m),
  );
}

/** The busy bar (planning, replanning) with its cancel button. */
export function renderBusy(ctx: RenderContext): HTMLElement | null {
  if (!ctx.state.busy) return null;
  return h(
    'div',
    { className: 'busy', attrs: { role: 'status', 'data-testid': 'busy' } },
    h('vscode-progress-ring', { attrs: { 'aria-label': ctx.state.busy.label } }),
    h('span', {}, ctx.state.busy.label),
    h('vscode-button', { attrs: { secondary: true, icon: 'stop-circle', 'data-testid': 'cancel-busy' }, on: { click: () => ctx.post({ type: 'cancelMission' }) } }, 'Cancel'),
  );
}
