/**
 * Build outputs: the workspace folders git ignores (`dist/`, `target`, `coverage`, `.pytest_cache/`…),
 * which the sandbox gives each command as a private, writable copy (sandboxSpec.ts `privateOutputs`;
 * src/node/sandbox/privateOutputs.ts makes the copies). Pure: the ignore files' text is passed in.
 *
 * Which folders, in order:
 *   1. every existing folder of the listing that git would ignore: the ignore files are applied as git does
 *      — `.git/info/exclude` first, then each `.gitignore` from the root down to the folder, a deeper file's
 *      verdict (negations too) winning over a shallower one; a `.gitignore` inside an ignored folder is not
 *      read (git does not read it either);
 *   2. every folder a pattern names literally, existing or not: `dist/`, `/build`, `target`, `out/**`,
 *      `packages/a/dist/` — relative to its ignore file's folder. A name without a trailing slash counts
 *      only when it has no dot (`target`, `coverage`; not `.eslintcache`, `npm-debug.log`: files, which a
 *      folder at their path would break), unless it exists as a folder (rule 1);
 *   3. only the topmost: a folder inside one already chosen is part of its copy.
 * The caller filters what must never be private (sandboxSpec.ts: write scope, protected, hidden).
 */
import ignore, { type Ignore } from 'ignore';
import * as posix from 'node:path/posix';
import type { ScanEntry } from '../ports';
import { isWithin, pathBelow } from '../primitives/paths';

/** One ignore file: the folder its patterns are relative to ('' = the workspace root) and its text. */
export interface IgnoreFile {
  dir: string;
  text: string;
  /** How to name it to the user (`.gitignore`, `build/.gitignore`, `.git/info/exclude`); default `<dir>/.gitignore`. */
  name?: string;
}

/** Characters that make a pattern a glob (gitignore syntax), and escapes. */
const MAGIC = /[*?[\]\\]/;

interface Matcher {
  dir: string;
  name: string;
  ig: Ignore;
}

function matcherOf(file: IgnoreFile): Matcher | undefined {
  try {
    return { dir: file.dir, name: file.name ?? (file.dir === '' ? '.gitignore' : `${file.dir}/.gitignore`), ig: ignore().add(file.text) };
  } catch {
    return undefined; // a file the library cannot read: no rules from it (git would report it, not ignore by it)
  }
}

