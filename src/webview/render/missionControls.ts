/**
 * The mission's controls, the same on both surfaces: cancel while it runs; once it stopped, the actions the
 * host offers (Retry, Continue, Resume, Set API key, Open settings, Revert mission — ./missionActions.ts);
 * export the trace, and (in the sidebar) open the board.
 */
import { button, h } from '../dom';
import type { RenderContext } from '../context';
import type { MissionView } from '../protocol';
import { missionIsActive } from './missionHeader';
import { missionActionButtons } from './missionActions';

export function renderMissionControls(ctx: RenderContext, m: MissionView): HTMLElement {
  return h(
    'div',
    { className: 'row mission-controls', attrs: { role: 'toolbar', 'aria-label': 'Mission controls' } },
    ctx.surface === 'sidebar' ? button('Open board', () => ctx.post({ type: 'openBoard' }), { icon: 'layout', testId: 'open-board', title: 'Open the mission board in an editor tab' }) : null,
    missionIsActive(m) ? button('Cancel mission', () => ctx.post({ type: 'cancelMission' }), { secondary: true, icon: 'stop-circle', testId: 'cancel-mission' }) : null,
    ...missionActionButtons(ctx, m),
    button('Export trace', () => ctx.post({ type: 'exportTrace' }), { secondary: true, icon: 'export', testId: 'export-trace' }),
  );
}
