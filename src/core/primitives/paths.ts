/**
 * Path containment: the one place that decides whether a path lies in a folder. Every function takes the
 * path first and the folder second, and compares whole segments, so `/a/bc` is not in `/a/b`.
 *
 * The paths are compared as spelled: both absolute or both workspace-relative, already normalised (no `.`
 * or `..` segments, no doubled separators). Nothing here resolves `..` or links; that is the caller's
 * job (`policy/workspacePath.ts` does it for model-supplied paths), and a `..` segment is just a name.
 *
 * - `isWithin` and friends use `/`, the separator of workspace-relative paths and of every absolute path
 *   the sandbox sees (Linux, macOS). A trailing `/` on the folder is ignored, so `/` holds every absolute
 *   path. Workspace-relative paths name the workspace root `''`: the folder `''` holds every relative path
 *   (and not an absolute one).
 * - `isWithinNative` and `isBelowNative` use the platform's separator (`\` on Windows), for real paths on
 *   the disk of the machine the extension runs on. There `''` is not special.
 */
import { sep as platformSep } from 'node:path';

/** The workspace root as a workspace-relative folder: it holds every relative path. */
export const WORKSPACE_ROOT = '';

function within(path: string, dir: string, sep: string): boolean {
  if (path === dir) return true;
  if (!dir.endsWith(sep)) return path.startsWith(dir + sep);
  // `dir` spelled with a trailing separator: `/a/` holds `/a` and `/a/b`; `/` holds every absolute path.
  return path.startsWith(dir) || (dir.length > 1 && path === dir.slice(0, -1));
}

/** `path` is `dir` or lies below it ('/'-separated; `dir` '' is the workspace root and holds every relative path). */
export function isWithin(path: string, dir: string): boolean {
  if (dir === WORKSPACE_ROOT) return !path.startsWith('/');
  return within(path, dir, '/');
}

/** `path` lies below `dir`, not at it (the strict form of `isWithin`, same rules). */
export function isBelow(path: string, dir: string): boolean {
  return isWithin(path, dir) && path !== dir && `${path}/` !== dir;
}

/**
 * `path` (workspace-relative) is one of `dirs` or lies below one of them — found by looking up the path's
 * own folders, so the cost is the path's depth, not the number of folders (a judge over 100,000 entries
 * stays linear).
 */
export function isWithinAny(path: string, dirs: ReadonlySet<string>): boolean {
  if (dirs.size === 0) return false;
  if (dirs.has(WORKSPACE_ROOT) || dirs.has(path)) return true;
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) if (dirs.has(path.slice(0, i))) return true;
  return false;
}

/** Either path holds the other: a change at one can touch the other. */
export function pathsOverlap(a: string, b: string): boolean {
  return isWithin(a, b) || isWithin(b, a);
}

/** What follows `dir/` in `path` when `path` lies below `dir` (see `isBelow`); undefined otherwise. */
export function pathBelow(path: string, dir: string): string | undefined {
  if (!isBelow(path, dir)) return undefined;
  if (dir === WORKSPACE_ROOT) return path;
  return path.slice(dir.endsWith('/') ? dir.length : dir.length + 1);
}

/** `path` is `dir` or lies below it, with the platform's separator (real paths on this machine's disk). */
export function isWithinNative(path: string, dir: string): boolean {
  return within(path, dir, platformSep);
}

/** `path` lies below `dir`, with the platform's separator (the strict form of `isWithinNative`). */
export function isBelowNative(path: string, dir: string): boolean {
  return within(path, dir, platformSep) && path !== dir && path + platformSep !== dir;
}
