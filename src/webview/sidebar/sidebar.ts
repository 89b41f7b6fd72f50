/**
 * The sidebar: the compact companion of the mission board. The task (or the user's own task once it runs),
 * the mission's state and controls, the approval queue, a short step list, constraints and rules, the
 * versions in brief — and "Approve plan & run" stuck to the bottom while a plan waits.
 */
import { h } from '../dom';
import type { RenderContext } from '../context';
import { renderApprovals } from '../render/approvals';
import { renderRules } from '../render/rules';
import { renderBusy, renderMissionHeader } from '../render/missionHeader';
import { renderInstructions } from '../render/setupViews';
import { renderHooksCard } from '../render/hooksViews';
import { renderNotices } from '../render/notices';
import { renderApproveBar, renderConstraints } from '../render/planActions';
import { renderTaskForm } from '../render/taskForm';
import { renderTimeline } from '../render/timeline';
import { renderStepList } from './stepList';

export function renderSidebar(ctx: RenderContext): HTMLElement {
  return h(
    'main',
    { className: 'sidebar', attrs: { 'data-rev': String(ctx.state.rev) } },
    renderNotices(ctx),
    renderTaskForm(ctx),
    // Before a mission: the files the next one will read (each with its switch).
    ctx.state.status.active ? null : renderInstructions(ctx, ctx.state.instructions),
    ctx.state.status.active ? null : renderHooksCard(ctx, ctx.state.hooks),
    renderBusy(ctx),
    renderMissionHeader(ctx),
    renderApprovals(ctx),
    renderStepList(ctx),
    renderConstraints(ctx),
    // While a mission runs: the files it read.
    ctx.state.status.active ? renderInstructions(ctx, ctx.state.mission?.instructions) : null,
    renderRules(ctx),
    renderTimeline(ctx, { detailed: false }),
    renderApproveBar(ctx),
  );
}
