/**
 * The approval queue (one card per proposed edit or command) and the mission's auto-approve rules.
 *
 * Cards people can trust: oldest first in the order the requests arrived (the host keeps that order); each
 * says which step asks and why the step exists, the size of an edit (+12 −3) or the command with the
 * directory it really runs in, and whether it is the verifier's evidence run. After a decision, keyboard
 * focus moves to the next card. A card that has just moved under the pointer (the one above it was decided)
 * ignores pointer clicks for a moment, so a double click never decides two different requests; a click it
 * ignored is said on the card, never dropped silently.
 * A rejection needs a reason: it goes back as the user's correction.
 */
import { button, h, icon, section } from '../dom';
import { draft, setDraft, type RenderContext } from '../context';
import type { ApprovalView } from '../protocol';
import { mcpCard } from './mcpCard';

/** How long a card that moved ignores pointer clicks (ms). */
const SETTLE_MS = 450;
/** Where each card was at the last render, and until when it ignores clicks. */
const placed = new Map<string, { top: number; settledAt: number }>();

/** How many pointer clicks each card ignored while it settled (shown on the card, so none is lost silently). */
const ignored = new Map<string, number>();

export function settled(requestId: string, event: Event): boolean {
  // Keyboard activation (Enter/Space) has detail 0 and is always deliberate.
  if (event instanceof MouseEvent && event.detail === 0) return true;
  return performance.now() >= (placed.get(requestId)?.settledAt ?? 0);
}

export function ignoredNote(): HTMLElement {
  return h('div', { className: 'muted click-ignored', attrs: { role: 'status', 'data-testid': 'click-ignored' } }, icon('info'), ' Not taken: this card moved just as you clicked. Click again.');
}

/** Says on the card that a click was ignored (now, and in every later render of the card). */
export function noteIgnoredClick(requestId: string, event: Event): void {
  const count = (ignored.get(requestId) ?? 0) + 1;
  ignored.set(requestId, count);
  const card = event.currentTarget instanceof Element ? event.currentTarget.closest<HTMLElement>('.card') : null;
  if (!card) return;
  card.dataset.ignoredClicks = String(count);
  if (!card.querySelector('.click-ignored')) card.append(ignoredNote());
}

/** After a render: notes each card's position; one that moved settles before it takes pointer clicks. */
export function trackCardPositions(root: ParentNode): void {
  const now = performance.now();
  const seen = new Set<string>();
  for (const card of root.querySelectorAll<HTMLElement>('.card[data-request-id]')) {
    const id = card.dataset.requestId ?? '';
    seen.add(id);
    const top = card.getBoundingClientRect().top;
    const before = placed.get(id);
    const moved = before !== undefined && Math.abs(before.top - top) > 2;
    const settledAt = moved ? now + SETTLE_MS : (before?.settledAt ?? 0);
    placed.set(id, { top, settledAt });
    // `settling` marks a card that does not take pointer clicks yet (styled, and visible to tests).
    const wait = settledAt - now;
    card.classList.toggle('settling', wait > 0);
    if (wait > 0) setTimeout(() => card.classList.remove('settling'), wait);
  }
  for (const id of [...placed.keys()]) if (!seen.has(id)) placed.delete(id);
  for (const id of [...ignored.keys()]) if (!seen.has(id)) ignored.delete(id);
}

export function reasonBox(ctx: RenderContext, requestId: string): HTMLElement {
  const key = `reason:${requestId}`;
  return h('vscode-textfield', {
    attrs: { placeholder: 'Reason (sent back as your correction)', 'aria-label': 'Reason for rejecting', 'data-testid': 'reject-reason' },
    props: { label: 'Reason for rejecting', value: draft(ctx, key) },
    on: { input: (event: Event) => setDraft(ctx, key, (event.target as HTMLInputElement).value) },
  });
}

/** Focus goes to the card after `requestId` (or the one before it) once the decision is rendered. */
export function focusNextCard(ctx: RenderContext, requestId: string): void {
  const ids = ctx.state.approvals.map((a) => a.requestId);
  const i = ids.indexOf(requestId);
  const next = ids[i + 1] ?? ids[i - 1];
  ctx.focusAfterRender(next ? `approve:${next}` : null);
}

