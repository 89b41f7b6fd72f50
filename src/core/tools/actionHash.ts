/**
 * What an approval binds to. A decision is valid for exactly one action: the same path, change kind and
 * content hash for a write, or the same argv and working directory for a command. A replanned step that
 * writes different bytes or runs a different argv produces a different hash and needs a new decision.
 */
import { sha256Hex } from '../primitives/hash';
import { canonicalJson } from '../primitives/canonicalJson';

export type ChangeKind = 'created' | 'modified' | 'deleted';

export function writeActionHash(path: string, change: ChangeKind, contentHash: string | null): string {
  return sha256Hex(JSON.stringify(['write', path, change, contentHash]));
}

export function commandActionHash(argv: readonly string[], cwd: string): string {
  return sha256Hex(JSON.stringify(['run', [...argv], cwd]));
}

/** An MCP tool call: the server, the tool and the exact arguments. */
export function mcpActionHash(server: string, tool: string, args: unknown): string {
  return sha256Hex(JSON.stringify(['mcp', server, tool, canonicalJson(args)]));
}
