/**
 * Which hooks a mission runs. A project's hooks are repository code: they run only once the user agreed to
 * exactly those commands — the file's content hash is what the agreement binds to, so a changed file asks
 * again. The user's own `~/.claude/settings.json` hooks run as configured. Pure.
 */
import type { HookFile, HookSet } from '../contracts/hooks';
import { sha256Hex } from '../primitives/hash';

/** What a front end remembers a trust decision by: the file and its content hash. */
export function trustKey(file: Pick<HookFile, 'source' | 'hash'>): string {
  return `${file.source}\u0000${file.hash}`;
}

/** The set a mission uses: user hooks, the trusted project files' hooks, and the rest listed as skipped. */
export function hookSetOf(files: readonly HookFile[], trusted: (file: HookFile) => boolean): HookSet {
  const set: HookSet = { hooks: [], skipped: [], notes: [] };
  for (const f of files) {
    set.notes.push(...f.notes);
    if (f.origin === 'user' || trusted(f)) set.hooks.push(...f.hooks);
    else set.skipped.push(...f.hooks);
  }
  return set;
}

/** The project files that declare hooks nobody has trusted yet (what a trust card lists). */
export function untrustedFiles(files: readonly HookFile[], trusted: (file: HookFile) => boolean): HookFile[] {
  return files.filter((f) => f.origin === 'project' && f.hooks.length > 0 && !trusted(f));
}

/** Names a list of files by their sources and contents: what a trust card showed, so only that is trusted. */
export function fingerprintOf(files: readonly Pick<HookFile, 'source' | 'hash'>[]): string {
  return sha256Hex(files.map(trustKey).join('\n'));
}
