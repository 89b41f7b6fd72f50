/**
 * Private build outputs (Linux, bubblewrap): for one command, each folder of the spec's `privateOutputs`
 * (the folders git ignores outside the write scope: `dist`, `target`, `coverage`…) gets a private copy in
 * the command's own folder (privateDirs.ts), bound writable over the workspace path. What the command
 * writes there never reaches the workspace: there is nothing to roll back or checkpoint, and two commands
 * running side by side each write their own copy. The copy is removed with the command's folder.
 *
 * Per folder, in order:
 *   1. a symbolic link, a file or anything but a real folder: left as it is (read-only, like the workspace);
 *   2. missing: created empty on the host (only when its parent is a real folder of the workspace) so it can
 *      be mounted, and removed after the command if still empty and no other command of this process
 *      still has it mounted;
 *   3. more than COPY_MAX_ENTRIES entries or COPY_MAX_BYTES, or unreadable: NOT copied — it stays
 *      read-only, as without private outputs, and a note says so (a copy that size would cost most of a
 *      second per command; an empty one would hide from the command what the user built — its readers
 *      would fail where today they work);
 *   4. otherwise copied: folders, regular files (mode and times kept, so make and incremental compilers see
 *      what the user has), symbolic links as they are written (the kernel resolves them inside the
 *      sandbox); special files and hidden entries (secrets, ignored by `.planexecuteignore`) are not.
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { err, ok, type Result } from '../../core/contracts/result';
import { errorText } from '../../core/primitives/errorText';
import { isBelow, isWithin } from '../../core/primitives/paths';
import { hasCode, isDenied, isMissing } from '../fsErrors';
import { reportToHostLog } from '../hostLog';

/**
 * A folder with more entries (files, folders, links) than this is not copied: a copy costs about 0.2–0.5 ms
 * per entry on every command (measured with 5,000 entries: 2.3 s on a loaded 2-core machine).
 */
export const COPY_MAX_ENTRIES = 2_000;
/** Nor one whose files hold more than this. */
const COPY_MAX_BYTES = 64 * 1024 * 1024;

interface PrivateMount {
  /** The private copy (host path). */
  from: string;
  /** The workspace path it is mounted over (absolute). */
  at: string;
}

export interface PreparedOutputs {
  mounts: PrivateMount[];
  /** Existing folders left read-only (too large, unreadable): the runner binds them read-only. */
  readOnly: string[];
  /** After the command: removes the placeholders this command made (if empty and no longer used). */
  release(): void;
}

/** Placeholders this process made, with how many running commands mount them. */
const placeholderUsers = new Map<string, number>();

function realDir(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isDirectory() && fs.realpathSync.native(abs) === abs;
  } catch (error) {
    // Missing, behind a folder we may not search, or a link loop on the way: not a real folder to copy or mount.
    if (!isMissing(error) && !isDenied(error) && !hasCode(error, 'ELOOP')) throw error;
    return false;
  }
}

interface Listed {
  /** Relative to the folder, parents before children. */
  rel: string;
  kind: 'directory' | 'file' | 'symlink';
  stat: fs.Stats;
}

/** Why a folder is not copied (it stays read-only for the command): past a cap, or unreadable. */
interface NotCopied {
  why: string;
}

