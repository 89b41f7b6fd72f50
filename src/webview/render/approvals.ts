/**
 * The approval queue: one card per proposed edit or command, oldest first in the order the requests
 * arrived (the host keeps that order, and cards never reshuffle). Each says which step asks and why the
 * step exists, what is asked (./approvalCards.ts, one entry per kind of request), whether it is the
 * verifier's own evidence run (and, when the user already approved that command for the step, why it asks
 * again), and, for a step's next request after a rejection, that it answers the user's reason.
 * After a decision keyboard focus moves on (../focus.ts). A card that has just moved under the pointer (the
 * one above it was decided) ignores pointer clicks for a moment, so a double click never decides two
 * different requests; a click it ignored is said on the card, never dropped silently. From the keyboard, a
 * key press decides only the card it was aimed at (../keyIntent.ts): a held key never decides the next
 * card, and a command or MCP card the queue just focused says "press Enter again" to a press that came
 * too soon.
 * A rejection needs a reason — it goes back to the step's executor — and an empty one is said in words.
 */
import { button, focusElement, h, icon, section } from '../dom';
import { draft, setDraft, type RenderContext } from '../context';
import type { ApprovalView } from '../protocol';
import { cardKind } from './approvalCards';
import { forgetArming, keyActivation } from '../keyIntent';

/** How long a card that moved ignores pointer clicks (ms). */
const SETTLE_MS = 450;
/** Where each card was at the last render, and until when it ignores clicks. */
const placed = new Map<string, { top: number; settledAt: number }>();

/** How many pointer clicks each card ignored while it settled (shown on the card, so none is lost silently). */
const ignored = new Map<string, number>();

/** A button activated without a pointer: Enter or Space (vscode-button's synthetic click), or a screen reader's activate. */
const fromKeys = (event: Event): boolean => event instanceof MouseEvent && event.detail === 0;

function settled(requestId: string, event: Event): boolean {
  // Keyboard activation is judged by ../keyIntent.ts instead.
  if (fromKeys(event)) return true;
  return performance.now() >= (placed.get(requestId)?.settledAt ?? 0);
}

/** Cards that did not take a key press that came just after the queue focused them (said on the card). */
const tooSoon = new Set<string>();

function tooSoonNote(kind: 'command' | 'mcp'): HTMLElement {
  const what = kind === 'command' ? 'run the command' : 'call the tool';
  return h(
    'div',
    { className: 'muted click-ignored', attrs: { role: 'status', 'data-testid': 'key-too-soon' } },
    icon('info'),
    ` Not taken: this card had only just got focus, and a key press meant for the card before must not ${what}. Press Enter again to ${what}.`,
  );
}

/** Says on the card that a key press came too soon (now, and in every later render of the card). */
function noteTooSoon(a: ApprovalView, event: Event): void {
  if (a.kind !== 'command' && a.kind !== 'mcp') return;
  tooSoon.add(a.requestId);
  const card = event.currentTarget instanceof Element ? event.currentTarget.closest<HTMLElement>('.card') : null;
  if (card && !card.querySelector('[data-testid="key-too-soon"]')) card.append(tooSoonNote(a.kind));
}

function ignoredNote(): HTMLElement {
  return h(
    'div',
    { className: 'muted click-ignored', attrs: { role: 'status', 'data-testid': 'click-ignored' } },
    icon('info'),
    ' Not taken: this card moved just as you clicked. Click again.',
  );
}

/** Says on the card that a click was ignored (now, and in every later render of the card). */
function noteIgnoredClick(requestId: string, event: Event): void {
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
  for (const id of [...needsReason]) if (!seen.has(id)) needsReason.delete(id);
  for (const id of [...tooSoon]) if (!seen.has(id)) tooSoon.delete(id);
  forgetArming(seen);
}

/** Cards whose Reject was pressed with no reason: they say what is needed until a reason is typed. */
const needsReason = new Set<string>();

const REASON_NEEDED = "Say why first: your reason goes back to the step's executor, which tries again your way.";

