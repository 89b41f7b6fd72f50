/**
 * The names MCP tools are offered under: `mcp__<server>__<tool>`, with every character a model API does
 * not take in a tool name replaced by `_`, at most 64 characters. The `mcp__` prefix is ours alone, so an
 * MCP tool can never shadow one of our tools (the text editor, bash, report_result…); a name two tools
 * would share after sanitising gets a short hash of the original instead. Names are derived from the
 * whole catalogue, in its order, so they do not depend on the step, and a replay derives the same ones.
 */
import type { McpCatalogue } from '../contracts/mcp';
import type { OfferedMcpTool } from '../ports';
import { sha256Hex } from '../primitives/hash';

export const MCP_PREFIX = 'mcp__';
const MAX_NAME = 64;

const clean = (s: string): string => s.replace(/[^A-Za-z0-9_-]/g, '_');

function nameFor(server: string, tool: string, taken: ReadonlySet<string>): string {
  const plain = `${MCP_PREFIX}${clean(server)}__${clean(tool)}`;
  if (plain.length <= MAX_NAME && !taken.has(plain)) return plain;
  const hash = sha256Hex(`${server}\u0000${tool}`).slice(0, 8);
  return `${plain.slice(0, MAX_NAME - 9)}_${hash}`;
}

/** Every tool of the usable servers, under its offered name, in catalogue order. */
export function offeredTools(catalogue: McpCatalogue | undefined): OfferedMcpTool[] {
  const taken = new Set<string>();
  const out: OfferedMcpTool[] = [];
  for (const server of catalogue?.servers ?? []) {
    if (server.status !== 'ok') continue;
    for (const t of server.tools) {
      const name = nameFor(server.name, t.name, taken);
      taken.add(name);
      out.push({ name, server: server.name, tool: t.name, description: t.description, readOnly: t.readOnly, inputSchema: t.inputSchema });
    }
  }
  return out;
}

/** Per server: how it runs, and why it cannot be used when its tools could not be listed. */
export function serverStates(
  catalogue: McpCatalogue | undefined,
): Record<string, { confinement: McpCatalogue['servers'][number]['confinement']; unavailable?: string }> {
  const out: Record<string, { confinement: McpCatalogue['servers'][number]['confinement']; unavailable?: string }> = {};
  for (const s of catalogue?.servers ?? [])
    out[s.name] = { confinement: s.confinement, ...(s.status === 'ok' ? {} : { unavailable: s.reason ?? 'its tools could not be listed' }) };
  return out;
}
