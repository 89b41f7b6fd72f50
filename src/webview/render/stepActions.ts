/**
 * What can be done to one step from its details: revert the files it changed — once the mission has
 * stopped, for any step that changed files and is not reverted already (succeeded, failed, cancelled or
 * interrupted alike). The host re-checks, and names later steps that changed the same files and go too.
 */
import { button, h } from '../dom';
import type { RenderContext } from '../context';
import type { MissionView, StepView } from '../protocol';

const REVERTIBLE = new Set<StepView['status']>(['succeeded', 'failed', 'blocked', 'cancelled', 'interrupted', 'skipped']);

export function renderStepActions(ctx: RenderContext, mission: MissionView, step: StepView): HTMLElement | null {
  const canRevert = !ctx.state.status.active && step.files.length > 0 && REVERTIBLE.has(step.status);
  const actions = [
    canRevert
      ? button('Revert step', () => ctx.post({ type: 'revertStep', stepId: step.id }), { secondary: true, icon: 'discard', testId: 'revert-step' })
      : null,
  ];
  if (actions.every((a) => a === null)) return null;
  return h('div', { className: 'row step-actions' }, ...actions);
}