function reasonBox(ctx: RenderContext, a: ApprovalView): HTMLElement[] {
  const key = `reason:${a.requestId}`;
  const missing = needsReason.has(a.requestId) && !draft(ctx, key).trim();
  const field = h('vscode-textfield', {
    attrs: {
      placeholder: a.kind === 'write' ? 'Why reject? The step reads it' : 'Why skip? The step reads it',
      'aria-label': a.kind === 'write' ? 'Reason for rejecting' : 'Reason for skipping',
      'data-testid': 'reject-reason',
      'data-focus-key': `reason:${a.requestId}`,
      invalid: missing,
      'aria-invalid': missing ? 'true' : undefined,
      'aria-describedby': missing ? `reason-needed-${a.requestId}` : undefined,
    },
    props: { label: 'Reason', value: draft(ctx, key) },
    on: {
      input: (event: Event) => {
        setDraft(ctx, key, (event.target as HTMLInputElement).value);
        if ((event.target as HTMLInputElement).value.trim() && needsReason.delete(a.requestId)) {
          const card = (event.target as HTMLElement).closest('.card');
          card?.querySelector('.reason-needed')?.remove();
          (event.target as HTMLElement).removeAttribute('invalid');
        }
      },
    },
  });
  return [field, missing ? reasonNeeded(a.requestId) : null].filter((x): x is HTMLElement => x !== null);
}

function reasonNeeded(requestId: string): HTMLElement {
  const attrs = { id: `reason-needed-${requestId}`, role: 'alert', 'data-testid': 'reason-needed' };
  return h('div', { className: 'reason-needed', attrs }, icon('error'), ` ${REASON_NEEDED}`);
}

function reject(ctx: RenderContext, requestId: string, event: Event): void {
  const key = `reason:${requestId}`;
  const reason = draft(ctx, key).trim();
  if (!reason) {
    needsReason.add(requestId);
    const card =
      (event.currentTarget instanceof Element ? event.currentTarget.closest('.card') : null) ??
      document.querySelector(`.card[data-request-id="${CSS.escape(requestId)}"]`);
    const field = card?.querySelector<HTMLElement>('vscode-textfield');
    field?.setAttribute('invalid', '');
    field?.setAttribute('aria-invalid', 'true');
    if (card && !card.querySelector('.reason-needed')) field?.after(reasonNeeded(requestId));
    if (field) focusElement(field);
    return;
  }
  needsReason.delete(requestId);
  setDraft(ctx, key, '');
  ctx.decided(requestId);
  ctx.post({ type: 'rejectAction', requestId, reason });
}

/** The label above a verifier's card: what it is, and why it asks for a command the user approved already. */
function verificationLabel(a: ApprovalView): HTMLElement | null {
  if (!a.verification) return null;
  const again = a.kind === 'command' && a.approvedForExecutor === true;
  return h(
    'div',
    { className: 'card-label', attrs: { 'data-testid': 'verification-label' } },
    icon('beaker'),
    ` Verification run: the verifier checks step ${a.stepId ?? ''}'s evidence by running this itself`,
    again
      ? h(
          'div',
          { className: 'card-label-detail', attrs: { 'data-testid': 'asked-again' } },
          "You approved this command for the step's executor; the verifier's run is its own check, so it asks again. " +
            'Tick \u201cAlways allow this command\u201d to approve both from now on.',
        )
      : null,
  );
}

