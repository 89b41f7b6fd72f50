/**
 * Pending-approval cards (one per proposed edit or command) and the mission's auto-approve rules.
 * A rejection needs a reason: it goes back to the planner as the user's correction.
 */
import { button, h, icon, section } from '../dom';
import { draft, setDraft, type RenderContext } from '../context';
import type { ApprovalView } from '../protocol';

function reasonBox(ctx: RenderContext, requestId: string): HTMLElement {
  const key = `reason:${requestId}`;
  return h('vscode-textfield', {
    attrs: { placeholder: 'Reason (sent to the planner)', 'aria-label': 'Reason for rejecting', 'data-testid': 'reject-reason' },
    props: { value: draft(ctx, key) },
    on: { input: (event: Event) => setDraft(ctx, key, (event.target as HTMLInputElement).value) },
  });
}

function reject(ctx: RenderContext, requestId: string): void {
  const key = `reason:${requestId}`;
  const reason = draft(ctx, key).trim();
  if (!reason) {
    const card = document.querySelector(`[data-request-id="${CSS.escape(requestId)}"] vscode-textfield`);
    card?.setAttribute('invalid', '');
    (card as HTMLElement | null)?.focus();
    return;
  }
  setDraft(ctx, key, '');
  ctx.post({ type: 'rejectAction', requestId, reason });
}

function card(ctx: RenderContext, a: ApprovalView): HTMLElement {
  const remember = h('vscode-checkbox', {
    attrs: { label: a.kind === 'write' ? 'Always allow edits to this file (this mission)' : 'Always allow this command (this mission)', 'data-testid': 'remember' },
  }) as HTMLElement & { checked?: boolean };
  const approve = (): void => ctx.post({ type: 'approveAction', requestId: a.requestId, remember: remember.checked === true });
  const heading =
    a.kind === 'write'
      ? h('div', { className: 'card-title' }, icon('edit'), ` ${a.change} `, h('code', {}, a.path))
      : h('div', { className: 'card-title' }, icon('terminal'), ' ', h('code', {}, a.command));
  const details =
    a.kind === 'command' ? h('div', { className: 'muted' }, `in ${a.cwd}`) : null;
  const unsandboxed = a.kind === 'command' && a.confinement === 'unsandboxed';
  const confinement =
    a.kind === 'command' && a.confinement
      ? h(
          'div',
          { className: 'row', attrs: { 'data-testid': 'command-confinement' } },
          a.confinement === 'sandboxed'
            ? h('span', { className: 'badge badge-sandboxed', attrs: { title: 'Runs in the OS sandbox, cut to the step\'s authority' } }, icon('shield'), ' sandboxed')
            : h('span', { className: 'badge badge-unsandboxed', attrs: { title: a.confinement === 'unsandboxed' ? 'There is no OS sandbox here: this command can do anything you can' : 'The sandbox is off (planExecute.sandbox)' } }, icon('warning'), a.confinement === 'unsandboxed' ? ' UNSANDBOXED' : ' sandbox off'),
          h('span', { className: a.network ? 'badge badge-network' : 'badge', attrs: { title: a.network ? 'The step may use the network' : 'No network beyond loopback' } }, icon(a.network ? 'globe' : 'circle-slash'), a.network ? ' network' : ' no network'),
        )
      : null;
  const actions =
    a.kind === 'write'
      ? [
          button('Review diff', () => ctx.post({ type: 'openDiff', target: { kind: 'approval', requestId: a.requestId }, focus: false }), { secondary: true, icon: 'diff', testId: 'review-diff' }),
          button('Approve', approve, { icon: 'check', testId: 'approve-action' }),
          button('Reject', () => reject(ctx, a.requestId), { secondary: true, icon: 'close', testId: 'reject-action' }),
        ]
      : [
          button('Run', approve, { icon: 'play', testId: 'approve-action' }),
          button('Skip', () => reject(ctx, a.requestId), { secondary: true, icon: 'debug-step-over', testId: 'reject-action' }),
        ];
  return h(
    'div',
    { className: `card card-${a.kind}`, attrs: { 'data-request-id': a.requestId, 'data-testid': `approval-${a.kind}`, role: 'group', 'aria-label': `Approval needed for step ${a.stepId ?? ''}` } },
    heading,
    details,
    confinement,
    a.stepId ? h('div', { className: 'muted' }, `step ${a.stepId}`) : null,
    a.why ? h('div', { className: 'why' }, a.why) : null,
    reasonBox(ctx, a.requestId),
    h('div', { className: 'row' }, ...actions),
    // An unsandboxed run is never remembered as a rule: it asks every time.
    unsandboxed ? null : remember,
  );
}

export function renderApprovals(ctx: RenderContext): HTMLElement | null {
  if (ctx.state.approvals.length === 0) return null;
  return section('Waiting for you', 'approvals', ...ctx.state.approvals.map((a) => card(ctx, a)));
}

export function renderRules(ctx: RenderContext): HTMLElement | null {
  if (!ctx.state.mission) return null;
  const key = 'rule';
  const add = (kind: 'write' | 'command'): void => {
    const pattern = draft(ctx, key).trim();
    if (!pattern) return;
    setDraft(ctx, key, '');
    ctx.post({ type: 'addRule', kind, pattern });
  };
  return section(
    'Auto-approve rules',
    'rules',
    ctx.state.rules.length === 0 ? h('div', { className: 'muted' }, 'None: every edit and command asks first.') : null,
    h(
      'ul',
      { className: 'rule-list' },
      ...ctx.state.rules.map((r) =>
        h(
          'li',
          { attrs: { 'data-testid': 'rule' } },
          icon(r.kind === 'write' ? 'edit' : 'terminal'),
          ' ',
          h('code', {}, r.pattern),
          ' ',
          h('vscode-toolbar-button', {
            attrs: { icon: 'close', label: `Revoke rule ${r.pattern}`, 'aria-label': `Revoke rule ${r.pattern}`, title: 'Revoke' },
            on: { click: () => ctx.post({ type: 'revokeRule', ruleId: r.id }) },
          }),
        ),
      ),
    ),
    h(
      'div',
      { className: 'row' },
      h('vscode-textfield', {
        attrs: { placeholder: 'src/** or npm test', 'aria-label': 'Rule pattern', 'data-testid': 'rule-pattern' },
        props: { value: draft(ctx, key) },
        on: { input: (event: Event) => setDraft(ctx, key, (event.target as HTMLInputElement).value) },
      }),
      button('Allow edits', () => add('write'), { secondary: true, icon: 'edit', testId: 'add-write-rule', ariaLabel: 'Auto-approve edits to files matching this glob' }),
      button('Allow command', () => add('command'), { secondary: true, icon: 'terminal', testId: 'add-command-rule', ariaLabel: 'Auto-approve this command' }),
    ),
  );
}
