/**
 * Notices at the top of both surfaces: the workspace is not trusted, no API key, a scripted demo model
 * answers, and problems the user can act on (each with its actions: set the key, open settings, retry).
 */
import { button, h, icon, iconButton } from '../dom';
import type { RenderContext } from '../context';
import type { NoticeView } from '../protocol';

const ACTION_LABELS: Record<NoticeView['actions'][number], { label: string; icon: string }> = {
  setApiKey: { label: 'Set API key', icon: 'key' },
  openSettings: { label: 'Open settings', icon: 'settings-gear' },
  retry: { label: 'Retry', icon: 'refresh' },
};

function noticeAction(ctx: RenderContext, action: NoticeView['actions'][number]): HTMLElement {
  const { label, icon: glyph } = ACTION_LABELS[action];
  const run = (): void => {
    if (action === 'setApiKey') ctx.post({ type: 'setApiKey' });
    else if (action === 'openSettings') ctx.post({ type: 'openSettings' });
    else ctx.post({ type: 'retryMission' });
  };
  return button(label, run, { secondary: true, icon: glyph, testId: `notice-${action}` });
}

export function renderNotices(ctx: RenderContext): HTMLElement | null {
  const notes: HTMLElement[] = [];
  if (ctx.state.demo) {
    notes.push(
      h(
        'div',
        { className: 'notice demo', attrs: { role: 'status', 'data-testid': 'demo-banner' } },
        icon('beaker'),
        h('strong', {}, ' Demo: a scripted model on this machine answers.'),
        ' No real model, no API key, no cost: nothing leaves this computer. It follows a fixed script: it plans the suggested task only (any other is refused), and applies none of the project’s instruction files.',
        h(
          'details',
          { className: 'demo-tour' },
          h('summary', {}, 'The tour'),
          'Plan the suggested task. Approve s1’s call of the sample MCP server (it finds the TODO). Reject s1’s first edit with a reason (its debug log breaks AGENTS.md), approve the rest. The tests fail; one replan is refused (see why under Versions) and the next fixes them. Then revert a step on the board. Plan the task again to replay: the demo puts its files back first.',
        ),
      ),
    );
  }
  if (!ctx.state.trusted) {
    notes.push(
      h(
        'div',
        { className: 'notice warn', attrs: { role: 'status', 'data-testid': 'untrusted' } },
        icon('shield'),
        ' This workspace is not trusted: you can plan, but execution is disabled.',
      ),
    );
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
  for (const n of ctx.state.notices) {
    notes.push(
      h(
        'div',
        {
          className: `notice ${n.level === 'error' ? 'error' : n.level === 'warning' ? 'warn' : ''}`,
          attrs: { role: n.level === 'error' ? 'alert' : 'status', 'data-testid': 'notice', 'data-notice-id': n.id },
        },
        h('div', { className: 'notice-text' }, icon(n.level === 'error' ? 'error' : n.level === 'warning' ? 'warning' : 'info'), ` ${n.message}`),
        h(
          'div',
          { className: 'row' },
          ...n.actions.map((a) => noticeAction(ctx, a)),
          iconButton('close', 'Dismiss this notice', () => ctx.post({ type: 'dismissNotice', id: n.id }), 'dismiss-notice'),
        ),
      ),
    );
  }
  return notes.length ? h('div', { className: 'notices' }, ...notes) : null;
}
