/**
 * Resolving a model-supplied path to a place inside the workspace, or refusing it. Order:
 *   1. syntax — non-empty string, no NUL/control/invisible characters, no backslash, no drive letter, no
 *      leading `~`, no `..` segment (refused outright, even when it would stay inside); an absolute path
 *      is accepted only when its segments start with those of a root alias (so `/ws/a` is `a` for root
 *      `/ws`, and `/ws-evil/a` is outside), and is then treated as the relative rest;
 *   2. normalisation — `.` and empty segments dropped, POSIX separators;
 *   3. containment — the deepest EXISTING ancestor is `realpath`ed and must be the real root or inside it
 *      (a prefix test on `root + separator`, so `/ws-evil` is not inside `/ws`). This catches symlinked
 *      files and directories that lead out, at any depth, and dangling or looping links.
 * The result carries both the lexical and the real relative path; rules downstream check both, so a link
 * inside the workspace cannot launder a protected target (link → .git/config).
 */
import * as nodePath from 'node:path';
import type { PolicyFs } from '../ports';
import { isWithinNative } from '../primitives/paths';

export type PathResolution =
  | { ok: true; rel: string; realRel: string; abs: string; exists: boolean; isDirectory: boolean; isSymlink: boolean }
  | { ok: false; rule: string; reason: string };

export const MAX_PATH_LENGTH = 4096;

function refuse(rule: string, reason: string): PathResolution {
  return { ok: false, rule, reason };
}

/** Path segments with empty and `.` segments dropped. */
function segmentsOf(path: string): string[] {
  return path.split('/').filter((s) => s !== '' && s !== '.');
}

/**
 * `rootAliases`: absolute spellings of the workspace root (its real path and the path the caller gave)
 * under which an absolute path is accepted; empty means every absolute path is refused.
 */
export function checkPathSyntax(raw: unknown, rootAliases: readonly string[] = []): { ok: true; rel: string } | { ok: false; rule: string; reason: string } {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, rule: 'path.invalid', reason: 'path must be a non-empty string' };
  if (raw.length > MAX_PATH_LENGTH) return { ok: false, rule: 'path.too_long', reason: 'path is too long' };
  if (raw.includes('\0')) return { ok: false, rule: 'path.nul', reason: 'path contains a NUL byte' };
  if (/[\u0001-\u001f\u007f-\u009f]/.test(raw)) return { ok: false, rule: 'path.control_chars', reason: 'path contains control characters' };
  if (/[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/.test(raw))
    return { ok: false, rule: 'path.invisible_chars', reason: 'path contains invisible or bidirectional-override characters' };
  if (raw.includes('\\')) return { ok: false, rule: 'path.backslash', reason: 'use forward slashes: backslashes are refused (Windows separators and escapes)' };
  if (/^[A-Za-z]:/.test(raw)) return { ok: false, rule: 'path.drive_letter', reason: 'drive-letter paths are refused; use a workspace-relative path' };
  if (raw.startsWith('~')) return { ok: false, rule: 'path.home', reason: 'home-directory paths (~) are refused; use a workspace-relative path' };
  if (raw.split('/').includes('..')) return { ok: false, rule: 'path.traversal', reason: '".." segments are refused' };
  let kept = segmentsOf(raw);
  if (raw.startsWith('/')) {
    if (rootAliases.length === 0) return { ok: false, rule: 'path.absolute', reason: 'absolute paths are refused; use a workspace-relative path' };
    const inside = rootAliases.map(segmentsOf).find((root) => root.length <= kept.length && root.every((s, i) => s === kept[i]));
    if (!inside) return { ok: false, rule: 'path.outside_workspace', reason: 'absolute path is outside the workspace; use a workspace-relative path' };
    kept = kept.slice(inside.length);
  }
  return { ok: true, rel: kept.length === 0 ? '.' : kept.join('/') };
}

/** Resolves `raw` against the real root; see the file comment for the order of checks. */
export function resolveWorkspacePath(realRoot: string, raw: unknown, fs: PolicyFs, rootAliases: readonly string[] = []): PathResolution {
  const syntax = checkPathSyntax(raw, rootAliases);
  if (!syntax.ok) return syntax;
  const rel = syntax.rel;
  const abs = rel === '.' ? realRoot : nodePath.join(realRoot, ...rel.split('/'));
  if (!isWithinNative(abs, realRoot)) return refuse('path.outside_workspace', 'path resolves outside the workspace');

  let existing = abs;
  const rest: string[] = [];
  let stat = fs.lstatSync(existing);
  while (!stat) {
    if (existing === realRoot) return refuse('path.unresolvable', 'the workspace root does not exist');
    rest.unshift(nodePath.basename(existing));
    existing = nodePath.dirname(existing);
    stat = fs.lstatSync(existing);
  }
  let real: string;
  try {
    real = fs.realpathSync(existing);
  } catch {
    return refuse('path.unresolvable', 'path goes through a dangling or looping symbolic link');
  }
  if (!isWithinNative(real, realRoot)) return refuse('path.symlink_escape', 'path goes through a symbolic link that leads outside the workspace');
  const realAbs = rest.length > 0 ? nodePath.join(real, ...rest) : real;
  const realRel = nodePath.relative(realRoot, realAbs).split(nodePath.sep).join('/') || '.';
  const exists = rest.length === 0;
  let isDirectory = exists && stat.isDirectory();
  if (exists && stat.isSymbolicLink()) isDirectory = fs.lstatSync(real)?.isDirectory() ?? false;
  return { ok: true, rel, realRel, abs, exists, isDirectory, isSymlink: exists && stat.isSymbolicLink() };
}
