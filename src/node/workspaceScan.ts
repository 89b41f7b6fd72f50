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
        const shown = [...raw].map((b) => (b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
        return [rel === '' ? shown : `${rel}/${shown}`];
      }
    });
  } catch {
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

type MemoState = Map<string, Remembered>;

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
    return undefined;
  }
  const kind = s.isFile() ? 'file' : s.isDirectory() ? 'directory' : s.isSymbolicLink() ? 'symlink' : 'other';
  let target: string | undefined;
  if (kind === 'symlink') {
    try {
      target = fs.readlinkSync(nodePath.join(root, rel));
    } catch {
      target = undefined;
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

/** Reads one folder, or takes it from the memo when it has not moved; throws what readdir throws. */
function listFolder(root: string, dir: string, memo: MemoState | undefined, now: number): Listed {
  const abs = dir === '' ? root : nodePath.join(root, dir);
  // The folder's time is read BEFORE its names: a change in between moves it past what is kept.
  const stat = memo ? fs.lstatSync(abs, { bigint: true }) : undefined;
  const known = memo?.get(dir);
  if (stat && known && known.ino === stat.ino && known.mtimeNs === stat.mtimeNs) return known;
  const names = fs.readdirSync(abs, { withFileTypes: true });
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const listed: Listed = {
    children: names.map((d) => light(dir === '' ? d.name : `${dir}/${d.name}`, d)),
    unnamable: names.some((d) => d.name.includes('\uFFFD')) ? namesNotUtf8(abs, dir) : [],
  };
  if (memo && stat) {
    if (now - Number(stat.mtimeMs) >= RACY_MS) memo.set(dir, { ...listed, ino: stat.ino, mtimeNs: stat.mtimeNs });
    else memo.delete(dir);
  }
  return listed;
}

export function scanWorkspace(root: string, options: ScanOptions): ScanResult {
  const entries: ScanEntry[] = [];
  const unreadable: string[] = [];
  const unnamable: string[] = [];
  const pending: string[] = [];
  const memo = options.memo ? ((options.memo.state ??= new Map()) as MemoState) : undefined;
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
    let folder: Listed;
    try {
      folder = listFolder(root, dir, memo, now);
    } catch (error) {
      // Vanished is nothing; anything else (a path past PATH_MAX, no permission) is content we cannot see.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') unreadable.push(dir);
      continue;
    }
    visited.add(dir);
    unnamable.push(...folder.unnamable);
    const subdirs: string[] = [];
    for (const child of folder.children) {
      if (entries.length >= options.limit) return { entries, truncated: true, unreadable };
      const rel = child.path;
      if (listed.has(rel)) continue;
      const e = options.detail && !options.detail(rel) ? child : detailed(root, rel);
      if (!e) continue;
      entries.push(e);
      if (e.kind === 'directory' && !options.prune(rel)) subdirs.push(rel);
    }
    pending.push(...subdirs.reverse());
  }
  // Folders no longer reached (removed, or now pruned) are forgotten; a scan of part of the tree keeps the rest.
  if (memo && options.under === undefined) for (const dir of memo.keys()) if (!visited.has(dir)) memo.delete(dir);
  return { entries, truncated: false, unreadable, ...(unnamable.length > 0 ? { unnamable } : {}) };
}
