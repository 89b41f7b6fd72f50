/**
 * The sidebar's short step list: one compact row per step (status, id, the whole title wrapped, what waits),
 * in plan order. A row opens the mission board on that step, where its details, diffs and edits live.
 */
import { h, icon, section } from '../dom';
import type { RenderContext } from '../context';
import type { SandboxStatusView, StepView } from '../protocol';
import { paintStatus } from '../render/statusIcons';

/** For a step that runs commands: whether they run in the OS sandbox here (an icon; the words in its label). */
function sandboxMark(step: StepView, sandbox: SandboxStatusView | undefined): HTMLElement | null {
  if (step.authority.commands.length === 0 || !sandbox) return null;
  const confined = sandbox.state === 'sandboxed';
  const words = confined ? 'its commands run in the OS sandbox' : sandbox.state === 'refused' ? 'its commands will not run: no OS sandbox here' : `its commands run UNSANDBOXED (${sandbox.state === 'off' ? 'the sandbox is off' : 'no OS sandbox here'})`;
  return h('span', { className: confined ? 'badge badge-sandboxed' : 'badge badge-unsandboxed', attrs: { title: words, 'aria-label': words, role: 'img', 'data-testid': 'sandbox-badge' } }, icon(confined ? 'shield' : 'warning'));
}

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
      sandboxMark(step, ctx.state.sandbox),
      step.authority.network ? h('span', { className: 'badge badge-network', attrs: { title: 'its commands may use the network', 'aria-label': 'its commands may use the network', role: 'img', 'data-testid': 'network-badge' } }, icon('globe')) : null,
      waiting ? h('span', { className: 'badge waiting-badge', attrs: { title: `${waiting} waiting for your approval` } }, icon('bell-dot'), ` ${waiting} waiting`) : null,
    ),
  );
}

export function renderStepList(ctx: RenderContext): HTMLElement | null {
  const m = ctx.state.mission;
  if (!m || m.steps.length === 0) return null;
  const waitingBy = new Map<string, number>();
  for (const a of ctx.state.approvals) if (a.stepId) waitingBy.set(a.stepId, (waitingBy.get(a.stepId) ?? 0) + 1);
  return section(`Steps (${m.steps.filter((s) => s.inPlan).length})`, 'step-list', h('ol', { className: 'step-list', attrs: { 'aria-label': 'Plan steps' } }, ...m.steps.map((s) => row(ctx, s, waitingBy.get(s.id) ?? 0))));
}
