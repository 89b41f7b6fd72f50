/**
 * Keyboard approvals by intent: a key press decides at most the card it was aimed at.
 *
 * Focus moves on after every decision (./focus.ts) — screen readers rely on it — so the next card's primary
 * action is under the keyboard at once. Three rules keep a key press meant for the card before from
 * deciding it, checked in this order when a card's button is activated from the keyboard:
 *  1. a repeated key (held down: `KeyboardEvent.repeat`) activates nothing in the queue — holding Enter
 *     decides one card, however long it is held;
 *  2. while a key press is in progress, the activation must come from a press that began on that very
 *     button (a press that began on the card before is not its own); an activation with no key press at all
 *     is a screen reader's (its "activate" sends a click without keys) and is the user's;
 *  3. a card that runs something (a command, an MCP tool call) and got focus from the queue — not from the
 *     user — takes a key press on a button that approves only once focus has rested on it for ARM_MS;
 *     sooner, the press is not taken and the card says so ("press Enter again"), like the pointer guard of a
 *     card that just moved. Review and Reject run nothing and take a key press at once.
 * Why 3 takes a short wait and not a second key: a screen reader announces the card that got focus ("Run,
 * button, Waiting for approval: Run npm test, step s3", and the live region's "Next: …") for a second or
 * more before its user acts, and a sighted user needs as long to see it is a command; a reflexive second
 * Enter comes 100–250 ms after the first. ARM_MS sits between the two: it never delays a user who listened
 * or looked, it costs no extra key per card, and the card says why a press was not taken. Edits keep the
 * quick flow (each can be reviewed as a diff first, and Revert step undoes it).
 */

/** How long a command or MCP card that the queue focused waits before a key press runs it (ms). */
export const ARM_MS = 400;

/** The key press in progress (Enter or Space): where it began. */
let press: { key: string; target: EventTarget | null } | null = null;
/** When each card (by request id) stops ignoring key presses after the queue gave it focus (performance.now()). */
const armedAt = new Map<string, number>();

const ACTIVATING = new Set(['Enter', ' ']);
const inQueue = (target: EventTarget | null): boolean => target instanceof Element && target.closest('.card[data-request-id]') !== null;

/** Installs the key tracking on the document (once, before any button sees a key). */
export function installKeyIntent(doc: Document): void {
  doc.addEventListener(
    'keydown',
    (event) => {
      if (!ACTIVATING.has(event.key)) return;
      if (event.repeat) {
        // Rule 1: a held key decides nothing more in the queue (vscode-button acts on every keydown).
        if (inQueue(event.target)) {
          event.preventDefault();
          event.stopImmediatePropagation();
        }
        return;
      }
      press = { key: event.key, target: event.target };
    },
    true,
  );
  doc.addEventListener('keyup', (event) => (press?.key === event.key ? (press = null) : undefined), true);
  doc.addEventListener('blur', () => (press = null), true);
}

/** The queue moved focus to this card (not the user): rule 3 applies for ARM_MS. Marks it `.arming` meanwhile. */
export function armAfterMove(card: HTMLElement, runsSomething: boolean): void {
  const id = card.dataset.requestId;
  if (!id || !runsSomething) return;
  armedAt.set(id, performance.now() + ARM_MS);
  card.classList.add('arming');
  setTimeout(() => card.classList.remove('arming'), ARM_MS);
}

type KeyVerdict = 'taken' | 'not-aimed' | 'arming';

/** Whether a keyboard activation of `button` on card `requestId` is the user's intent for it (rules 2 and 3). */
export function keyActivation(requestId: string, button: EventTarget | null): KeyVerdict {
  if (press !== null && press.target !== button) return 'not-aimed';
  if (performance.now() < (armedAt.get(requestId) ?? 0)) return 'arming';
  return 'taken';
}

/** Forgets cards no longer shown. */
export function forgetArming(shown: ReadonlySet<string>): void {
  for (const id of [...armedAt.keys()]) if (!shown.has(id)) armedAt.delete(id);
}
