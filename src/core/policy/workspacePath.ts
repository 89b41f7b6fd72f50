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
import { ok, type Result } from '../contracts/result';
import type { PolicyFs } from '../ports';
import { isWithinNative } from '../primitives/paths';
import { deny, type PolicyDenial } from './denial';

/** A path inside the workspace, by its lexical and its real relative path. */
export type ResolvedPath = { rel: string; realRel: string; abs: string; exists: boolean; isDirectory: boolean; isSymlink: boolean };
export type PathResolution = Result<ResolvedPath, PolicyDenial>;

export const MAX_PATH_LENGTH = 4096;

/** Path segments with empty and `.` segments dropped. */
function segmentsOf(path: string): string[] {
  return path.split('/').filter((s) => s !== '' && s !== '.');
}

/**
 * `rootAliases`: absolute spellings of the workspace root (its real path and the path the caller gave)
 * under which an absolute path is accepted; empty means every absolute path is refused.
 */
export function checkPathSyntax(raw: unknown, rootAliases: readonly string[] = []): Result<string, PolicyDenial> {
  if (typeof raw !== 'string' || raw.length === 0) return deny('path.invalid', 'path must be a non-empty string');
  if (raw.length > MAX_PATH_LENGTH) return deny('path.too_long', 'path is too long');
  if (raw.includes('\0')) return deny('path.nul', 'path contains a NUL byte');
  if (/[\u0001-\u001f\u007f-\u009f]/.test(raw)) return deny('path.control_chars', 'path contains control characters');
  if (/[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/.test(raw))
    return deny('path.invisible_chars', 'path contains invisible or bidirectional-override characters');
  if (raw.includes('\\')) return deny('path.backslash', 'use forward slashes: backslashes are refused (Windows separators and escapes)');
  if (/^[A-Za-z]:/.test(raw)) return deny('path.drive_letter', 'drive-letter paths are refused; use a workspace-relative path');
  if (raw.startsWith('~')) return deny('path.home', 'home-directory paths (~) are refused; use a workspace-relative path');
  if (raw.split('/').includes('..')) return deny('path.traversal', '".." segments are refused');
  let kept = segmentsOf(raw);
  if (raw.startsWith('/')) {
    if (rootAliases.length === 0) return deny('path.absolute', 'absolute paths are refused; use a workspace-relative path');
    const inside = rootAliases.map(segmentsOf).find((root) => root.length <= kept.length && root.every((s, i) => s === kept[i]));
    if (!inside) return deny('path.outside_workspace', 'absolute path is outside the workspace; use a workspace-relative path');
    kept = kept.slice(inside.length);
  }
  return ok(kept.length === 0 ? '.' : kept.join('/'));
}

/** Resolves `raw` against the real root; see the file comment for the order of checks. */
export function resolveWorkspacePath(realRoot: string, raw: unknown, fs: PolicyFs, rootAliases: readonly string[] = []): PathResolution {
  const syntax = checkPathSyntax(raw, rootAliases);
  if (!syntax.ok) return syntax;
  const rel = syntax.value;
  const abs = rel === '.' ? realRoot : nodePath.join(realRoot, ...rel.split('/'));
  if (!isWithinNative(abs, realRoot)) return deny('path.outside_workspace', 'path resolves outside the workspace');

  let existing = abs;
  const rest: string[] = [];
  let stat = fs.lstatSync(existing);
  while (!stat) {
    if (existing === realRoot) return deny('path.unresolvable', 'the workspace root does not exist');
    rest.unshift(nodePath.basename(existing));
    existing = nodePath.dirname(existing);
    stat = fs.lstatSync(existing);
  }
  let real: string;
  try {
    // An entry that is not a link is where its folder really is: one resolution per folder, which a caller
    // judging many paths can hold for the judgement (the same answer as resolving the entry itself).
    real =
      existing !== realRoot && !stat.isSymbolicLink()
        ? nodePath.join(fs.realpathSync(nodePath.dirname(existing)), nodePath.basename(existing))
        : fs.realpathSync(existing);
  } catch {
    return deny('path.unresolvable', 'path goes through a dangling or looping symbolic link');
  }
  if (!isWithinNative(real, realRoot)) return deny('path.symlink_escape', 'path goes through a symbolic link that leads outside the workspace');
  const realAbs = rest.length > 0 ? nodePath.join(real, ...rest) : real;
  const realRel = nodePath.relative(realRoot, realAbs).split(nodePath.sep).join('/') || '.';
  const exists = rest.length === 0;
  let isDirectory = exists && stat.isDirectory();
  if (exists && stat.isSymbolicLink()) isDirectory = fs.lstatSync(real)?.isDirectory() ?? false;
  return ok({ rel, realRel, abs, exists, isDirectory, isSymlink: exists && stat.isSymbolicLink() });
}
