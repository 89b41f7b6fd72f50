/**
 * The top of the sidebar: the task box (when no mission runs), the busy bar, the mission header with its
 * controls (cancel, export, resume), "now running" chips, and the plan's constraints with Approve.
 */
import { badge, button, h, icon, section } from '../dom';
import { draft, setDraft, type RenderContext } from '../context';
import type { MissionView } from '../protocol';
import { renderMissionActions } from './missionActions';
import { renderModelWaits } from './modelWaits';

const ACTIVE_PHASES = new Set(['planning', 'awaiting_approval', 'running', 'replanning']);

export function missionIsActive(mission: MissionView | null): boolean {
  return mission !== null && mission.live && ACTIVE_PHASES.has(mission.phase);
}

export function renderNotices(ctx: RenderContext): HTMLElement | null {
  const notes: HTMLElement[] = [];
  if (!ctx.state.trusted) {
    notes.push(h('div', { className: 'notice warn', attrs: { role: 'status', 'data-testid': 'untrusted' } }, icon('shield'), ' This workspace is not trusted: you can plan, but execution is disabled.'));
  }
  if (!ctx.state.hasApiKey) {
    notes.push(
      h(
        'div',
        { className: 'notice', attrs: { role: 'status' } },
        icon('key'),
        ' No Anthropic API key set. ',
        button('Set API key', () => ctx.post({ type: 'setApiKey' }), { secondary: true, testId: 'set-api-key' }),
      ),
    );
  }
  return notes.length ? h('div', { className: 'notices' }, ...notes) : null;
}

export function renderTaskForm(ctx: RenderContext): HTMLElement | null {
  if (missionIsActive(ctx.state.mission) || ctx.state.busy) return null;
  const submit = (): void => {
    const task = draft(ctx, 'task').trim();
    if (!task) return;
    setDraft(ctx, 'task', '');
    ctx.post({ type: 'runTask', task });
  };
  return section(
    'New mission',
    'task-form',
    h('vscode-textarea', {
      attrs: { id: 'task-input', rows: '5', resize: 'vertical', placeholder: 'What should be done? (Ctrl+Enter to plan)', 'aria-label': 'Task', 'data-testid': 'task-input' },
      props: { value: draft(ctx, 'task') },
      on: {
        input: (event: Event) => setDraft(ctx, 'task', (event.target as HTMLTextAreaElement).value),
        keydown: (event: Event) => {
          const k = event as KeyboardEvent;
          if (k.key === 'Enter' && (k.ctrlKey || k.metaKey)) submit();
        },
      },
    }),
    h('div', { className: 'row' }, button('Plan & Execute', submit, { icon: 'rocket', testId: 'run-task' })),
  );
}

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

export function renderMissionHeader(ctx: RenderContext): HTMLElement | null {
  const m = ctx.state.mission;
  if (!m) return null;
  const counted = m.steps.filter((s) => s.status !== 'replaced' && s.status !== 'skipped');
  const done = counted.filter((s) => s.status === 'succeeded').length;
  const running = m.steps.filter((s) => s.status === 'running' || s.status === 'verifying');
  const resumable = !m.live && (m.phase === 'interrupted' || m.phase === 'awaiting_approval' || m.phase === 'running');
  return h(
    'div',
    { className: 'mission-header', attrs: { 'data-testid': 'mission-header', 'data-phase': m.phase } },
    h('div', { className: 'goal' }, m.goal || m.task),
    h(
      'div',
      { className: 'row badges' },
      badge(m.phase.replace('_', ' '), 'mission phase', `badge phase phase-${m.phase}`),
      badge(`${done}/${counted.length} steps`),
      badge(`$${m.costUsd.toFixed(4)}`, 'cost so far'),
      m.planVersion !== null ? badge(`plan v${m.planVersion}`) : null,
    ),
    m.summary ? h('div', { className: 'summary', attrs: { 'data-testid': 'mission-summary' } }, m.summary) : null,
    running.length > 1
      ? h('div', { className: 'running-strip', attrs: { 'aria-label': 'Steps running in parallel' } }, ...running.map((s) => h('span', { className: 'chip' }, icon('loading', undefined, 'codicon-modifier-spin'), ` ${s.id}`)))
      : null,
    resumable ? h('div', { className: 'notice warn', attrs: { role: 'status' } }, icon('debug-pause'), ' This mission was interrupted.') : null,
    renderModelWaits(m.waits),
    renderMissionActions(ctx, m),
    h(
      'div',
      { className: 'row' },
      missionIsActive(m) ? button('Cancel mission', () => ctx.post({ type: 'cancelMission' }), { secondary: true, icon: 'stop-circle', testId: 'cancel-mission' }) : null,
      button('Export trace', () => ctx.post({ type: 'exportTrace' }), { secondary: true, icon: 'export', testId: 'export-trace' }),
    ),
  );
}

export function renderPlanActions(ctx: RenderContext): HTMLElement | null {
  const m = ctx.state.mission;
  if (!m || m.planVersion === null) return null;
  const awaiting = m.phase === 'awaiting_approval' && m.live;
  const constraints = h('ul', { className: 'constraints' }, ...m.constraints.map((c) => h('li', { attrs: { 'data-testid': 'constraint' } }, c)));
  if (!awaiting) return m.constraints.length ? section('Constraints', 'constraints', constraints) : null;
  return section(
    'Constraints',
    'constraints',
    constraints,
    h(
      'div',
      { className: 'row' },
      h('vscode-textfield', {
        attrs: { placeholder: 'e.g. never touch package.json', 'aria-label': 'New constraint', 'data-testid': 'constraint-input' },
        props: { value: draft(ctx, 'constraint') },
        on: { input: (event: Event) => setDraft(ctx, 'constraint', (event.target as HTMLInputElement).value) },
      }),
      button(
        'Add constraint',
        () => {
          const text = draft(ctx, 'constraint').trim();
          if (!text) return;
          setDraft(ctx, 'constraint', '');
          ctx.post({ type: 'addConstraint', text });
        },
        { secondary: true, icon: 'add', testId: 'add-constraint' },
      ),
    ),
    h(
      'div',
      { className: 'row approve-row' },
      button('Approve plan & run', () => ctx.post({ type: 'approvePlan', version: m.planVersion ?? 1 }), {
        icon: 'play',
        testId: 'approve-plan',
        disabled: !ctx.state.trusted || ctx.state.planAwaitingApproval !== m.planVersion,
      }),
      !ctx.state.trusted ? h('span', { className: 'muted' }, 'Trust the workspace to run the plan.') : null,
    ),
  );
}
