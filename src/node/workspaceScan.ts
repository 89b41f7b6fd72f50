/**
 * The Workspace port's scan on the local file system: every entry below the workspace root (or below the
 * `under` roots), folders entered unless `prune` says not to, never through a link. Synchronous on purpose:
 * a scan brackets every command, and thousands of awaited lstat calls cost far more than the same calls
 * made in one go.
 *
 * With a memo (ScanOptions.memo) a scan costs what changed, not the size of the workspace: each folder's
 * listing is kept with the folder's inode and modification time, which the kernel moves whenever a name in
 * it is added, removed or renamed — so the next scan lstats each folder it enters and re-reads only those
 * that moved, handing back the same entry objects for the rest (what the engine remembers per entry stays
 * valid). A folder whose time is within RACY_MS of the scan is never kept: a change in the same clock tick
 * could leave its time as it was (git's "racily clean" entries, the same cure).
 *
 * Two more steps make an unchanged workspace cost its folders, not its entries:
 *   - a folder read again hands back the entry objects it held before for every name still there with the
 *     same kind (an entry without details is its name and kind, nothing else), so what the engine
 *     remembers per entry survives a change next to it;
 *   - when every folder the last whole scan entered is still as it was (one lstat each), the last result is
 *     handed back as it was, the same array: no folder's names changed, so no entry did, and the walk —
 *     the same `prune`, the memo's contract, and the same `limit` and `detail` function — would enter the
 *     same folders in the same order. Only for a scan whose every entry was named by its folder alone (a
 *     `detail` that said no to each, no `under`): a detail (size, mode) can change without its folder's
 *     time moving. The array is frozen: it is shared.
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { ScanEntry, ScanOptions, ScanResult } from '../core/ports';
import { checkPathSyntax } from '../core/policy/workspacePath';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A folder modified this recently is listed again at the next scan, whatever its time says. */
const RACY_MS = 2000;

