/**
 * What a command did to the workspace, and undoing what it had no right to do. Around every command:
 *   1. before — one scan of the workspace; every file in the step's write scope is put in the blob store
 *      (unchanged files are recognised by their scan signature and not read again), so any change can be
 *      both reviewed and undone;
 *   2. after  — a second scan; each file whose signature moved is compared by content;
 *   3. a change that matches the step's edit globs (the same rules as the text editor's writes) joins the
 *      step's checkpoint — its diff and Revert step cover it; any other change is rolled back (created
 *      files deleted, changed or deleted files restored) and named in a permission_denied failure.
 * Paths the sandbox mounts read-only or hides are not looked at (the kernel keeps them as they were),
 * and inside a git-writable `.git` git's own bookkeeping is accepted as is (Revert step does not undo a
 * commit). Symlinks are never followed or stored: one made inside the edit globs is kept and reported as
 * not covered by the checkpoint, one made outside them is removed.
 */
import type { FileChange } from '../contracts/results';
import type { ScanEntry, Store, Workspace } from '../ports';
import { resolveAction, type Policy } from '../policy/policy';
import { pathWithin } from '../policy/writeScope';
import { sha256Hex } from './hash';

/** Scan size past which a command is refused rather than run with a checkpoint that cannot keep up. */
export const SCAN_LIMIT = 200_000;
export const SNAPSHOT_MAX_FILES = 50_000;
export const SNAPSHOT_MAX_BYTES = 512 * 1024 * 1024;

interface Known {
  kind: ScanEntry['kind'];
  signature: string;
  mode: number;
  /** Content hash for files (stored in the blob store), null for anything else. */
  hash: string | null;
}

export interface Snapshot {
  /** The write scope (workspace-relative roots, '' = all) and what inside it the sandbox keeps as is. */
  scope: readonly string[];
  untouchable: (rel: string) => boolean;
  prune: (rel: string) => boolean;
  /** Entries inside the write scope that this module watches. */
  region: Map<string, Known>;
}

export interface Reconciled {
  /** Changes inside the edit globs, with checkpoint hashes. */
  accepted: FileChange[];
  /** Paths changed outside the edit globs that were restored. */
  rolledBack: string[];
  /** Changes that could not be restored, each with why. */
  unrestored: string[];
  /** Symbolic links the command made inside the edit globs (kept; not covered by Revert step). */
  links: string[];
}

export type Scanned = { ok: true; entries: ScanEntry[] } | { ok: false; reason: string };
export type SnapshotResult = { ok: true; snapshot: Snapshot } | { ok: false; reason: string };

/**
 * One per step (its tools): remembers content hashes by scan signature, so the files a step's earlier
 * commands already stored are not read again.
 */
export class CommandEffects {
  readonly #hashes = new Map<string, { signature: string; hash: string }>();

  constructor(
    private readonly workspace: Workspace,
    private readonly store: Store,
    private readonly policy: Policy,
  ) {}

  /** One scan of the workspace (the sandbox spec and the snapshot share it). */
  async scan(prune: (rel: string) => boolean): Promise<Scanned> {
    const { entries, truncated } = await this.workspace.scan({ prune, limit: SCAN_LIMIT });
    if (truncated) return { ok: false, reason: `the workspace has more than ${SCAN_LIMIT} entries outside ignored and dependency folders; add large folders to .planexecuteignore` };
    return { ok: true, entries };
  }

