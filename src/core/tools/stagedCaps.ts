/**
 * What one staged command may cost the judge, and what it need not walk. The listing of a command's layer
 * is linear in the layer's entries (src/node/sandbox/stagedChanges.ts); these caps bound that line, and a
 * command past one fails closed — nothing of its layer is applied or kept, and the call says which cap.
 *   - entries: what the listing walks (files, folders, links, removals), outside the folders kept whole;
 *   - bytes:   what it reads to compare a file the workspace holds too (a file only opened read-write is no
 *              change, so same-sized files are compared byte for byte).
 * Folders kept whole: a dependency folder or tool cache (`isToolCache`: node_modules, .venv, .cache…) that
 * no edit glob reaches into is private to the step whatever it holds (stagedJudge.ts, rule 4), so the
 * listing reports it once instead of walking an `npm install`'s hundred thousand files. So is a folder the
 * workspace does not have that the step keeps for itself (its privacy: ignored as the attempt began, never
 * one holding a file git tracks) and no edit glob reaches into — a build's `dist/`: the judge would keep it
 * whole as well (nothing below it may be applied), and the step's later commands no longer walk it again.
 */
import picomatch from 'picomatch';
import type { ListingCap, ListingOptions } from '../contracts/staging';
import type { Policy } from '../policy/policy';
import { isWithin, pathsOverlap } from '../primitives/paths';
import { isToolCache } from './stagedJudge';
import type { StepPrivacy } from './stepPrivacy';

/** Entries one command's layer may hold outside folders kept whole. */
export const LAYER_ENTRY_CAP = 200_000;
/** Bytes the judge may read to compare one command's files with the workspace's. */
export const LAYER_BYTE_CAP = 2 * 1024 ** 3;

/** A glob's literal folder ('' for the workspace root). */
function baseOf(glob: string): string {
  const base = picomatch.scan(glob).base;
  return base === '.' ? '' : base;
}

/**
 * The listing's options for a step: its caps, and the folders it keeps whole — a tool cache or dependency
 * folder, or a new folder the step's privacy keeps, below which no edit glob can match (under
 * `node_modules`, which is protected, only an edit glob the mission's sensitive grant also reaches).
 */
export function listingOptionsFor(policy: Policy, privacy?: StepPrivacy): ListingOptions {
  const edits = policy.authority.edit.map(baseOf);
  const granted = policy.allowSensitive.map(baseOf);
  const reaches = (bases: readonly string[], path: string): boolean => bases.some((b) => pathsOverlap(b, path));
  const writableBelow = (path: string): boolean => reaches(edits, path) && (!path.split('/').includes('node_modules') || reaches(granted, path));
  const kept = (path: string, inWorkspace: boolean): boolean => isToolCache(path) || (!inWorkspace && privacy?.(path, true) !== undefined);
  return {
    keepWhole: (path, inWorkspace) => !isWithin(path, '.git') && !writableBelow(path) && kept(path, inWorkspace),
    maxEntries: LAYER_ENTRY_CAP,
    maxBytes: LAYER_BYTE_CAP,
  };
}

/** What the call says when a command's layer passed a cap. */
export function capText(capped: ListingCap): string {
  const what =
    capped.cap === 'entries'
      ? `the command left more than ${capped.limit.toLocaleString('en-US')} entries in its staging layer (the cap on entries per command)`
      : `judging the command's changes would read more than ${Math.round(capped.limit / 1024 ** 2).toLocaleString('en-US')} MB (the cap on bytes per command)`;
  return `${what}: nothing it wrote was applied or kept for the step (split the work into smaller commands)`;
}
