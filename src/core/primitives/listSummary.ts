/**
 * Lists as a tool result names them: at most a few dozen items, then how many more. A command that leaves
 * 16,000 folders must not put 16,000 paths into the model's context; the trace keeps every one.
 */

/** How many items a result names before it counts the rest. */
export const NAMED_AT_MOST = 30;

/** `items` joined by `separator`, the first `max` of them, then "… and N more (M in all)". */
export function summarise(items: readonly string[], separator = ', ', max = NAMED_AT_MOST): string {
  if (items.length <= max) return items.join(separator);
  const more = items.length - max;
  return `${items.slice(0, max).join(separator)}${separator}… and ${more.toLocaleString('en-US')} more (${items.length.toLocaleString('en-US')} in all)`;
}

/** At most `max` lines, the last one counting those left out. */
export function summariseLines(lines: readonly string[], what: (more: number) => string, max = NAMED_AT_MOST): string[] {
  if (lines.length <= max) return [...lines];
  return [...lines.slice(0, max), what(lines.length - max)];
}