/** A folder's entries (one walk, one lstat each), stopping at the caps; special files are left out. */
function listTree(dir: string, skip: (abs: string) => boolean): Result<Listed[], NotCopied> {
  const entries: Listed[] = [];
  let bytes = 0;
  const stack = [''];
  try {
    while (stack.length > 0) {
      const rel = stack.pop() as string;
      for (const name of fs.readdirSync(rel === '' ? dir : nodePath.join(dir, rel))) {
        const child = rel === '' ? name : `${rel}/${name}`;
        const abs = nodePath.join(dir, child);
        if (skip(abs)) continue;
        const stat = fs.lstatSync(abs);
        const kind = stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : stat.isSymbolicLink() ? 'symlink' : undefined;
        if (kind === undefined) continue;
        entries.push({ rel: child, kind, stat });
        if (kind === 'directory') stack.push(child);
        else if (kind === 'file') bytes += stat.size;
        if (entries.length > COPY_MAX_ENTRIES) return err({ why: `more than ${COPY_MAX_ENTRIES} entries` });
        if (bytes > COPY_MAX_BYTES) return err({ why: `more than ${COPY_MAX_BYTES >> 20} MB` });
      }
    }
  } catch (error) {
    // Any error while walking fails closed: not copied, the folder stays read-only (the note names the code).
    return err({ why: `unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
  }
  return ok(entries);
}

/**
 * Copies a listed folder into `to` (which exists): folders first (owner-writable while filling), files
 * with their mode (copyFile keeps it) and times, links as written; then each folder's mode and times,
 * deepest first (filling a folder changes its times).
 */
function copyListed(from: string, to: string, entries: readonly Listed[]): void {
  for (const e of entries) {
    const src = nodePath.join(from, e.rel);
    const dst = nodePath.join(to, e.rel);
    if (e.kind === 'directory') fs.mkdirSync(dst, { mode: 0o700 });
    else if (e.kind === 'file') {
      fs.copyFileSync(src, dst, fs.constants.COPYFILE_FICLONE);
      fs.utimesSync(dst, e.stat.atime, e.stat.mtime);
    } else fs.symlinkSync(fs.readlinkSync(src), dst);
  }
  for (const e of [...entries].reverse()) if (e.kind === 'directory') keepModeAndTimes(e.stat, nodePath.join(to, e.rel));
}

function keepModeAndTimes(s: fs.Stats, dst: string): void {
  fs.chmodSync(dst, s.mode & 0o7777 & ~0o6000);
  fs.utimesSync(dst, s.atime, s.mtime);
}

/** Takes a placeholder for a missing folder: true when it is there now as a real folder. */
function placeholder(root: string, abs: string, taken: string[]): boolean {
  const parent = nodePath.dirname(abs);
  if (!isWithin(parent, root) || !realDir(parent)) return false;
  try {
    fs.mkdirSync(abs);
    placeholderUsers.set(abs, 1);
    taken.push(abs);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !realDir(abs)) return false;
    // Another command of this process made it a moment ago: shared until the last one is done.
    const users = placeholderUsers.get(abs);
    if (users !== undefined) {
      placeholderUsers.set(abs, users + 1);
      taken.push(abs);
    }
    return true;
  }
}

/**
 * The private copies for one command, made in `dir` (the command's own folder, removed after it).
 * `hidden`: absolute paths the command must not see — never copied.
 */
export function preparePrivateOutputs(root: string, rels: readonly string[], hidden: readonly string[], dir: string, notes: string[]): PreparedOutputs {
  const mounts: PrivateMount[] = [];
  const readOnly: string[] = [];
  const taken: string[] = [];
  const skip = (abs: string): boolean => hidden.some((h) => isWithin(abs, h));
  const release = (): void => {
    for (const abs of taken) {
      const users = (placeholderUsers.get(abs) ?? 1) - 1;
      if (users > 0) {
        placeholderUsers.set(abs, users);
        continue;
      }
      placeholderUsers.delete(abs);
      try {
        fs.rmdirSync(abs);
      } catch (error) {
        // Not empty (something outside the sandbox wrote there meanwhile) or gone: it stays as it is. Anything
        // else is reported, not thrown: the rest of the command's clean-up still has to run.
        if (!isMissing(error) && !hasCode(error, 'ENOTEMPTY', 'EEXIST'))
          reportToHostLog(`the placeholder folder ${abs} could not be removed: ${errorText(error)}`);
      }
    }
    taken.length = 0;
  };
  try {
    for (const rel of rels) {
      const at = nodePath.join(root, rel);
      if (!isBelow(at, root) || mounts.some((m) => isWithin(at, m.at))) continue;
      let exists = true;
      try {
        fs.lstatSync(at);
      } catch (error) {
        // Missing, behind a folder we may not search, or a link loop on the way: the placeholder decides (it
        // makes none where it cannot).
        if (!isMissing(error) && !isDenied(error) && !hasCode(error, 'ELOOP')) throw error;
        exists = false;
      }
      if (!exists && !placeholder(root, at, taken)) continue;
      const users = placeholderUsers.get(at);
      if (exists && users !== undefined) {
        // Another command of this process made it and runs still: shared until the last one is done.
        placeholderUsers.set(at, users + 1);
        taken.push(at);
      }
      if (!realDir(at)) continue; // a link, a file: as it is
      const listed = listTree(at, skip);
      if (!listed.ok) {
        notes.push(
          `${rel} is ignored by git but ${listed.error.why}: it stays read-only for this command (add ${rel}/** to the step's edit globs to write it)`,
        );
        readOnly.push(at);
        continue;
      }
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const from = nodePath.join(dir, String(mounts.length));
      fs.mkdirSync(from, { mode: 0o700 });
      copyListed(at, from, listed.value);
      keepModeAndTimes(fs.lstatSync(at), from);
      mounts.push({ from, at });
    }
  } catch (error) {
    release();
    throw error;
  }
  return { mounts, readOnly, release };
}
