/**
 * The mission's actions as buttons (Retry, Continue, Resume, Run again, Set API key, Open settings, Revert mission):
 * the host decides which apply (src/vscode/view/missionActions.ts); this only draws them, in its order.
 */
import { button } from '../dom';
import type { RenderContext } from '../context';
import type { MissionAction, MissionView } from '../protocol';

function actionButton(ctx: RenderContext, m: MissionView, a: MissionAction, primary: boolean): HTMLElement {
  const secondary = !primary;
  switch (a.kind) {
    case 'retry':
      return m.planVersion === null
        ? button('Plan again', () => ctx.post({ type: 'retryMission' }), { icon: 'refresh', secondary, testId: 'retry-mission' })
        : button('Retry', () => ctx.post({ type: 'retryMission' }), {
            icon: 'refresh',
            secondary,
            testId: 'retry-mission',
            ariaLabel: 'Retry from the failing step',
          });
    case 'continue':
      return button('Continue', () => ctx.post({ type: 'continueMission' }), {
        icon: 'debug-continue',
        secondary,
        testId: 'continue-mission',
        ariaLabel: 'Continue the mission, finished work kept',
      });
    case 'resume':
      return button('Resume', () => ctx.post({ type: 'resume' }), {
        icon: 'debug-continue',
        secondary,
        testId: 'resume',
        title: m.phaseReason ?? 'Go on with the mission where it stopped',
      });
    case 'rerun': {
      const list = a.stepIds.join(', ');
      return button(`Run ${list} again`, () => ctx.post({ type: 'continueMission' }), {
        icon: 'debug-continue',
        secondary,
        testId: 'rerun-mission',
        title: `Runs again what the revert undid — ${list} — and keeps every other finished step`,
      });
    }
    case 'setApiKey':
      return button('Set API key', () => ctx.post({ type: 'setApiKey' }), { icon: 'key', secondary, testId: 'action-set-api-key' });
    case 'chooseModel':
      return button('Choose another model', () => ctx.post({ type: 'chooseModel' }), { icon: 'sparkle', secondary, testId: 'choose-model' });
    case 'openSettings':
      return button(a.label, () => ctx.post({ type: 'openSettings', query: a.query }), { icon: 'settings-gear', secondary, testId: 'open-settings' });
    case 'revertMission':
      return button('Revert mission', () => ctx.post({ type: 'revertMission' }), { icon: 'discard', secondary: true, testId: 'revert-mission' });
  }
}

/** One button per action, the first (the way forward) primary. */
export function missionActionButtons(ctx: RenderContext, m: MissionView): HTMLElement[] {
  return m.actions.map((a, i) => actionButton(ctx, m, a, i === 0));
}