  /** Hash of a file, reading it only when its signature changed since the step last stored it. */
  async #hashOf(e: ScanEntry): Promise<string> {
    const known = this.#hashes.get(e.path);
    if (known && known.signature === e.signature) return known.hash;
    const bytes = await this.workspace.readFile(e.path);
    const hash = await this.store.putBlob(bytes);
    this.#hashes.set(e.path, { signature: e.signature, hash });
    return hash;
  }

  async before(entries: readonly ScanEntry[], scope: readonly string[], untouchable: (rel: string) => boolean, prune: (rel: string) => boolean): Promise<SnapshotResult> {
    const region = new Map<string, Known>();
    let files = 0;
    let bytes = 0;
    for (const e of entries) {
      if (!inScope(scope, untouchable, e.path)) continue;
      if (e.kind === 'file') {
        files += 1;
        bytes += e.size;
        if (files > SNAPSHOT_MAX_FILES || bytes > SNAPSHOT_MAX_BYTES) {
          return { ok: false, reason: `the step's write scope (${scope.map((w) => w || '.').join(', ')}) holds more than ${SNAPSHOT_MAX_FILES} files or ${SNAPSHOT_MAX_BYTES >> 20} MB, too much to checkpoint around every command; narrow the edit globs` };
        }
      }
      region.set(e.path, { kind: e.kind, signature: e.signature, mode: e.mode, hash: e.kind === 'file' ? await this.#hashOf(e) : null });
    }
    return { ok: true, snapshot: { scope, untouchable, prune, region } };
  }

  /** Whether the step may leave this change (the text editor's rules: edit globs, sensitive paths, ignore file). */
  #allowed(rel: string, deleted: boolean): boolean {
    return resolveAction(this.policy, { kind: deleted ? 'delete' : 'write', path: rel }).allowed;
  }

  async after(snapshot: Snapshot, label: string): Promise<Reconciled> {
    const result: Reconciled = { accepted: [], rolledBack: [], unrestored: [], links: [] };
    const scanned = await this.scan(snapshot.prune);
    if (!scanned.ok) {
      result.unrestored.push(`(the workspace could not be compared after the command: ${scanned.reason})`);
      return result;
    }
    const now = new Map<string, ScanEntry>();
    for (const e of scanned.entries) if (inScope(snapshot.scope, snapshot.untouchable, e.path)) now.set(e.path, e);

    const deletions: string[] = [];
    const restores: { path: string; hash: string; mode: number }[] = [];
    const createdDirs: string[] = [];
    const keptDirs = new Set<string>();
    const keepParents = (rel: string): void => {
      for (let p = rel; p.includes('/'); ) {
        p = p.slice(0, p.lastIndexOf('/'));
        keptDirs.add(p);
      }
    };

    const paths = [...new Set([...snapshot.region.keys(), ...now.keys()])].sort();
    for (const path of paths) {
      const was = snapshot.region.get(path);
      const is = now.get(path);
      if (was && is && was.kind === is.kind && was.signature === is.signature) continue;
      if (is?.kind === 'directory') {
        if (!was || was.kind !== 'directory') createdDirs.push(path);
        if (was && was.kind !== 'directory') this.#judgeGone(path, was, result, restores);
        continue;
      }
      const isFile = is?.kind === 'file';
      const afterHash = isFile && is ? await this.#hashOf(is) : null;
      if (was?.kind === 'file' && isFile && was.hash === afterHash) continue; // touched, not changed
      if (is && !isFile) {
        // A symlink or special file appeared or changed.
        if (this.#allowed(path, false) && is.kind === 'symlink') {
          keepParents(path);
          result.links.push(path);
        } else {
          deletions.push(path);
          result.rolledBack.push(path);
        }
        if (was?.kind === 'file') restores.push({ path, hash: was.hash as string, mode: was.mode });
        continue;
      }
      if (!is) {
        if (was && was.kind !== 'directory') this.#judgeGone(path, was, result, restores);
        continue;
      }
      const change: FileChange['change'] = was?.kind === 'file' ? 'modified' : 'created';
      if (this.#allowed(path, false)) {
        result.accepted.push({ path, change, beforeHash: was?.kind === 'file' ? was.hash : null, afterHash });
        keepParents(path);
      } else {
        result.rolledBack.push(path);
        if (was?.kind === 'file') restores.push({ path, hash: was.hash as string, mode: was.mode });
        else deletions.push(path);
      }
    }

    await this.#rollBack(deletions, restores, createdDirs.filter((d) => !keptDirs.has(d) && !this.#allowed(d, false)), result, label);
    return result;
  }

  /** A file (or link) that existed before and is gone. */
  #judgeGone(path: string, was: Known, result: Reconciled, restores: { path: string; hash: string; mode: number }[]): void {
    if (was.kind !== 'file') {
      if (this.#allowed(path, true)) return;
      result.unrestored.push(`${path} (a ${was.kind} the command removed; it cannot be restored)`);
      return;
    }
    if (this.#allowed(path, true)) {
      result.accepted.push({ path, change: 'deleted', beforeHash: was.hash, afterHash: null });
      return;
    }
    result.rolledBack.push(path);
    restores.push({ path, hash: was.hash as string, mode: was.mode });
  }

  async #rollBack(
    deletions: string[],
    restores: { path: string; hash: string; mode: number }[],
    strayDirs: string[],
    result: Reconciled,
    label: string,
  ): Promise<void> {
    // Deletions first (a created directory may sit where a file is to be restored), then empty stray
    // directories, then the restores in one all-or-nothing batch.
    const deletable = deletions.filter((p) => !restores.some((r) => r.path === p));
    try {
      if (deletable.length > 0) await this.workspace.applyWrites(deletable.map((path) => ({ path, content: null })), `${label}: roll back`);
    } catch (error) {
      result.unrestored.push(...deletable.map((p) => `${p} (could not be removed: ${messageOf(error)})`));
    }
    await this.workspace.removeEmptyDirectories(strayDirs).catch(() => undefined);
    const writes: { path: string; content: Uint8Array; mode: number }[] = [];
    for (const r of restores) {
      const blob = await this.store.getBlob(r.hash);
      if (!blob || sha256Hex(blob) !== r.hash) {
        result.unrestored.push(`${r.path} (its checkpoint content is missing)`);
        continue;
      }
      writes.push({ path: r.path, content: blob, mode: r.mode });
    }
    try {
      if (writes.length > 0) await this.workspace.applyWrites(writes, `${label}: restore`);
    } catch (error) {
      result.unrestored.push(...writes.map((w) => `${w.path} (could not be restored: ${messageOf(error)})`));
    }
  }
}

function inScope(scope: readonly string[], untouchable: (rel: string) => boolean, rel: string): boolean {
  return scope.some((w) => pathWithin(rel, w)) && !untouchable(rel);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
