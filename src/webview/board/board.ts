/**
 * The mission board (an editor tab): a header with the user's task, the mission's state, its controls and
 * "Approve plan & run"; below it the plan as a graph on the left and, on the right, tabs for the selected
 * step's details, what waits for approval, the plan versions with their field-by-field diffs, and the
 * rules. The two panes scroll on their own, so any step's details show at the top of the right pane
 * without scrolling, and the approve action never leaves the header.
 */
import { renderHooksCard } from '../render/hooksViews';
import { h, icon } from '../dom';
import type { BoardTab, RenderContext } from '../context';
import { renderApprovals } from '../render/approvals';
import { renderRules } from '../render/rules';
import { renderBusy, renderMissionHeader } from '../render/missionHeader';
import { renderNotices } from '../render/notices';
import { renderApproveBar, renderConstraints } from '../render/planActions';
import { renderStepDetails } from '../render/stepDetails';
import { renderTaskForm } from '../render/taskForm';
import { renderTimeline } from '../render/timeline';
import { renderGraph, type GraphView } from './graph';
import { renderInstructions, renderMcpServers } from '../render/setupViews';

export interface BoardView {
  element: HTMLElement;
  /** Shows another step's details and moves the graph's selection, without rebuilding the board. */
  select(stepId: string | null, focus: boolean): void;
  /** Re-renders the right pane (its tab changed, or the selected step's status did). */
  refreshSide(): void;
  /** Called once the board is in the document (draws the dependency curves). */
  mounted(): void;
}

const TABS: { id: BoardTab; label: string; icon: string }[] = [
  { id: 'details', label: 'Step', icon: 'info' },
  { id: 'waiting', label: 'Waiting', icon: 'bell' },
  { id: 'versions', label: 'Versions', icon: 'versions' },
  { id: 'rules', label: 'Rules', icon: 'shield' },
];

function tabCount(ctx: RenderContext, tab: BoardTab): number | null {
  if (tab === 'waiting') return ctx.state.approvals.length;
  if (tab === 'versions') return ctx.state.mission?.versions.length ?? 0;
  if (tab === 'rules') return ctx.state.rules.length;
  return null;
}

function sidePanel(ctx: RenderContext, tab: BoardTab): HTMLElement {
  const mission = ctx.state.mission;
  if (!mission) return h('div');
  switch (tab) {
    case 'details': {
      const step = mission.steps.find((s) => s.id === ctx.ui.selectedStepId);
      return step
        ? renderStepDetails(ctx, mission, step)
        : h('div', { className: 'muted empty', attrs: { 'data-testid': 'no-step-selected' } }, 'Select a step in the graph to see its details.');
    }
    case 'waiting':
      // Focus rests here after the last decision (../focus.ts), so it takes focus.
      const empty = h('div', { className: 'muted empty', attrs: { 'data-testid': 'queue-empty', tabindex: '-1' } }, 'Nothing waits for your approval.');
      return renderApprovals(ctx) ?? empty;
    case 'versions':
      return renderTimeline(ctx, { detailed: true }) ?? h('div', { className: 'muted empty' }, 'No plan yet.');
    case 'rules':
      return h('div', {}, renderConstraints(ctx), renderRules(ctx), renderInstructions(ctx, mission.instructions), renderMcpServers(mission.mcpServers));
  }
}

export function renderBoard(ctx: RenderContext): BoardView {
  const mission = ctx.state.mission;
  const header = h(
    'header',
    { className: 'board-header' },
    renderNotices(ctx),
    renderBusy(ctx),
    mission ? renderMissionHeader(ctx) : null,
    renderApproveBar(ctx),
  );
  if (!mission || mission.steps.length === 0) {
    const element = h(
      'main',
      { className: 'board board-empty', attrs: { 'data-rev': String(ctx.state.rev), 'data-testid': 'board' } },
      header,
      mission ? null : h('div', { className: 'muted empty' }, icon('layout'), ' No mission yet. Describe a task to plan one.'),
      renderTaskForm(ctx),
      renderInstructions(ctx, ctx.state.instructions),
      renderHooksCard(ctx, ctx.state.hooks),
    );
    return { element, select: () => undefined, refreshSide: () => undefined, mounted: () => undefined };
  }

  const graph: GraphView = renderGraph(ctx, mission.steps);
  const tab = (): BoardTab => ctx.ui.boardTab ?? 'details';
  const panel = h('div', { className: 'side-panel', attrs: { role: 'tabpanel', id: 'board-tabpanel', 'data-testid': 'side-panel' } });
  const tabButtons = TABS.map((t) =>
    h(
      'button',
      {
        className: 'tab',
        attrs: { type: 'button', role: 'tab', id: `tab-${t.id}`, 'aria-controls': 'board-tabpanel', 'data-testid': `tab-${t.id}` },
        on: {
          click: () => {
            ctx.ui.boardTab = t.id;
            ctx.saveUi();
            refreshSide();
          },
        },
      },
      icon(t.icon),
      ` ${t.label}`,
      tabCount(ctx, t.id) ? h('span', { className: 'tab-count' }, String(tabCount(ctx, t.id))) : null,
    ),
  );
  const tablist = h('div', { className: 'tabs', attrs: { role: 'tablist', 'aria-label': 'Board panels' } }, ...tabButtons);
  const side = h('aside', { className: 'side-pane', attrs: { 'aria-label': 'Details' } }, tablist, panel);

  function refreshSide(): void {
    const current = tab();
    for (const b of tabButtons) {
      const on = b.id === `tab-${current}`;
      b.setAttribute('aria-selected', on ? 'true' : 'false');
      b.setAttribute('tabindex', on ? '0' : '-1');
    }
    panel.setAttribute('aria-labelledby', `tab-${current}`);
    panel.replaceChildren(sidePanel(ctx, current));
  }
  refreshSide();

  const element = h(
    'main',
    { className: 'board', attrs: { 'data-rev': String(ctx.state.rev), 'data-testid': 'board' } },
    header,
    h('div', { className: 'board-body' }, h('section', { className: 'graph-pane', attrs: { 'aria-label': 'Plan graph' } }, graph.element), side),
  );
  return {
    element,
    select: (stepId, focus) => {
      graph.select(stepId, focus);
      if (tab() !== 'details') ctx.ui.boardTab = 'details';
      refreshSide();
      side.scrollTop = 0;
      panel.scrollTop = 0;
    },
    refreshSide,
    mounted: () => requestAnimationFrame(() => graph.drawEdges()),
  };
}