/** The names in a folder that are not UTF-8, shown with their bytes escaped (they cannot be named as strings). */
function namesNotUtf8(abs: string, rel: string): string[] {
  try {
    return fs.readdirSync(abs, { encoding: 'buffer' }).flatMap((raw) => {
      try {
        strictUtf8.decode(raw);
        return [];
      } catch {
        // TypeError from the fatal decoder: the name is not UTF-8.
        const shown = [...raw].map((b) => (b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
        return [rel === '' ? shown : `${rel}/${shown}`];
      }
    });
  } catch {
    // The folder went away or cannot be listed: the scan meets it itself when it lists the folder.
    return [];
  }
}

/** One folder as listed: its entries with names and kinds only (sorted by name), and its names that are not UTF-8. */
interface Listed {
  children: ScanEntry[];
  unnamable: string[];
}

/** What a memo holds per folder: the listing, and the folder's identity and time when it was read. */
interface Remembered extends Listed {
  ino: bigint;
  mtimeNs: bigint;
}

/** The last whole scan that can be handed back: its result, its limit, and each folder it entered as it was then. */
interface LastScan {
  result: ScanResult;
  limit: number;
  detail: ScanOptions['detail'];
  visited: [string, Remembered][];
}

interface MemoState {
  folders: Map<string, Remembered>;
  last?: LastScan;
}

/** Name and kind from the listing itself (the dirent type; Node stats only where the file system gives none). */
function light(rel: string, d: fs.Dirent): ScanEntry {
  return {
    path: rel,
    kind: d.isFile() ? 'file' : d.isDirectory() ? 'directory' : d.isSymbolicLink() ? 'symlink' : 'other',
    size: 0,
    mode: 0,
    signature: '',
  };
}

/** An entry with everything the port offers: size, mode, signature, links, a link's target. */
function detailed(root: string, rel: string): ScanEntry | undefined {
  let s: fs.BigIntStats;
  try {
    s = fs.lstatSync(nodePath.join(root, rel), { bigint: true });
  } catch {
    return undefined; // gone (or unreadable) since its folder was listed: not an entry of the scan
  }
  const kind = s.isFile() ? 'file' : s.isDirectory() ? 'directory' : s.isSymbolicLink() ? 'symlink' : 'other';
  let target: string | undefined;
  if (kind === 'symlink') {
    try {
      target = fs.readlinkSync(nodePath.join(root, rel));
    } catch {
      target = undefined; // replaced or removed since the lstat: the entry says it has no target
    }
  }
  return {
    path: rel,
    kind,
    size: Number(s.size),
    mode: Number(s.mode) & 0o7777,
    signature: `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.mode}:${target ?? ''}`,
    links: Number(s.nlink),
    ...(target !== undefined ? { target } : {}),
  };
}

const unchanged = (known: Remembered | undefined, stat: fs.BigIntStats): known is Remembered =>
  known !== undefined && known.ino === stat.ino && known.mtimeNs === stat.mtimeNs;

/** Reads one folder, or takes it from the memo when it has not moved (`reread` says which); throws what readdir throws. */
function listFolder(root: string, dir: string, memo: MemoState | undefined, now: number): Listed & { reread: boolean } {
  const abs = dir === '' ? root : nodePath.join(root, dir);
  // The folder's time is read BEFORE its names: a change in between moves it past what is kept.
  const stat = memo ? fs.lstatSync(abs, { bigint: true }) : undefined;
  const known = memo?.folders.get(dir);
  if (stat && unchanged(known, stat)) return { ...known, reread: false };
  const names = fs.readdirSync(abs, { withFileTypes: true });
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // What the folder held before, by path: a name still there as the same kind is the same entry.
  const before = known ? new Map(known.children.map((c) => [c.path, c])) : undefined;
  const listed: Listed = {
    children: names.map((d) => {
      const e = light(dir === '' ? d.name : `${dir}/${d.name}`, d);
      const was = before?.get(e.path);
      return was?.kind === e.kind ? was : e;
    }),
    unnamable: names.some((d) => d.name.includes('\uFFFD')) ? namesNotUtf8(abs, dir) : [],
  };
  if (memo && stat) {
    if (now - Number(stat.mtimeMs) >= RACY_MS) memo.folders.set(dir, { ...listed, ino: stat.ino, mtimeNs: stat.mtimeNs });
    else memo.folders.delete(dir);
  }
  return { ...listed, reread: true };
}

/** The last whole scan, when every folder it entered is still as the memo holds it (one lstat each). */
function lastIfUnchanged(root: string, memo: MemoState, options: ScanOptions): ScanResult | undefined {
  const last = memo.last;
  if (last?.limit !== options.limit || last.detail !== options.detail) return undefined;
  for (const [dir, was] of last.visited) {
    let stat: fs.BigIntStats | undefined;
    try {
      stat = fs.lstatSync(dir === '' ? root : nodePath.join(root, dir), { bigint: true });
    } catch {
      return undefined; // gone or unreadable: the walk says what became of it
    }
    if (!unchanged(was, stat)) return undefined;
  }
  return last.result;
}

export function scanWorkspace(root: string, options: ScanOptions): ScanResult {
  const entries: ScanEntry[] = [];
  const unreadable: string[] = [];
  const unnamable: string[] = [];
  const pending: string[] = [];
  const memo = options.memo ? ((options.memo.state ??= { folders: new Map() }) as MemoState) : undefined;
  // Handed back whole only where every entry comes from its folder's names alone (see the header).
  const whole = memo !== undefined && options.under === undefined && options.detail !== undefined;
  if (whole) {
    const last = lastIfUnchanged(root, memo, options);
    if (last) return last;
  }
  // Whether this walk can be handed back next time: no entry needed its details, every folder could be
  // listed (and, checked at the end, each is kept in the memo: none changed within the racy window).
  let reusable = whole;
  const visited = new Set<string>();
  const now = Date.now();
  // Scan roots may nest (a write root below a folder root): each path is listed, and entered, once.
  const listed = new Set<string>();
  for (const start of options.under ?? ['']) {
    if (start === '' || start === '.') {
      pending.push('');
      continue;
    }
    // A root below which to scan: listed itself, entered when it is a real folder (never through a link).
    if (checkPathSyntax(start).ok === false || start.split('/').includes('..')) continue;
    const e = detailed(root, start);
    if (!e || listed.has(start)) continue;
    listed.add(start);
    entries.push(e);
    if (e.kind === 'directory' && !options.prune(start)) pending.push(start);
  }
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let folder: ReturnType<typeof listFolder>;
    try {
      folder = listFolder(root, dir, memo, now);
    } catch (error) {
      // Vanished is nothing; anything else (a path past PATH_MAX, no permission) is content we cannot see.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') unreadable.push(dir);
      reusable = false;
      continue;
    }
    visited.add(dir);
    unnamable.push(...folder.unnamable);
    const subdirs: string[] = [];
    for (const child of folder.children) {
      if (entries.length >= options.limit) {
        if (memo) delete memo.last;
        return { entries, truncated: true, unreadable };
      }
      const rel = child.path;
      if (listed.has(rel)) continue;
      const bare = options.detail !== undefined && !options.detail(rel);
      const e = bare ? child : detailed(root, rel);
      if (!e) continue;
      if (!bare) reusable = false;
      entries.push(e);
      if (e.kind === 'directory' && !options.prune(rel)) subdirs.push(rel);
    }
    pending.push(...subdirs.reverse());
  }
  // Folders no longer reached (removed, or now pruned) are forgotten; a scan of part of the tree keeps the rest.
  if (memo && options.under === undefined) for (const dir of memo.folders.keys()) if (!visited.has(dir)) memo.folders.delete(dir);
  const result: ScanResult = { entries, truncated: false, unreadable, ...(unnamable.length > 0 ? { unnamable } : {}) };
  if (memo && whole) {
    const held = [...visited].map((dir): [string, Remembered | undefined] => [dir, memo.folders.get(dir)]);
    if (reusable && unreadable.length === 0 && held.every((h): h is [string, Remembered] => h[1] !== undefined)) {
      Object.freeze(entries);
      memo.last = { result, limit: options.limit, detail: options.detail, visited: held };
    } else delete memo.last;
  }
  return result;
}
