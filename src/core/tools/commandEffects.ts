/**
 * What a command did to the workspace, and undoing what it had no right to do. Around every command:
 *   1. before — one scan of the workspace; every file in the step's write scope is put in the blob store
 *      (files already stored are recognised by their scan signature and not read again), so any change can
 *      be both reviewed and undone;
 *   2. after  — a second scan (entering every folder the command created, whatever its name); each entry
 *      whose signature moved is compared by content;
 *   3. a change the text editor could have made (policy.ts: the edit globs, sensitive and ignored paths)
 *      joins the step's checkpoint — its diff and Revert step cover it. Any other change is undone:
 *      what the command created is removed (links unlinked, never followed), what it changed or deleted is
 *      restored from the blob store, and the call fails with permission_denied naming the paths.
 * Paths the sandbox mounts read-only or hides are not looked at (the kernel keeps them as they were), and
 * neither is git's own data (objects, refs, index…) in a step granted git writes — Revert step does not
 * undo a commit. Host-side reading is bounded: only regular files are read, and none over 64 MB (such a
 * file is kept or removed by the same rules, and reported as not covered by the checkpoint).
 */
import type { FileChange } from '../contracts/results';
import type { ScanEntry, Store, Workspace } from '../ports';
import { checkEntry, resolveAction, type Policy } from '../policy/policy';
import type { WriteRoot } from '../policy/writeScope';
import { sha256Hex } from '../primitives/hash';
import { errorText } from '../primitives/errorText';
import { isWithin } from '../primitives/paths';
import { linkRefusal, workspaceView } from '../policy/linkTargets';
import { err, ok, type Result } from '../contracts/result';

/** Scan size past which a command is refused rather than run with a checkpoint that cannot keep up. */
export const SCAN_LIMIT = 200_000;
const SNAPSHOT_MAX_FILES = 50_000;
const SNAPSHOT_MAX_BYTES = 512 * 1024 * 1024;
/** Larger files are not read into the checkpoint (a command can leave a sparse 64 GB file). */
const CHECKPOINT_MAX_FILE = 64 * 1024 * 1024;
/**
 * Files up to this size that are too large for the checkpoint are still hashed (not stored), so a command
 * that only opened one read-write — a test over a database or a big fixture — is seen to have changed
 * nothing. Larger ones are never judged by content, and never removed.
 */
const HASH_MAX_FILE = 1024 * 1024 * 1024;

interface Known {
  kind: ScanEntry['kind'];
  signature: string;
  mode: number;
  /** Content hash for a regular file that could be read; null otherwise. */
  hash: string | null;
  /** Whether the blob store holds that content (false for a file over the checkpoint cap: hashed, not kept). */
  stored: boolean;
  /** A link's target, to recreate it. */
  target?: string;
}

/** Where the command may write, what inside it the sandbox keeps as is, and what the scan need not enter. */
export interface Region {
  scope: readonly WriteRoot[];
  untouchable: (rel: string) => boolean;
  prune: (rel: string) => boolean;
}

export interface Snapshot extends Region {
  entries: Map<string, Known>;
  /** Names the scan could not read as text before the command (they are the user's; only new ones are reported). */
  unnamable?: string[];
}

export interface Reconciled {
  /** Changes the step may make, with checkpoint hashes. */
  accepted: FileChange[];
  /** Paths changed outside what the step may change; they were undone. */
  rolledBack: string[];
  /** Changes that could not be undone, each with why. */
  unrestored: string[];
  /** Allowed changes the checkpoint does not cover (links, files over the size cap), each with why. */
  uncovered: string[];
}

export type Scanned = Result<{ entries: ScanEntry[]; unnamable?: string[] }, string>;
export type SnapshotResult = Result<Snapshot, string>;

function inRegion(region: Region, rel: string): boolean {
  return region.scope.some((w) => isWithin(rel, w.path)) && !region.untouchable(rel);
}

/**
 * Content hashes by path and scan signature, per blob store and workspace root: a file a step's earlier
 * command — or an earlier step — already put in the store is not read again while its signature holds.
 */
const hashCaches = new WeakMap<Store, Map<string, Map<string, { signature: string; hash: string }>>>();

export class CommandEffects {
  readonly #hashes: Map<string, { signature: string; hash: string }>;

  constructor(
    private readonly workspace: Workspace,
    private readonly store: Store,
    private readonly policy: Policy,
  ) {
    const byRoot = hashCaches.get(store) ?? new Map<string, Map<string, { signature: string; hash: string }>>();
    hashCaches.set(store, byRoot);
    const cache = byRoot.get(workspace.root) ?? new Map<string, { signature: string; hash: string }>();
    byRoot.set(workspace.root, cache);
    this.#hashes = cache;
  }

