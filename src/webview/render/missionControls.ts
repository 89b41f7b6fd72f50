/**
 * The mission's controls, the same on both surfaces: cancel while it runs here; once it stopped, the
 * actions the host offers (Retry, Continue, Resume, Run again after a revert, Set API key, Open settings,
 * Revert mission — ./missionActions.ts) and "New mission"; the plan as a document (open it in an editor,
 * where saving makes the next version, or save it to a file — docs/plans.md); export the trace, and (in the
 * sidebar) open the board.
 */
import { button, focusElement, h } from '../dom';
import type { RenderContext } from '../context';
import type { MissionView } from '../protocol';
import { missionActionButtons } from './missionActions';

export function renderMissionControls(ctx: RenderContext, m: MissionView): HTMLElement {
  const { status } = ctx.state;
  const stopped = !status.active && status.kind !== 'idle';
  return h(
    'div',
    { className: 'row mission-controls', attrs: { role: 'toolbar', 'aria-label': 'Mission controls' } },
    ctx.surface === 'sidebar'
      ? button('Open board', () => ctx.post({ type: 'openBoard' }), { icon: 'layout', testId: 'open-board', title: 'Open the mission board in an editor tab' })
      : null,
    status.active && m.live
      ? button('Cancel mission', () => ctx.post({ type: 'cancelMission' }), { secondary: true, icon: 'stop-circle', testId: 'cancel-mission' })
      : null,
    ...missionActionButtons(ctx, m),
    stopped && !ctx.ui.newMission
      ? button(
          'New mission',
          () => {
            ctx.ui.newMission = true;
            ctx.saveUi();
            ctx.rerender();
            const box = document.querySelector<HTMLElement>('#task-input');
            if (box) focusElement(box);
          },
          { secondary: true, icon: 'add', testId: 'new-mission', title: 'Plan a new task (this mission stays in the store)' },
        )
      : null,
    m.planVersion !== null
      ? button('Plan as document', () => ctx.post({ type: 'openPlanDocument' }), {
          secondary: true,
          icon: 'markdown',
          testId: 'open-plan-document',
          title: 'Open the plan as a Markdown document beside the board: saving an edit makes the next plan version',
        })
      : null,
    m.planVersion !== null
      ? button('Save plan…', () => ctx.post({ type: 'savePlan' }), {
          secondary: true,
          icon: 'save',
          testId: 'save-plan',
          title: 'Write the plan document to a file (in the workspace, to commit it); run it later with "Run Saved Plan…" or the CLI',
        })
      : null,
    button('Export trace', () => ctx.post({ type: 'exportTrace' }), { secondary: true, icon: 'export', testId: 'export-trace' }),
  );
}
