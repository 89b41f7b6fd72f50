/**
 * Holds host messages while a pointer is pressed in the webview, and delivers them (in order) once the press
 * is over and its click has been dispatched.
 *
 * Why: a snapshot re-renders a surface by replacing its elements. When that lands between a press and its
 * release, the element pressed is gone at the release and the browser sends no click at all (checked in
 * Chromium) — the user's Approve or Skip is lost without a trace. During a running mission snapshots come
 * often, so this is not rare. A press held longer than `maxHoldMs` (a drag, a release the frame never saw)
 * stops holding, so the surface never falls behind for long.
 */
export function holdWhilePressed<T>(target: Document, deliver: (item: T) => void, maxHoldMs = 3000): (item: T) => void {
  const held: T[] = [];
  let pressed = false;
  let cap: ReturnType<typeof setTimeout> | undefined;

  const flush = (): void => {
    if (pressed) return; // pressed again before the flush ran: keep holding
    for (const item of held.splice(0)) deliver(item);
  };
  const release = (): void => {
    if (!pressed) return;
    pressed = false;
    clearTimeout(cap);
    // pointerup → mouseup → click run in one task: deliver after it, so the click reaches the pressed element.
    setTimeout(flush, 0);
  };

  target.addEventListener(
    'pointerdown',
    () => {
      pressed = true;
      clearTimeout(cap);
      cap = setTimeout(release, maxHoldMs);
    },
    { capture: true },
  );
  target.addEventListener('pointerup', release, { capture: true });
  target.addEventListener('pointercancel', release, { capture: true });
  target.defaultView?.addEventListener('blur', release);

  // While anything is held, later items queue behind it, so the order never changes.
  return (item) => {
    if (pressed || held.length > 0) held.push(item);
    else deliver(item);
  };
}
