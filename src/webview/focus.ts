/**
 * One focus model for the approval queue, so a keyboard user never loses their place. The queue is what
 * waits for the user, oldest first: the cards (proposed edits and commands), then a plan that waits
 * ("Approve plan & run"). Where focus goes:
 *  1. after a decision (Approve, Run, Reject, Skip, Approve all for this step, Approve plan): the item that
 *     came after the decided one, else the oldest item left, else the queue itself (its landmark, "Nothing
 *     waits");
 *  2. when an item arrives (the same step's next edit, a replanned version) while focus rests on the
 *     queue's landmark or on nothing: the oldest item waiting;
 *  3. when the queue is asked for (the status bar's "N waiting", Show Waiting Approvals, a notification's
 *     Show): the oldest item, else the landmark, saying that nothing waits;
 *  4. when the view itself gets focus with nothing focused inside: the oldest item, else Resume, Retry or
 *     Continue, else the task box — so the first Tab never starts on unrelated chrome.
 * Every move that changes what the user is on is announced in a polite live region. Focus is moved only
 * while this view has focus; a move due meanwhile happens when the user comes back (rule 4).
 * "Focus a card" means its primary action (Approve / Run), the one a keyboard user wants next; a card that
 * runs something (a command, an MCP call) focused this way takes a key press only after a moment
 * (./keyIntent.ts), so a press meant for the card before never runs it.
 */

import { focusElement } from './dom';
import { armAfterMove } from './keyIntent';

/** The elements the model works on, found in the rendered surface. */
const CARD = '.card[data-request-id]';
const PLAN = '[data-testid="approve-plan"]:not([disabled])';
const LANDMARKS = ['[data-testid="approvals"]', '[data-testid="step-approvals"]', '[data-testid="queue-empty"]'];
const PRIMARY = '[data-testid="approve-action"]';
/** Cards whose approval runs something: a command, an MCP tool call. */
const RUNS_SOMETHING = '[data-testid="approval-command"], [data-testid="approval-mcp"]';
const ENTRY = ['[data-testid="resume"]', '[data-testid="retry-mission"]', '[data-testid="continue-mission"]', '[data-testid="rerun-mission"]', '#task-input'];

export interface QueueFocus {
  /** A decision is being sent for `requestId` (call before posting): focus moves on once it is rendered. */
  decided(requestId: string): void;
  /** After every render: applies rules 1 and 2 to what changed. */
  afterRender(): void;
  /** Rule 3: the queue was asked for. */
  requested(): void;
  /** Rule 4: this view got focus; nothing inside has it. */
  entered(): void;
}

