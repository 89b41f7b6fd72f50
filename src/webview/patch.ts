/**
 * Puts freshly rendered sections into a parent while keeping every section whose content did not change:
 * an unchanged section stays the very element on screen, with its focus, its scroll position, its custom
 * elements' state and its icons, and is never detached. Listeners of a kept section are the ones it was
 * drawn with; they read the same data, since what was drawn is the same. Sections are matched by their
 * `data-testid` (else their class), in order.
 *
 * "Unchanged" compares renderings, not live elements: a web component adds attributes to itself once it
 * is on the page (role, tabindex…), so each kept element carries the signature of the rendering it came
 * from — its markup and the properties it was given (./dom.ts `propsOf`) — taken before it was inserted.
 */
import { propsOf } from './dom';

const signatures = new WeakMap<Element, string>();
const keyOf = (el: Element): string => el.getAttribute('data-testid') ?? `${el.tagName}.${el.className}`;

/** A fresh rendering's signature: its markup and every property its elements were given. */
export function signature(el: Element): string {
  const props = [el, ...el.querySelectorAll('*')].flatMap((x) => (propsOf.has(x) ? [JSON.stringify(propsOf.get(x))] : []));
  return `${el.outerHTML}\u0000${props.join('\u0000')}`;
}

/** True when `current` (on screen) was drawn from the same rendering as `fresh` (not inserted yet). */
export function sameRendering(current: Element, fresh: Element, freshSignature = signature(fresh)): boolean {
  return signatures.get(current) === freshSignature;
}

/** Remembers the rendering an element on screen came from (call before inserting it). */
export function remember(el: Element, sig = signature(el)): void {
  signatures.set(el, sig);
}

export function patchChildren(parent: HTMLElement, fresh: readonly HTMLElement[]): void {
  const old = [...parent.children] as HTMLElement[];
  const used = new Set<HTMLElement>();
  const wanted = fresh.map((next) => {
    const sig = signature(next);
    const match = old.find((o) => !used.has(o) && keyOf(o) === keyOf(next));
    if (match && signatures.get(match) === sig) {
      used.add(match);
      return match;
    }
    signatures.set(next, sig);
    return next;
  });
  for (const o of old) if (!used.has(o)) o.remove();
  wanted.forEach((el, i) => {
    const at = parent.children[i];
    if (at !== el) parent.insertBefore(el, at ?? null);
  });
}
