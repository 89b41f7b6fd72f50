/**
 * Content hashes of workspace files, as the tool-call store's fingerprints record them (sha256 hex of the
 * bytes; null when the file is absent), so "is this earlier call still valid?" compares like with like.
 */
import type { Workspace } from '../ports';
import { sha256Hex } from '../primitives/hash';

export function contentHasher(workspace: Workspace): (path: string) => Promise<string | null> {
  return async (path) => {
    try {
      const stat = await workspace.stat(path);
      if (!stat || stat.kind !== 'file') return null;
      return sha256Hex(await workspace.readFile(path));
    } catch {
      return null;
    }
  };
}
