/**
 * Each run opens a fresh temporary copy of a fixture workspace, so no test sees another's edits and the
 * fixture in the repository never changes.
 */
import { cpSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { repoRoot } from './hostPaths';
import { removeOnExit } from './processGroups';

/** The workspace the integration tier opens by default. */
export const DEFAULT_FIXTURE = join(repoRoot, 'test', 'support', 'host', 'fixtureWorkspace');
/** The demo workspace `npm start` opens. */
export const DEMO_WORKSPACE = join(repoRoot, 'demo');

export interface TempWorkspace {
  /** Absolute, symlink-free path of the copy. */
  readonly path: string;
  remove(): void;
}

export function copyWorkspace(source: string = DEFAULT_FIXTURE): TempWorkspace {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'plan-execute-ws-')));
  const path = join(parent, basename(source));
  cpSync(source, path, { recursive: true });
  const forget = removeOnExit(parent);
  return {
    path,
    remove: () => {
      if (!process.env.PLAN_EXECUTE_KEEP_HOST_DIRS) rmSync(parent, { recursive: true, force: true });
      forget();
    },
  };
}