/** A path made of plain segments (no '', '.', '..'), POSIX. */
function plainPath(rel: string): boolean {
  return rel !== '' && rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/**
 * The folder a pattern names literally, relative to its file's folder (rule 2), or undefined. `contents`:
 * the pattern (`out/**`) ignores what is inside the folder rather than the folder itself.
 */
function literalFolder(line: string): { path: string; contents: boolean } | undefined {
  let p = line.replace(/\r$/, '');
  if (p.trim() === '' || p.startsWith('#') || p.startsWith('!') || /\s$/.test(p)) return undefined;
  const contents = p.endsWith('/**');
  if (contents) p = `${p.slice(0, -3)}/`;
  const dirOnly = p.endsWith('/');
  p = p.replace(/^\/+/, '').replace(/\/+$/, '');
  if (!plainPath(p) || MAGIC.test(p)) return undefined;
  if (!dirOnly && posix.basename(p).includes('.')) return undefined;
  return { path: p, contents };
}

export interface IgnoredFolders {
  /** Whether git ignores a folder (rule 1), for one path. */
  ignored(rel: string): boolean;
  /** The topmost ignored folders, existing or named (rules 1–3), shallowest first. */
  folders: string[];
}

/**
 * Whether git ignores a path (file or folder), as git decides it: `.git/info/exclude` (and the user's
 * global excludes, passed the same way) first, then each `.gitignore` from the root down, a deeper file's
 * verdict winning; a path inside an ignored folder is ignored whatever a deeper file says.
 */
function gitIgnoreMatcher(files: readonly IgnoreFile[], excludes: readonly string[] = []): (rel: string, isDirectory: boolean) => boolean {
  const why = gitIgnoreReason(
    files,
    excludes.map((text) => ({ dir: '', text })),
  );
  return (rel, isDirectory) => why(rel, isDirectory) !== undefined;
}

/** Why git ignores a path: the file and pattern that do, and the ignored folder it lies in (if that is what is ignored). */
export interface IgnoredBy {
  file: string;
  pattern: string;
  folder?: string;
}

/** `ignored by .gitignore (dist/)`, or `in tmp/, which .gitignore ignores (tmp/)`. */
export function ignoredText(by: IgnoredBy): string {
  return by.folder === undefined ? `ignored by ${by.file} (${by.pattern})` : `in ${by.folder}/, which ${by.file} ignores (${by.pattern})`;
}

/**
 * The same decision, with its reason (see `IgnoredBy`); undefined when git does not ignore the path.
 * `excludes` are read first, in order (name them: `.git/info/exclude`, the global excludes file).
 */
export function gitIgnoreReason(
  files: readonly IgnoreFile[],
  excludes: readonly IgnoreFile[] = [],
): (rel: string, isDirectory: boolean) => IgnoredBy | undefined {
  const base = excludes.map((f) => matcherOf({ ...f, dir: '' })).filter((m): m is Matcher => m !== undefined);
  const matchers = files
    .map(matcherOf)
    .filter((m): m is Matcher => m !== undefined)
    .sort((a, b) => depthOf(a.dir) - depthOf(b.dir));
  const all = [...base, ...matchers];
  const verdict = (rel: string, isDirectory: boolean): IgnoredBy | undefined => {
    let by: IgnoredBy | undefined;
    for (const m of all) {
      const sub = pathBelow(rel, m.dir);
      if (sub === undefined) continue;
      try {
        const r = m.ig.test(isDirectory ? `${sub}/` : sub);
        if (r.ignored) by = { file: m.name, pattern: r.rule?.pattern ?? sub };
        else if (r.unignored) by = undefined;
      } catch {
        // a path the library cannot judge: no verdict from this file
      }
    }
    return by;
  };
  const memo = new Map<string, IgnoredBy | undefined>();
  const folderIgnored = (rel: string): IgnoredBy | undefined => {
    if (memo.has(rel)) return memo.get(rel);
    const parent = posix.dirname(rel);
    const above = parent !== '.' ? folderIgnored(parent) : undefined;
    const result = above ?? verdict(rel, true);
    memo.set(rel, result);
    return result;
  };
  return (rel, isDirectory) => {
    if (!plainPath(rel)) return undefined;
    const parent = posix.dirname(rel);
    const above = parent !== '.' ? folderIgnored(parent) : undefined;
    if (above !== undefined) return { ...above, folder: topIgnored(parent, folderIgnored) };
    return isDirectory ? folderIgnored(rel) : verdict(rel, false);
  };
}

/** The topmost ignored folder at or above `rel` (the one a reason names). */
function topIgnored(rel: string, ignored: (rel: string) => IgnoredBy | undefined): string {
  let top = rel;
  for (let p = posix.dirname(rel); p !== '.' && ignored(p) !== undefined; p = posix.dirname(p)) top = p;
  return top;
}

export function gitIgnoredFolders(entries: readonly ScanEntry[], files: readonly IgnoreFile[], exclude?: string): IgnoredFolders {
  const matches = gitIgnoreMatcher(files, exclude ? [exclude] : []);
  const verdict = (rel: string): boolean => matches(rel, true);
  const ignored = verdict;
  const candidates = new Set<string>();
  for (const e of entries) if (e.kind === 'directory' && plainPath(e.path) && verdict(e.path)) candidates.add(e.path);
  const named = (dir: string, text: string): void => {
    for (const line of text.split('\n')) {
      const literal = literalFolder(line);
      if (literal === undefined) continue;
      const rel = dir === '' ? literal.path : `${dir}/${literal.path}`;
      // As git reads it all (a deeper `!dist/` wins): the folder ignored, or, for `out/**`, what it holds.
      if (verdict(rel) || (literal.contents && verdict(`${rel}/x`))) candidates.add(rel);
    }
  };
  if (exclude) named('', exclude);
  // A .gitignore in an ignored folder is not git's to read.
  for (const file of files) if (file.dir === '' || !ignored(file.dir)) named(file.dir, file.text);
  const sorted = [...candidates].sort((a, b) => depthOf(a) - depthOf(b) || (a < b ? -1 : a > b ? 1 : 0));
  const folders: string[] = [];
  for (const rel of sorted) if (!folders.some((f) => isWithin(rel, f)) && !ancestorIgnored(rel, ignored)) folders.push(rel);
  return { ignored, folders };
}

/** Whether a folder above `rel` is ignored (then `rel` is inside an ignored folder, not the topmost one). */
function ancestorIgnored(rel: string, ignored: (rel: string) => boolean): boolean {
  const parent = posix.dirname(rel);
  return parent !== '.' && ignored(parent);
}

function depthOf(rel: string): number {
  return rel === '' ? 0 : rel.split('/').length;
}

/** The ignore files a listing holds: each regular `.gitignore` (its folder's patterns). */
export function ignoreFilesIn(entries: readonly ScanEntry[]): string[] {
  return entries.filter((e) => e.kind === 'file' && posix.basename(e.path) === '.gitignore').map((e) => e.path);
}
