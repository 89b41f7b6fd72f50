/**
 * Where keyboard focus is inside a webview surface, as a screen-reader user would find it: the element
 * `document.activeElement` names in the frame (its test id, and the approval card it belongs to), whether
 * the frame has focus at all, and what the live region said last. Plus a check that text wraps between
 * words, never inside one.
 */
import type { Frame } from 'playwright-core';

export interface FocusSeen {
  /** The frame's document has focus (keys typed now go to it). */
  hasFocus: boolean;
  /** data-testid of the focused element (or its id). */
  testId: string | null;
  /** The approval card the focused element belongs to (its request id). */
  requestId: string | null;
  /** What that card is ("Edit src/tasks.js (+5 −0), step s1"). */
  describe: string | null;
  /** What the live region said last. */
  announced: string;
}

export async function focusIn(frame: Frame): Promise<FocusSeen> {
  return frame.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    const card = a?.closest<HTMLElement>('.card[data-request-id]') ?? null;
    return {
      hasFocus: document.hasFocus(),
      testId: a && a !== document.body ? (a.getAttribute('data-testid') ?? (a.id || a.tagName.toLowerCase())) : null,
      requestId: card?.dataset.requestId ?? null,
      describe: card?.dataset.describe ?? null,
      announced: document.getElementById('announcer')?.textContent ?? '',
    };
  });
}

/** Waits until focus rests on a card's primary action (Approve / Run); returns the card's request id. */
export async function waitFocusOnCard(frame: Frame, timeoutMs = 60_000): Promise<string> {
  const handle = await frame.waitForFunction(
    () => {
      const a = document.activeElement;
      if (a?.getAttribute('data-testid') !== 'approve-action') return null;
      return a.closest('.card')?.getAttribute('data-request-id') ?? null;
    },
    undefined,
    { timeout: timeoutMs },
  );
  return (await handle.jsonValue()) as string;
}

/** Waits until focus rests on the element with this test id. */
export async function waitFocusOn(frame: Frame, testId: string, timeoutMs = 30_000): Promise<void> {
  await frame.waitForFunction((id) => document.activeElement?.getAttribute('data-testid') === id, testId, { timeout: timeoutMs });
}

/**
 * Words split across lines: for every word of visible text (letters only, at most 24 of them, so a path
 * or a hash that must break is not counted), whether its characters sit on more than one line. Returns the
 * words found split, with where they were.
 */
export async function wordsBrokenInside(frame: Frame, scope = '#app'): Promise<string[]> {
  return frame.evaluate((selector) => {
    const out: string[] = [];
    const root = document.querySelector(selector);
    if (!root) return out;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const parent = node.parentElement;
      if (!parent || parent.closest('code, .path, .command-line, .cwd, .codicon, .visually-hidden')) continue;
      for (const match of text.matchAll(/\p{L}{3,24}/gu)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
        if (rects.length === 0) continue;
        const tops = new Set(rects.map((r) => Math.round(r.top)));
        if (tops.size > 1) out.push(`"${match[0]}" in ${parent.className || parent.tagName.toLowerCase()}`);
      }
    }
    return out;
  }, scope);
}
