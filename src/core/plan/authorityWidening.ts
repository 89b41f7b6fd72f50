/**
 * Whether an authority allows more than another, decided without the file system: each glob must be
 * provably inside the old globs, each command pattern allowed by the old patterns, network only if it was
 * granted, each MCP grant covered. Unprovable counts as widening — an edit that cannot be shown to narrow
 * is refused, never applied without the user approving the plan again.
 */
import type { Authority } from '../contracts/plan';
import { globSetCovers } from './globs';
import { commandAllowedBy } from './commandPattern';
import { grantCovered } from '../mcp/grants';

/** Names the first way `next` allows more than `before`, or null when it is provably narrower or equal. */
export function wideningOf(before: Authority, next: Authority): string | null {
  for (const field of ['read', 'edit'] as const) {
    const extra = next[field].filter((g) => !globSetCovers(before[field], [g]));
    if (extra.length > 0) return `${field} ${extra.map((g) => `"${g}"`).join(', ')} is not inside the current ${field} authority`;
  }
  const extraCommands = next.commands.filter((c) => !commandCovered(c, before.commands));
  if (extraCommands.length > 0) return `commands ${extraCommands.map((c) => `"${c}"`).join(', ')} are not allowed today`;
  if (next.network && !before.network) return 'network access is not granted today';
  const extraTools = next.mcp.filter((g) => !grantCovered(g, before.mcp));
  if (extraTools.length > 0) return `MCP tools ${extraTools.map((g) => `"${g}"`).join(', ')} are not granted today`;
  return null;
}

/** A command pattern is covered when everything it allows, the old patterns allowed. */
function commandCovered(pattern: string, before: readonly string[]): boolean {
  if (before.includes(pattern)) return true;
  const trimmed = pattern.trim();
  // An open pattern "a b *" allows "a b <anything>"; it is covered only by an open pattern over a prefix.
  if (trimmed.endsWith(' *')) {
    const fixed = trimmed.slice(0, -2);
    return before.some((b) => b.trim().endsWith(' *') && commandAllowedBy(`${fixed}`, [b]) && fixed.startsWith(b.trim().slice(0, -2)));
  }
  return commandAllowedBy(trimmed, before);
}
