/**
 * MCP grants: the `mcp` field of a step's authority. A grant is `server/tool` (that one tool) or `server/*`
 * (every tool of that server); nothing else is a wildcard. Matching is exact on both names, so a grant can
 * never reach another server's tool, and `*` never matches across servers.
 */
import { McpGrantSchema } from '../contracts/plan';

export interface McpToolRef {
  server: string;
  tool: string;
}

/** A grant's parts, or null when it is not a grant (`server/tool` or `server/*`). */
export function parseGrant(grant: string): { server: string; tool: string | '*' } | null {
  if (!McpGrantSchema.safeParse(grant).success) return null;
  const slash = grant.indexOf('/');
  return { server: grant.slice(0, slash), tool: grant.slice(slash + 1) };
}

/** The grant that allows `ref`, or undefined when none does. */
export function grantFor(grants: readonly string[], ref: McpToolRef): string | undefined {
  return grants.find((g) => {
    const p = parseGrant(g);
    return p !== null && p.server === ref.server && (p.tool === '*' || p.tool === ref.tool);
  });
}

/** Whether everything `grant` allows, `before` already allowed (a tightening keeps or narrows grants). */
export function grantCovered(grant: string, before: readonly string[]): boolean {
  const p = parseGrant(grant);
  if (!p) return false;
  if (p.tool === '*') return before.some((b) => parseGrant(b)?.server === p.server && parseGrant(b)?.tool === '*');
  return grantFor(before, { server: p.server, tool: p.tool }) !== undefined;
}

/** The servers a set of grants names (for starting them, and for the card). */
export function grantedServers(grants: readonly string[]): string[] {
  return [...new Set(grants.flatMap((g) => parseGrant(g)?.server ?? []))];
}

export const toolRef = (ref: McpToolRef): string => `${ref.server}/${ref.tool}`;
