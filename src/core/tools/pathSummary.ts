/**
 * Lists of paths as a tool result names them: at most a few dozen, then a count — a command that leaves
 * 16,000 folders must not put 64 KB of names into the model's context (nor into the CLI's report line).
 * Items that share a reason are named once with it: `README.md (content), docs/a.md (new): outside the
 * step's edit globs (src/**)`.
 */

/** Paths a tool result names at most, across every group; the rest are counted. */
const NAMED_PATHS = 30;

/** `items` joined, the first `max` of them named and the rest counted: `a, b … and 12 more (14 in all)`. */
export function namedList(items: readonly string[], max = NAMED_PATHS, sep = ', '): string {
  if (items.length <= max) return items.join(sep);
  return `${items.slice(0, max).join(sep)}${sep}… and ${items.length - max} more (${items.length} in all)`;
}

/**
 * Items grouped by their reason, in the order reasons first appear: `a, b: why; c: other why`, naming
 * at most `max` items in all (each group names at least one while room is left) and counting the rest.
 */
export function groupedList(items: readonly { name: string; why: string }[], max = NAMED_PATHS): string {
  const groups = new Map<string, string[]>();
  for (const i of items) {
    const names = groups.get(i.why);
    if (names) names.push(i.name);
    else groups.set(i.why, [i.name]);
  }
  const parts: string[] = [];
  let room = max;
  let untold = 0;
  for (const [why, names] of groups) {
    if (room <= 0) {
      untold += names.length;
      continue;
    }
    const shown = names.slice(0, room);
    room -= shown.length;
    const more = names.length - shown.length;
    parts.push(`${shown.join(', ')}${more > 0 ? ` … and ${more} more` : ''}: ${why}`);
  }
  return `${parts.join('; ')}${untold > 0 ? `; … and ${untold} more for other reasons (${items.length} in all)` : ''}`;
}
