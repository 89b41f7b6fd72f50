/**
 * What git records for the workspace (HEAD's commit and the index), around a command of a step granted git
 * writes. Such a command may write git's data, and git's data is not judged file by file: a command can
 * stage and commit a blob for any path — `.github/workflows/ci.yml`, `.vscode/tasks.json` — that never
 * exists in the working tree, and hide it from `git status` with `--skip-worktree`. The next push, checkout
 * or "discard changes" then delivers it. So, after the command, every path whose recorded content changed
 * is listed with whether the record still matches the working tree; the engine (commandRun.ts) refuses
 * those outside the step's edit globs that do not, and `resetGitRecord` puts HEAD's branch and the index
 * back as they were.
 *
 * git runs here on the host, outside the sandbox — as the user's own git and their editor's Git view do —
 * with hooks and fsmonitor turned off, and without taking optional locks.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { GitMark, GitRecorded } from '../core/ports';

const SAFE = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false'];

function git(root: string, args: string[], input?: Buffer): { ok: boolean; out: string } {
  const r = spawnSync('git', [...SAFE, ...args], {
    cwd: root, encoding: 'utf8', timeout: 30_000, maxBuffer: 64 * 1024 * 1024,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/', GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LANG: 'C' },
    ...(input !== undefined ? { input } : {}),
  });
  return { ok: r.status === 0, out: r.stdout ?? '' };
}

const names = (out: string): string[] => out.split('\0').filter((p) => p !== '');

/** HEAD's commit (or git's empty tree when unborn), its branch, and the index file's bytes; null outside a repository. */
export function markGitRecord(root: string): GitMark | null {
  if (!git(root, ['rev-parse', '--is-inside-work-tree']).ok) return null;
  const top = git(root, ['rev-parse', '--show-toplevel']).out.trim();
  if (top && fs.realpathSync.native(top) !== root) return null; // a repository above the workspace: not the step's to write
  const head = git(root, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']).out.trim() || null;
  const branch = git(root, ['symbolic-ref', '-q', 'HEAD']).out.trim() || null;
  const indexPath = nodePath.resolve(root, git(root, ['rev-parse', '--git-path', 'index']).out.trim());
  let index: Uint8Array | null = null;
  try {
    index = new Uint8Array(fs.readFileSync(indexPath));
  } catch {
    index = null;
  }
  return { head, branch, indexPath, index };
}

/** Every path whose recorded content (index or HEAD) changed since `mark`, and whether the record matches the working tree. */
export function gitRecordedSince(root: string, mark: GitMark): GitRecorded[] {
  const empty = git(root, ['hash-object', '-t', 'tree', '--stdin'], Buffer.alloc(0)).out.trim();
  const before = mark.head ?? empty;
  const head = git(root, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']).out.trim() || null;
  const after = head ?? empty;
  const changed = new Set([
    ...names(git(root, ['diff-index', '--cached', '-r', '--name-only', '-z', '--no-renames', before]).out),
    ...(after !== before ? names(git(root, ['diff-tree', '-r', '--name-only', '-z', '--no-renames', before, after]).out) : []),
  ]);
  if (changed.size === 0) return [];
  // What git records but the working tree does not hold: HEAD vs the tree, the index vs the tree, and
  // entries git was told not to look at (skip-worktree: S; assume-unchanged: a lower-case tag).
  const mismatched = new Set([
    // Porcelain diff compares content where the index's stat data is stale (plumbing would report those).
    ...names(git(root, ['diff', '--no-ext-diff', '--no-textconv', '--name-only', '-z', '--no-renames', after]).out),
    ...names(git(root, ['diff', '--no-ext-diff', '--no-textconv', '--name-only', '-z', '--no-renames']).out),
    ...names(git(root, ['ls-files', '-v', '-z']).out).filter((l) => /^(S|[a-z]) /.test(l)).map((l) => l.slice(2)),
  ]);
  return [...changed].sort().map((path) => ({ path, matchesWorktree: !mismatched.has(path) }));
}

/** Puts HEAD's branch (or a detached HEAD) and the index back as `mark` found them; returns what could not be. */
export function resetGitRecord(root: string, mark: GitMark): string[] {
  const problems: string[] = [];
  const ref = mark.branch ?? 'HEAD';
  const now = git(root, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']).out.trim() || null;
  if (now !== mark.head) {
    const args = mark.head ? ['update-ref', '--no-deref', ref, mark.head] : ['update-ref', '-d', ref];
    if (mark.branch && git(root, ['symbolic-ref', '-q', 'HEAD']).out.trim() !== mark.branch) {
      if (!git(root, ['symbolic-ref', 'HEAD', mark.branch]).ok) problems.push(`HEAD (could not point it at ${mark.branch} again)`);
    }
    if (!git(root, args).ok) problems.push(`${ref} (could not be put back to ${mark.head ?? 'unborn'})`);
  }
  try {
    if (mark.index === null) fs.rmSync(mark.indexPath, { force: true });
    else {
      const temp = `${mark.indexPath}.pe-restore`;
      fs.writeFileSync(temp, mark.index);
      fs.renameSync(temp, mark.indexPath);
    }
  } catch (error) {
    problems.push(`the git index (could not be restored: ${error instanceof Error ? error.message : String(error)})`);
  }
  return problems;
}
