/**
 * The mission Store for VS Code: src/node's file store, rooted in the extension's per-workspace storage
 * (outside the user's repository, so planning in an untrusted folder writes nothing into it).
 */
import { mkdir } from 'node:fs/promises';
import type { Store } from '../../core/ports';
import { FileStore } from '../../node/fileStore';

export async function createMissionStore(dir: string): Promise<Store | undefined> {
  await mkdir(dir, { recursive: true });
  return new FileStore(dir);
}