export function reject(ctx: RenderContext, requestId: string): void {
  const key = `reason:${requestId}`;
  const reason = draft(ctx, key).trim();
  if (!reason) {
    const field = document.querySelector(`[data-request-id="${CSS.escape(requestId)}"] vscode-textfield`);
    field?.setAttribute('invalid', '');
    (field as HTMLElement | null)?.focus();
    return;
  }
  setDraft(ctx, key, '');
  focusNextCard(ctx, requestId);
  ctx.post({ type: 'rejectAction', requestId, reason });
}

function sizeLabel(size: { added: number; removed: number }): HTMLElement {
  return h(
    'span',
    { className: 'change-size', attrs: { 'aria-label': `${size.added} lines added, ${size.removed} removed`, 'data-testid': 'change-size' } },
    h('span', { className: 'added' }, `+${size.added}`),
    ' ',
    h('span', { className: 'removed' }, `−${size.removed}`),
  );
}

function heading(a: ApprovalView): HTMLElement {
  if (a.kind === 'write') {
    const verb = a.change === 'created' ? 'Create' : a.change === 'deleted' ? 'Delete' : 'Edit';
    return h('div', { className: 'card-title' }, icon(a.change === 'deleted' ? 'trash' : 'edit'), ` ${verb} `, h('code', {}, a.path), a.size ? ' ' : null, a.size ? sizeLabel(a.size) : null);
  }
  if (a.kind === 'command') return h('div', { className: 'card-title' }, icon('terminal'), ' ', h('code', {}, a.command));
  return h('div');
}

/** How a command will run — sandboxed, or not and why — and whether it may use the network. */
function confinementRow(a: ApprovalView): HTMLElement | null {
  if (a.kind !== 'command' || !a.confinement) return null;
  const confined = a.confinement === 'sandboxed';
  const title = confined
    ? 'Runs in the OS sandbox, cut to the step\'s authority'
    : a.confinement === 'unsandboxed' ? 'There is no OS sandbox here: this command can do anything you can' : 'The sandbox is off (planExecute.sandbox)';
  return h(
    'div',
    { className: 'row', attrs: { 'data-testid': 'command-confinement' } },
    h('span', { className: confined ? 'badge badge-sandboxed' : 'badge badge-unsandboxed', attrs: { title } }, icon(confined ? 'shield' : 'warning'), confined ? ' sandboxed' : a.confinement === 'unsandboxed' ? ' UNSANDBOXED' : ' sandbox off'),
    networkBadge(a),
  );
}

/** The network grant, and plainly whether it also reaches this machine's own services on loopback. */
function networkBadge(a: ApprovalView & { kind: 'command' }): HTMLElement {
  if (!a.network) return h('span', { className: 'badge', attrs: { title: 'No network beyond loopback inside the sandbox' } }, icon('circle-slash'), ' no network');
  const title = a.hostLoopback
    ? "The step may use the network — the host's own, so also this machine's services on 127.0.0.1 (debugger ports, databases, code-server). Install slirp4netns to keep those closed."
    : "The step may use the network — a network of its own: this machine's loopback services stay closed";
  return h(
    'span',
    { className: 'badge badge-network', attrs: { title, 'data-testid': 'command-network' } },
    icon('globe'),
    a.hostLoopback ? ' network, host loopback included' : ' network',
  );
}

/** Whether a card ignored clicks so far (its later renders say so too). */
export const ignoredClicks = (requestId: string): number | undefined => ignored.get(requestId);