  /**
   * One scan of the workspace (the sandbox spec and the snapshot share it). Only entries the write scope may
   * hold are stat'ed (`detail`: the snapshot needs their signatures, the spec their link counts); elsewhere
   * the spec needs names and kinds, which the directory listing gives.
   */
  async scan(prune: (rel: string) => boolean, scope: readonly WriteRoot[]): Promise<Scanned> {
    const detail = (rel: string): boolean => scope.some((w) => (w.kind === 'tree' ? isWithin(rel, w.path) : rel === w.path || parentOf(rel) === w.path));
    const { entries, truncated, unnamable } = await this.workspace.scan({ prune, limit: SCAN_LIMIT, detail });
    if (truncated)
      return err(`the workspace has more than ${SCAN_LIMIT} entries outside ignored and dependency folders; add large folders to .planexecuteignore`);
    return ok({ entries, ...(unnamable ? { unnamable } : {}) });
  }

  /** Hash of a regular file too large to store (hashed, not kept), or null when it cannot be read. */
  async #hashOnly(e: ScanEntry): Promise<string | null> {
    if (e.kind !== 'file' || e.size > HASH_MAX_FILE) return null;
    try {
      return sha256Hex(await this.workspace.readFile(e.path));
    } catch {
      return null;
    }
  }

  /** Hash of a regular file, read only when its signature changed since the step last stored it. */
  async #hashOf(e: ScanEntry): Promise<string | null> {
    if (e.kind !== 'file' || e.size > CHECKPOINT_MAX_FILE) return null;
    const known = this.#hashes.get(e.path);
    if (known && known.signature === e.signature) return known.hash;
    try {
      const hash = await this.store.putBlob(await this.workspace.readFile(e.path));
      this.#hashes.set(e.path, { signature: e.signature, hash });
      return hash;
    } catch {
      return null; // vanished or unreadable: treated as not covered
    }
  }

  async before(entries: readonly ScanEntry[], region: Region, unnamable: readonly string[] = []): Promise<SnapshotResult> {
    const known = new Map<string, Known>();
    let files = 0;
    let bytes = 0;
    for (const e of entries) {
      if (!inRegion(region, e.path)) continue;
      if (e.kind === 'file') {
        files += 1;
        bytes += Math.min(e.size, CHECKPOINT_MAX_FILE);
        if (files > SNAPSHOT_MAX_FILES || bytes > SNAPSHOT_MAX_BYTES) {
          return err(
            `the step's write scope (${region.scope.map((w) => `${w.path || '.'}${w.kind === 'folder' ? ' (its files)' : ''}`).join(', ')}) holds more than ${SNAPSHOT_MAX_FILES} files or ${SNAPSHOT_MAX_BYTES >> 20} MB, too much to checkpoint around every command; narrow the edit globs`,
          );
        }
      }
      const stored = await this.#hashOf(e);
      const hash = stored ?? (e.kind === 'file' && e.size > CHECKPOINT_MAX_FILE ? await this.#hashOnly(e) : null);
      known.set(e.path, {
        kind: e.kind,
        signature: e.signature,
        mode: e.mode,
        hash,
        stored: stored !== null,
        ...(e.target !== undefined ? { target: e.target } : {}),
      });
    }
    return ok({ ...region, entries: known, unnamable: [...unnamable] });
  }

  /** Whether the step may leave this change (the text editor's rules: edit globs, sensitive paths, ignore file). */
  #allowed(rel: string, deleted: boolean): boolean {
    return resolveAction(this.policy, { kind: deleted ? 'delete' : 'write', path: rel }).allowed;
  }

  async after(snapshot: Snapshot, label: string): Promise<Reconciled> {
    const result: Reconciled = { accepted: [], rolledBack: [], unrestored: [], uncovered: [] };
    // Folders the command created are entered whatever their name: a new `.git/hooks` or `.vscode` is judged
    // too. What its mounts kept (a folder root's old subfolders, protected and hidden paths) is not entered:
    // so the scan of a folder root stays shallow, however much lies below it. A write root below one of
    // those is a scan root of its own.
    const prune = (rel: string): boolean => snapshot.untouchable(rel) || (snapshot.prune(rel) && !(inRegion(snapshot, rel) && !snapshot.entries.has(rel)));
    // Only the write scope can have changed (the rest was read-only to the command).
    const under = snapshot.scope.map((w) => w.path);
    let listing = await this.workspace.scan({ prune, limit: SCAN_LIMIT, under });
    let shallowListing = false;
    if (listing.truncated) {
      shallowListing = true;
      // Too many new entries to list: fail closed — new folders are not entered, so each is judged (and
      // removed) whole; what was there before is still compared file by file.
      const shallow = (rel: string): boolean => prune(rel) || (inRegion(snapshot, rel) && !snapshot.entries.has(rel));
      listing = await this.workspace.scan({ prune: shallow, limit: SCAN_LIMIT, under });
      if (listing.truncated) {
        result.unrestored.push(`(the write scope holds more than ${SCAN_LIMIT} entries after the command; it could not be compared)`);
        return result;
      }
      result.uncovered.push('(the command made too many entries to list: new folders were judged whole)');
    }
    const now = new Map<string, ScanEntry>();
    for (const e of listing.entries) if (inRegion(snapshot, e.path)) now.set(e.path, e);

    const removals: string[] = [];
    const restores: { path: string; hash: string; mode: number }[] = [];
    const links: { path: string; target: string }[] = [];
    const createdDirs: string[] = [];
    const keptDirs = new Set<string>();
    const keep = (rel: string): void => {
      for (let p = rel; p.includes('/');) {
        p = p.slice(0, p.lastIndexOf('/'));
        keptDirs.add(p);
      }
    };
    /**
     * Undo: remove what is there now (if anything) and put the old entry back (if there was one). What
     * cannot be put back is never removed: the user's file stays as the command left it, and is named.
     */
    const undo = (path: string, was: Known | undefined, present: boolean, why?: string): void => {
      if (was?.kind === 'file' && (!was.stored || was.hash === null)) {
        result.unrestored.push(
          present
            ? `${path} (changed by the command; too large for the checkpoint, so it was left as the command left it)`
            : `${path} (removed by the command; too large for the checkpoint, so it could not be put back)`,
        );
        return;
      }
      if (was !== undefined && was.kind !== 'file' && was.kind !== 'directory' && !(was.kind === 'symlink' && was.target !== undefined)) {
        result.unrestored.push(`${path} (a ${was.kind} the command replaced cannot be recreated)`);
        return;
      }
      result.rolledBack.push(why === undefined ? path : `${path} (${why})`);
      if (present) removals.push(path);
      if (was?.kind === 'file' && was.hash !== null) restores.push({ path, hash: was.hash, mode: was.mode });
      else if (was?.kind === 'symlink' && was.target !== undefined) links.push({ path, target: was.target });
    };

    for (const path of [...new Set([...snapshot.entries.keys(), ...now.keys()])].sort()) {
      const was = snapshot.entries.get(path);
      const is = now.get(path);
      if (was && is && was.kind === is.kind && was.signature === is.signature) continue;
      if (is?.kind === 'directory') {
        if (was?.kind !== 'directory') {
          createdDirs.push(path);
          if (was) this.#gone(path, was, result, undo);
        }
        continue;
      }
      if (!is) {
        if (was && was.kind !== 'directory') this.#gone(path, was, result, undo);
        continue;
      }
      if (is.kind === 'file') {
        const afterHash = (await this.#hashOf(is)) ?? (was?.kind === 'file' && !was.stored ? await this.#hashOnly(is) : null);
        if (was?.kind === 'file' && was.hash !== null && was.hash === afterHash) {
          // Touched, not changed — unless its mode changed where the step may not change it.
          if (is.mode !== was.mode && !this.#allowed(path, false)) {
            if (was.stored) {
              result.rolledBack.push(`${path} (mode ${is.mode.toString(8)} → ${was.mode.toString(8)})`);
              restores.push({ path, hash: was.hash, mode: was.mode });
            } else
              result.unrestored.push(`${path} (its mode changed from ${was.mode.toString(8)} to ${is.mode.toString(8)}; too large to rewrite, left as it is)`);
          }
          continue;
        }
        if (!this.#allowed(path, false)) {
          undo(path, was?.kind === 'directory' ? undefined : was, true);
          continue;
        }
        keep(path);
        if (afterHash === null) result.uncovered.push(`${path} (over ${CHECKPOINT_MAX_FILE >> 20} MB or unreadable: kept, not in the checkpoint)`);
        else if (was?.kind === 'file' && !was.stored) result.uncovered.push(`${path} (its earlier content was too large for the checkpoint)`);
        else
          result.accepted.push({ path, change: was?.kind === 'file' ? 'modified' : 'created', beforeHash: was?.kind === 'file' ? was.hash : null, afterHash });
        continue;
      }
      // A link or a special file (FIFO, socket, device) appeared or changed. A link is judged where it really
      // leads, on the tree as the command left it (linkTargets.ts: the staged judge's rule).
      const prior = was?.kind === 'directory' ? undefined : was;
      if (is.kind === 'symlink' && checkEntry(this.policy, 'write', path).allowed) {
        const why = linkRefusal(this.policy, workspaceView(this.policy.root, this.policy.fs), path, is.target);
        if (why === undefined) {
          keep(path);
          result.uncovered.push(`${path} (a symbolic link the command made: kept, not covered by Revert step)`);
        } else undo(path, prior, true, why);
        continue;
      }
      undo(path, prior, true);
    }

    // A new folder that keeps nothing the step may make goes whole, unseen content (past PATH_MAX) included.
    const strayDirs = createdDirs.filter((d) => !keptDirs.has(d) && !this.#allowed(d, false));
    const strayRoots = strayDirs.filter((d) => !strayDirs.some((o) => o !== d && isWithin(d, o)));
    // Named unless it was an empty folder: one holding folders, unseen content or too much to list is a change.
    const holdsSomething = (d: string): boolean =>
      [...now.keys()].some((p) => p !== d && isWithin(p, d)) || (listing.unreadable ?? []).some((u) => isWithin(u, d)) || shallowListing;
    result.rolledBack.push(...strayRoots.filter((d) => !result.rolledBack.some((r) => isWithin(r, d)) && holdsSomething(d)).map((d) => `${d}/`));
    const before = new Set(snapshot.unnamable ?? []);
    for (const name of listing.unnamable ?? []) {
      if (before.has(name) || !inRegion(snapshot, name.slice(0, Math.max(0, name.lastIndexOf('/'))) || name) || strayRoots.some((d) => isWithin(name, d)))
        continue;
      result.unrestored.push(`${name} (a name that is not UTF-8, which the command made: it could not be judged or removed and is still there)`);
    }
    for (const dir of listing.unreadable ?? []) {
      if (!inRegion(snapshot, dir) || strayRoots.some((d) => isWithin(dir, d))) continue;
      result.unrestored.push(`${dir} (could not be listed after the command: its content was not compared)`);
    }
    await this.#undo(removals, strayRoots, restores, result, label);
    for (const l of links) {
      try {
        await this.workspace.applyWrites([{ path: l.path, content: null, link: l.target }], `${label}: restore`, { origin: 'command' });
      } catch (error) {
        result.unrestored.push(`${l.path} (the link could not be recreated: ${errorText(error)})`);
      }
    }
    return result;
  }

  /** A file, link or special file that existed before and is gone (or replaced by a folder). */
  #gone(path: string, was: Known, result: Reconciled, undo: (path: string, was: Known | undefined, present: boolean) => void): void {
    if (!this.#allowed(path, true)) {
      undo(path, was, false);
      return;
    }
    if (was.kind === 'file' && was.stored && was.hash !== null) result.accepted.push({ path, change: 'deleted', beforeHash: was.hash, afterHash: null });
    else result.uncovered.push(`${path} (removed by the command; not in the checkpoint)`);
  }

  async #undo(
    removals: string[],
    strayDirs: string[],
    restores: { path: string; hash: string; mode: number }[],
    result: Reconciled,
    label: string,
  ): Promise<void> {
    // Removal first, deepest first and without following links (a folder or link the command put where a
    // file was must go before the file can come back), then each restore on its own.
    const failed = await this.workspace
      .removeEntries(removals.filter((r) => !strayDirs.some((d) => isWithin(r, d))))
      .catch((error: unknown) => [`(removal failed: ${errorText(error)})`]);
    const failedTrees = await this.workspace.removeEntries(strayDirs, true).catch((error: unknown) => [`(removal failed: ${errorText(error)})`]);
    result.unrestored.push(...failed, ...failedTrees);
    for (const r of restores) {
      const blob = await this.store.getBlob(r.hash);
      if (!blob || sha256Hex(blob) !== r.hash) {
        result.unrestored.push(`${r.path} (its checkpoint content is missing)`);
        continue;
      }
      try {
        await this.workspace.applyWrites([{ path: r.path, content: blob, mode: r.mode }], `${label}: restore`);
      } catch (error) {
        result.unrestored.push(`${r.path} (could not be restored: ${errorText(error)})`);
      }
    }
  }
}

/** The folder a workspace path is in ('' at the top). */
function parentOf(rel: string): string {
  const at = rel.lastIndexOf('/');
  return at === -1 ? '' : rel.slice(0, at);
}
