/**
 * The mission Store for VS Code: src/node's file store rooted in the extension's storage directory.
 * Until that store is available, missions cannot be persisted and this returns undefined.
 */
import type { Store } from '../../core/ports';

export function createMissionStore(_dir: string): Promise<Store | undefined> {
  return Promise.resolve(undefined);
}