function card(ctx: RenderContext, a: ApprovalView): HTMLElement {
  if (a.kind === 'mcp') return mcpCard(ctx, a);
  const remember = h('vscode-checkbox', {
    attrs: { label: a.kind === 'write' ? 'Always allow edits to this file (this mission)' : 'Always allow this command (this mission)', 'data-testid': 'remember' },
  }) as HTMLElement & { checked?: boolean };
  const guarded = (action: () => void) => (event: Event) => {
    if (!settled(a.requestId, event)) return noteIgnoredClick(a.requestId, event);
    action();
  };
  const approve = (): void => {
    focusNextCard(ctx, a.requestId);
    ctx.post({ type: 'approveAction', requestId: a.requestId, remember: remember.checked === true });
  };
  const primary = a.kind === 'write' ? 'Approve' : 'Run';
  const unsandboxed = a.kind === 'command' && a.confinement === 'unsandboxed';
  const stepLine = a.stepId
    ? h('div', { className: 'card-step' }, icon('list-tree'), ` Step ${a.stepId}`, a.stepTitle ? h('span', {}, ` · ${a.stepTitle}`) : null)
    : null;
  const actions: HTMLElement[] = [
    a.kind === 'write'
      ? button('Review diff', () => ctx.post({ type: 'openDiff', target: { kind: 'approval', requestId: a.requestId }, focus: false }), { secondary: true, icon: 'diff', testId: 'review-diff' })
      : null,
    button(primary, guarded(approve), { icon: a.kind === 'write' ? 'check' : 'play', testId: 'approve-action', focusKey: `approve:${a.requestId}` }),
    button(a.kind === 'write' ? 'Reject' : 'Skip', guarded(() => reject(ctx, a.requestId)), { secondary: true, icon: a.kind === 'write' ? 'close' : 'debug-step-over', testId: 'reject-action' }),
  ].filter((x): x is HTMLElement => x !== null);
  return h(
    'div',
    {
      className: `card card-${a.kind}${a.verification ? ' card-verification' : ''}`,
      attrs: {
        'data-request-id': a.requestId,
        'data-testid': `approval-${a.kind}`,
        'data-ignored-clicks': ignored.has(a.requestId) ? String(ignored.get(a.requestId)) : undefined,
        role: 'group',
        'aria-label': `${a.kind === 'write' ? 'Edit' : 'Command'} waiting for approval${a.stepId ? `, step ${a.stepId}` : ''}${a.verification ? ', verification run' : ''}`,
      },
    },
    a.verification ? h('div', { className: 'card-label', attrs: { 'data-testid': 'verification-label' } }, icon('beaker'), ' Verification run: the evidence check of this step') : null,
    heading(a),
    a.kind === 'command' ? h('div', { className: 'muted cwd', attrs: { 'data-testid': 'command-cwd', title: a.cwd } }, icon('folder'), ` in ${a.cwd}`) : null,
    confinementRow(a),
    stepLine,
    a.stepWhy ? h('div', { className: 'muted step-why', attrs: { 'data-testid': 'step-why' } }, a.stepWhy) : null,
    a.why ? h('div', { className: 'why', attrs: { title: 'In the executor’s words' } }, `“${a.why}”`) : null,
    reasonBox(ctx, a.requestId),
    h('div', { className: 'row' }, ...actions),
    h(
      'div',
      { className: 'row card-footer' },
      // An unsandboxed run is never remembered as a rule: it asks every time.
      unsandboxed ? null : remember,
      a.stepId && !unsandboxed
        ? button('Approve all for this step', guarded(() => ctx.post({ type: 'approveStep', stepId: a.stepId ?? '' })), {
            secondary: true,
            icon: 'check-all',
            testId: 'approve-step',
            title: `Approve what step ${a.stepId} waits for now and what it asks next in this mission (listed, and revocable, under Auto-approve rules)`,
          })
        : null,
    ),
    ignored.has(a.requestId) ? ignoredNote() : null,
  );
}

export function renderApprovals(ctx: RenderContext, options: { stepId?: string; title?: string } = {}): HTMLElement | null {
  const cards = ctx.state.approvals.filter((a) => options.stepId === undefined || a.stepId === options.stepId);
  if (cards.length === 0) return null;
  return section(options.title ?? `Waiting for you (${cards.length})`, options.stepId === undefined ? 'approvals' : 'step-approvals', ...cards.map((a) => card(ctx, a)));
}

function ruleLabel(kind: 'write' | 'command' | 'step' | 'mcp', pattern: string): HTMLElement {
  if (kind === 'step') return h('span', {}, `everything step `, h('code', {}, pattern), ' asks');
  if (kind === 'mcp') return h('span', {}, 'MCP tool ', h('code', {}, pattern));
  return h('code', {}, pattern);
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
          { attrs: { 'data-testid': 'rule', 'data-rule-kind': r.kind } },
          icon(r.kind === 'write' ? 'edit' : r.kind === 'step' ? 'check-all' : r.kind === 'mcp' ? 'plug' : 'terminal'),
          ' ',
          ruleLabel(r.kind, r.pattern),
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
        props: { label: 'Rule pattern', value: draft(ctx, key) },
        on: { input: (event: Event) => setDraft(ctx, key, (event.target as HTMLInputElement).value) },
      }),
      button('Allow edits', () => add('write'), { secondary: true, icon: 'edit', testId: 'add-write-rule', title: 'Auto-approve edits to files matching this glob' }),
      button('Allow command', () => add('command'), { secondary: true, icon: 'terminal', testId: 'add-command-rule', title: 'Auto-approve this command (exact, or a prefix ending in " *")' }),
    ),
  );
}