function approvalCard(ctx: RenderContext, a: ApprovalView): HTMLElement {
  const kind = cardKind(a);
  const rememberLabel = kind.remember(a);
  type Checkbox = HTMLElement & { checked?: boolean };
  const remember = rememberLabel ? (h('vscode-checkbox', { attrs: { label: rememberLabel, 'data-testid': 'remember' } }) as Checkbox) : null;
  /**
   * `approves`: the button says yes to the request (Approve / Run / Call, Approve all for this step). Only
   * those wait out rule 3 of ../keyIntent.ts: Review and Reject run nothing, so a quick key press on them is taken.
   */
  const guarded =
    (action: (event: Event) => void, approves = false) =>
    (event: Event) => {
      if (fromKeys(event)) {
        const verdict = keyActivation(a.requestId, event.currentTarget);
        // A press that began on another button (the card before) is not this card's: nothing happens here.
        if (verdict === 'not-aimed') return;
        if (verdict === 'arming' && approves) return noteTooSoon(a, event);
        return action(event);
      }
      if (!settled(a.requestId, event)) return noteIgnoredClick(a.requestId, event);
      action(event);
    };
  const approve = (): void => {
    ctx.decided(a.requestId);
    ctx.post({ type: 'approveAction', requestId: a.requestId, remember: remember?.checked === true });
  };
  const unsandboxed = a.kind === 'command' && a.confinement === 'unsandboxed';
  const stepLine = a.stepId
    ? h('div', { className: 'card-step' }, icon('list-tree'), ` Step ${a.stepId}`, a.stepTitle ? h('span', {}, ` · ${a.stepTitle}`) : null)
    : null;
  const actions = [
    kind.review ? kind.review(ctx, a) : null,
    button(kind.approve.label, guarded(approve, true), { icon: kind.approve.icon, testId: 'approve-action', focusKey: `approve:${a.requestId}` }),
    button(
      kind.reject.label,
      guarded((event) => reject(ctx, a.requestId, event)),
      {
        secondary: true,
        icon: kind.reject.icon,
        testId: 'reject-action',
        focusKey: `reject:${a.requestId}`,
      },
    ),
  ];
  const description = kind.describe(a);
  return h(
    'div',
    {
      className: `card card-${a.kind}${a.verification ? ' card-verification' : ''}`,
      attrs: {
        'data-request-id': a.requestId,
        'data-testid': `approval-${a.kind}`,
        'data-describe': description,
        'data-ignored-clicks': ignored.has(a.requestId) ? String(ignored.get(a.requestId)) : undefined,
        role: 'group',
        'aria-label': `Waiting for approval: ${description}`,
      },
    },
    verificationLabel(a),
    a.answers !== undefined
      ? h('div', { className: 'card-answers', attrs: { 'data-testid': 'answers-reason' } }, icon('reply'), ' In answer to your reason: ', h('q', {}, a.answers))
      : null,
    kind.heading(a),
    ...kind.details(a),
    stepLine,
    a.stepWhy ? h('div', { className: 'muted step-why', attrs: { 'data-testid': 'step-why' } }, a.stepWhy) : null,
    a.why ? h('div', { className: 'why', attrs: { title: 'In the executor’s words' } }, `“${a.why}”`) : null,
    ...reasonBox(ctx, a),
    h('div', { className: 'row' }, ...actions.filter((x): x is HTMLElement => x !== null)),
    h(
      'div',
      { className: 'row card-footer' },
      remember,
      a.stepId && !unsandboxed
        ? button(
            'Approve all for this step',
            guarded(() => {
              ctx.decided(a.requestId);
              ctx.post({ type: 'approveStep', stepId: a.stepId ?? '' });
            }, true),
            {
              secondary: true,
              icon: 'check-all',
              testId: 'approve-step',
              title: `Approve what step ${a.stepId} waits for now and what it asks next in this mission (listed, and revocable, under Auto-approve rules)`,
            },
          )
        : null,
    ),
    ignored.has(a.requestId) ? ignoredNote() : null,
    tooSoon.has(a.requestId) && (a.kind === 'command' || a.kind === 'mcp') ? tooSoonNote(a.kind) : null,
  );
}

/**
 * The queue (or one step's part of it on the board). The whole queue is drawn, empty too, while a mission
 * is active: it is where focus rests after the last decision, and where the next card arrives.
 */
export function renderApprovals(ctx: RenderContext, options: { stepId?: string; title?: string } = {}): HTMLElement | null {
  const cards = ctx.state.approvals.filter((a) => options.stepId === undefined || a.stepId === options.stepId);
  const whole = options.stepId === undefined;
  if (cards.length === 0 && !(whole && ctx.state.status.active && ctx.state.mission)) return null;
  const title = options.title ?? (cards.length ? `Waiting for you (${cards.length})` : 'Waiting for you');
  const queue = section(title, whole ? 'approvals' : 'step-approvals', ...cards.map((a) => approvalCard(ctx, a)));
  queue.setAttribute('tabindex', '-1');
  if (cards.length === 0) {
    // The plan is the one thing that waits then: its Approve button is the queue's item (./planActions.ts).
    const plan = ctx.state.status.kind === 'planWaiting' ? ctx.state.planAwaitingApproval : null;
    const words = plan !== null ? `Plan v${plan} waits for you: review it, then Approve plan & run.` : 'Nothing waits for your approval.';
    queue.append(h('div', { className: 'muted queue-empty' }, words));
  }
  return queue;
}
