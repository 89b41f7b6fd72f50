/**
 * What can be done to one step from its details: revert the files it changed. (The host re-checks every
 * action and warns about later steps that touched the same files.)
 */
import { button, h } from '../dom';
import type { RenderContext } from '../context';
import type { MissionView, StepView } from '../protocol';

export function renderStepActions(ctx: RenderContext, mission: MissionView, step: StepView): HTMLElement | null {
  const running = mission.steps.some((s) => s.status === 'running' || s.status === 'verifying');
  const canRevert = !running && step.files.length > 0 && (step.status === 'succeeded' || step.status === 'failed');
  const actions = [canRevert ? button('Revert step', () => ctx.post({ type: 'revertStep', stepId: step.id }), { secondary: true, icon: 'discard', testId: 'revert-step' }) : null];
  if (actions.every((a) => a === null)) return null;
  return h('div', { className: 'row step-actions' }, ...actions);
}
