/**
 * Puts freshly rendered sections into a parent while keeping every section whose content did not change:
 * an equal section (same elements, attributes and text — `isEqualNode`) stays the very element on screen,
 * with its focus, its scroll position, its custom elements' state and its icons, and is never detached.
 * Listeners of a kept section are the ones it was drawn with; they read the same data, since its content
 * is equal. Sections are matched by their `data-testid` (else their class), in order.
 */
const keyOf = (el: Element): string => el.getAttribute('data-testid') ?? `${el.tagName}.${el.className}`;

export function patchChildren(parent: HTMLElement, fresh: readonly HTMLElement[]): void {
  const old = [...parent.children] as HTMLElement[];
  const used = new Set<HTMLElement>();
  const wanted = fresh.map((next) => {
    const match = old.find((o) => !used.has(o) && keyOf(o) === keyOf(next));
    if (match && match.isEqualNode(next)) {
      used.add(match);
      return match;
    }
    return next;
  });
  for (const o of old) if (!used.has(o)) o.remove();
  wanted.forEach((el, i) => {
    const at = parent.children[i];
    if (at !== el) parent.insertBefore(el, at ?? null);
  });
}