export function createQueueFocus(root: HTMLElement, announce: (text: string) => void, hasFocus: () => boolean = () => document.hasFocus()): QueueFocus {
  let seen: string[] = [];
  let decision: { id: string; after: string[] } | null = null;
  /** The item the live region last named (its id and words), until another line replaces it. */
  let announced: { id: string; words: string } | null = null;

  /** The queue's items in order: each card (by its request id), then the plan that waits ("plan"). */
  const items = (): { id: string; el: HTMLElement }[] => {
    const out = [...root.querySelectorAll<HTMLElement>(CARD)].map((el) => ({ id: el.dataset.requestId ?? '', el }));
    const plan = root.querySelector<HTMLElement>(PLAN);
    if (plan) out.push({ id: `plan:${plan.textContent ?? ''}`, el: plan });
    return out;
  };
  const cards = (): HTMLElement[] => items().map((i) => i.el);
  const ids = (): string[] => items().map((i) => i.id);
  const cardOf = (id: string): HTMLElement | null => items().find((i) => i.id === id)?.el ?? null;
  const describe = (card: HTMLElement): string => card.dataset.describe ?? card.getAttribute('aria-label') ?? card.textContent?.trim() ?? 'a request';
  const landmark = (): HTMLElement | null => {
    for (const selector of LANDMARKS) {
      const el = root.querySelector<HTMLElement>(selector);
      if (el) return el;
    }
    return null;
  };
  const waitingWords = (n: number): string => (n === 0 ? 'Nothing else waits for your approval.' : `${n} waiting for your approval.`);
  /** Announces `text`; `id`: the item it names (null: none). */
  const say = (id: string | null, text: string): void => {
    const el = id === null ? null : cardOf(id);
    announced = id === null || !el ? null : { id, words: describe(el) };
    announce(text);
  };

  function focusCard(card: HTMLElement): void {
    const primary = card.matches(PLAN) ? card : card.querySelector<HTMLElement>(PRIMARY);
    if (!primary) return;
    primary.scrollIntoView({ block: 'nearest' });
    // Already there (a re-render kept it): nothing moved, so nothing to arm.
    if (primary === document.activeElement) return;
    focusElement(primary);
    if (!card.matches(PLAN)) armAfterMove(card, card.matches(RUNS_SOMETHING));
  }

  function focusLandmark(): void {
    const el = landmark();
    if (!el) return;
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    focusElement(el);
  }

  /** Focus rests on nothing the user chose: the body, the queue's landmark, or an element that is gone. */
  function idle(): boolean {
    const active = document.activeElement;
    if (!active || active === document.body || !root.contains(active)) return true;
    return LANDMARKS.some((s) => active.matches(s));
  }

  function settleDecision(current: string[]): void {
    if (!decision) return;
    const { id, after } = decision;
    const live = current.filter((x) => x !== id);
    const target = after.find((x) => live.includes(x)) ?? live[0];
    if (current.includes(id)) {
      // Not decided on the host yet: move on already, but keep the decision open until its card is gone.
      if (target) focusCard(cardOf(target)!);
      return;
    }
    decision = null;
    if (target) {
      const card = cardOf(target)!;
      focusCard(card);
      say(target, `Next: ${describe(card)}. ${waitingWords(live.length)}`);
    } else {
      focusLandmark();
      say(null, 'Nothing else waits for your approval.');
    }
  }

  return {
    decided(requestId) {
      const current = ids();
      // The plan's button has no request id: it is the item named "plan:…".
      const id = requestId === 'plan' ? (current.find((x) => x.startsWith('plan:')) ?? requestId) : requestId;
      const i = current.indexOf(id);
      decision = { id, after: i >= 0 ? current.slice(i + 1) : [] };
    },
    afterRender() {
      const current = ids();
      const arrived = current.filter((x) => !seen.includes(x));
      const gone = seen.filter((x) => !current.includes(x));
      seen = current;
      // What was last announced went away undecided (a cancel, a mission that ended): the line says so, so a
      // screen reader reading it again never offers "Approve plan v1" over a plan that no longer waits.
      if (!decision && announced !== null && gone.includes(announced.id) && arrived.length === 0) {
        const what = announced.id.startsWith('plan:') ? 'The plan no longer waits for approval.' : `${announced.words}: no longer waiting.`;
        say(null, `${what} ${current.length === 0 ? 'Nothing waits for your approval.' : waitingWords(current.length)}`);
      }
      // Without focus nothing moves now; entered() settles it when the user comes back.
      if (decision) {
        if (hasFocus()) settleDecision(current);
        return;
      }
      if (arrived.length === 0) return;
      const oldest = cardOf(current[0]!)!;
      if (!hasFocus() || !idle()) return;
      focusCard(oldest);
      say(arrived[0]!, `Waiting for your approval: ${describe(cardOf(arrived[0]!)!)}.`);
    },
    requested() {
      decision = null;
      const all = items();
      if (all[0]) {
        focusCard(all[0].el);
        say(all[0].id, `${all.length} waiting for your approval. ${describe(all[0].el)}.`);
      } else {
        focusLandmark();
        say(null, 'Nothing waits for your approval.');
      }
    },
    entered() {
      if (decision) return settleDecision(ids());
      const first = cards()[0];
      if (first) return focusCard(first);
      for (const selector of ENTRY) {
        const el = root.querySelector<HTMLElement>(selector);
        if (el) return focusElement(el);
      }
      focusLandmark();
    },
  };
}

/** The live region moves are announced in (polite: it never interrupts). */
export function createAnnouncer(): (text: string) => void {
  const region = document.createElement('div');
  region.id = 'announcer';
  region.className = 'visually-hidden';
  region.setAttribute('role', 'status');
  region.setAttribute('aria-live', 'polite');
  region.setAttribute('data-testid', 'announcer');
  document.body.append(region);
  return (text) => {
    // A new node each time, so the same words twice are announced twice.
    region.replaceChildren(document.createTextNode(text));
  };
}
