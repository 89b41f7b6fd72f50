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
 *      read-only, as without private outputs, and a note says so (a copy that size would cost seconds per
 *      command; an empty one would hide from the command what the user built);
 *   4. otherwise copied: folders, regular files (mode and times kept, so make and incremental compilers see
 *      what the user has), symbolic links as they are written (the kernel resolves them inside the
 *      sandbox); special files and hidden entries (secrets, ignored by `.planexecuteignore`) are not.
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';

/** A folder with more entries (files, folders, links) than this is not copied. */
export const COPY_MAX_ENTRIES = 5_000;
/** Nor one whose files hold more than this. */
export const COPY_MAX_BYTES = 64 * 1024 * 1024;

export interface PrivateMount {
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

function isInside(root: string, p: string): boolean {
  return p === root || p.startsWith(`${root}/`);
}

function realDir(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isDirectory() && fs.realpathSync.native(abs) === abs;
  } catch {
    return false;
  }
}

type Measure = { ok: true } | { ok: false; why: string };

/** Counts a folder's entries and bytes, stopping at the caps. */
function measure(dir: string, skip: (abs: string) => boolean): Measure {
  let entries = 0;
  let bytes = 0;
  const stack = [dir];
  try {
    while (stack.length > 0) {
      const current = stack.pop() as string;
      for (const d of fs.readdirSync(current, { withFileTypes: true })) {
        const abs = nodePath.join(current, d.name);
        if (skip(abs)) continue;
        entries += 1;
        if (d.isDirectory()) stack.push(abs);
        else if (d.isFile()) bytes += fs.lstatSync(abs).size;
        if (entries > COPY_MAX_ENTRIES) return { ok: false, why: `more than ${COPY_MAX_ENTRIES} entries` };
        if (bytes > COPY_MAX_BYTES) return { ok: false, why: `more than ${COPY_MAX_BYTES >> 20} MB` };
      }
    }
  } catch (error) {
    return { ok: false, why: `unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  return { ok: true };
}

/** Copies a folder's content (see 4. at the top); `to` exists. */
function copyInto(from: string, to: string, skip: (abs: string) => boolean): void {
  for (const d of fs.readdirSync(from, { withFileTypes: true })) {
    const src = nodePath.join(from, d.name);
    const dst = nodePath.join(to, d.name);
    if (skip(src)) continue;
    if (d.isDirectory()) {
      fs.mkdirSync(dst, { mode: 0o700 });
      copyInto(src, dst, skip);
      keepModeAndTimes(src, dst);
    } else if (d.isFile()) {
      fs.copyFileSync(src, dst, fs.constants.COPYFILE_FICLONE);
      keepModeAndTimes(src, dst);
    } else if (d.isSymbolicLink()) {
      fs.symlinkSync(fs.readlinkSync(src), dst);
    }
  }
}

function keepModeAndTimes(src: string, dst: string): void {
  const s = fs.lstatSync(src);
  fs.chmodSync(dst, s.mode & 0o7777 & ~0o6000);
  fs.utimesSync(dst, s.atime, s.mtime);
}

/** Takes a placeholder for a missing folder: true when it is there now as a real folder. */
function placeholder(root: string, abs: string, taken: string[]): boolean {
  const parent = nodePath.dirname(abs);
  if (!isInside(root, parent) || !realDir(parent)) return false;
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
  const skip = (abs: string): boolean => hidden.some((h) => isInside(h, abs));
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
      } catch {
        // not empty: something outside the sandbox wrote there meanwhile; it stays
      }
    }
    taken.length = 0;
  };
  try {
    for (const rel of rels) {
      const at = nodePath.join(root, rel);
      if (!isInside(root, at) || at === root || mounts.some((m) => isInside(m.at, at))) continue;
      let exists = true;
      try {
        fs.lstatSync(at);
      } catch {
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
      const size = measure(at, skip);
      if (!size.ok) {
        notes.push(`${rel} is ignored by git but ${size.why}: it stays read-only for this command (add ${rel}/** to the step's edit globs to write it)`);
        readOnly.push(at);
        continue;
      }
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const from = nodePath.join(dir, String(mounts.length));
      fs.mkdirSync(from, { mode: 0o700 });
      copyInto(at, from, skip);
      keepModeAndTimes(at, from);
      mounts.push({ from, at });
    }
  } catch (error) {
    release();
    throw error;
  }
  return { mounts, readOnly, release };
}
