/**
 * What git records for the workspace (the index, and the commits its refs point at), around a command of a
 * step granted git writes. Such a command may write git's data, and git's data is not judged file by file:
 * a command can stage and commit a blob for any path — `.github/workflows/ci.yml`, `.vscode/tasks.json` —
 * that never exists in the working tree, hide it from `git status` with `--skip-worktree`, or put it in a
 * new tag, branch or stash entry. The next push, checkout, `stash pop` or "discard changes" then delivers
 * it. So, after the command, every path that the index or a commit new since the mark records is listed
 * with whether that record matches the working tree; the engine (commandRun.ts) refuses those outside the
 * step's edit globs that do not, and `resetGitRecord` puts every ref, HEAD and the index back.
 *
 * git runs here on the host, outside the sandbox — as the user's own git and their editor's Git view do —
 * with hooks and fsmonitor turned off, and without taking optional locks.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { GitMark, GitRecorded } from '../core/ports';
import { HOST_PATH, hostTool } from './sandbox/hostTools';
import { errorText } from '../core/primitives/errorText';

/**
 * Options every git call of ours runs with: no hooks, no fsmonitor (a program the repository's config can
 * name), no untracked cache, and no replace refs (`refs/replace/…` make a commit show another's content:
 * the record would be judged on what the replacement shows, and shipped as what it really holds).
 */
export const SAFE_GIT_OPTIONS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false'];

/** The environment of our git calls (PATH only the system's folders: a step may have written a `git` into a workspace folder on PATH). */
export function safeGitEnv(home: string): Record<string, string> {
  return { PATH: HOST_PATH, HOME: home, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_NO_REPLACE_OBJECTS: '1', LANG: 'C' };
}

/** Runs git with arguments (and optional standard input); `out` is its standard output. */
export type GitRun = (args: string[], input?: string) => { ok: boolean; out: string };

/** git on the host, in `root`, by absolute path. */
function hostGit(root: string): GitRun {
  const file = hostTool('git');
  return (args, input) => {
    if (file === undefined) return { ok: false, out: '' };
    const r = spawnSync(file, [...SAFE_GIT_OPTIONS, ...args], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
      maxBuffer: 64 * 1024 * 1024,
      env: safeGitEnv(process.env.HOME ?? '/'),
      ...(input !== undefined ? { input } : {}),
    });
    return { ok: r.status === 0, out: r.stdout ?? '' };
  };
}

const names = (out: string): string[] => out.split('\0').filter((p) => p !== '');
const commitOf = (git: GitRun, rev: string): string | null => git(['rev-parse', '-q', '--verify', `${rev}^{commit}`]).out.trim() || null;

function refsOf(git: GitRun): Record<string, string> {
  const refs: Record<string, string> = {};
  for (const line of git(['for-each-ref', '--format=%(objectname) %(refname)']).out.split('\n')) {
    const at = line.indexOf(' ');
    if (at > 0) refs[line.slice(at + 1)] = line.slice(0, at);
  }
  return refs;
}

/** Every index entry by path: its tag (S: skip-worktree, lower case: assume-unchanged), mode, object id and stage. */
function indexEntries(git: GitRun): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of names(git(['ls-files', '-s', '-v', '-z']).out)) {
    const tab = line.indexOf('\t');
    if (tab > 0) out[line.slice(tab + 1)] = `${out[line.slice(tab + 1)] ?? ''}${line.slice(0, tab)};`;
  }
  return out;
}

/** HEAD's commit (or null when unborn), its branch, every ref, and the index file's bytes; null outside a repository of this folder's own. */
export function markGitRecord(root: string, git: GitRun = hostGit(root)): GitMark | null {
  if (!git(['rev-parse', '--is-inside-work-tree']).ok) return null;
  const top = git(['rev-parse', '--show-toplevel']).out.trim();
  if (!top || fs.realpathSync.native(top) !== root) return null; // a repository above the workspace: not the step's to write
  const indexPath = nodePath.resolve(root, git(['rev-parse', '--git-path', 'index']).out.trim());
  let index: Uint8Array | null = null;
  try {
    index = new Uint8Array(fs.readFileSync(indexPath));
  } catch {
    index = null; // no index file yet (a fresh repository) or unreadable: the mark records none
  }
  return {
    head: commitOf(git, 'HEAD'),
    branch: git(['symbolic-ref', '-q', 'HEAD']).out.trim() || null,
    refs: refsOf(git),
    staged: indexEntries(git),
    indexPath,
    index,
  };
}

function worktreeHas(root: string, rel: string): boolean {
  try {
    fs.lstatSync(nodePath.join(root, rel));
    return true;
  } catch {
    return false; // not in the working tree (missing, or a parent that is not a folder)
  }
}

/** Blob ids of the working tree's files as `git add` would store them (null where there is no file). */
function worktreeBlobs(git: GitRun, root: string, paths: readonly string[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const files = paths.filter((p) => {
    try {
      return fs.lstatSync(nodePath.join(root, p)).isFile();
    } catch {
      return false; // not in the working tree: no blob to hash
    }
  });
  for (const p of paths) out.set(p, null);
  if (files.length > 0) {
    const ids = git(['hash-object', '--stdin-paths'], `${files.join('\n')}\n`)
      .out.trim()
      .split('\n');
    files.forEach((p, i) => out.set(p, ids[i] ?? null));
  }
  return out;
}

/**
 * Every path whose record changed since `mark` — in the index, or at a ref (or HEAD) that now points at a
 * commit no ref reached at the mark — and whether that record matches the working tree. Paths with a
 * newline or a tab in their name are listed as not matching (they cannot be passed to the batch hashing).
 */
export function gitRecordedSince(root: string, mark: GitMark, git: GitRun = hostGit(root)): GitRecorded[] {
  const empty = git(['hash-object', '-t', 'tree', '--stdin'], '').out.trim();
  const before = mark.head ?? empty;
  const recorded = new Map<string, boolean>();
  const judge = (path: string, matches: boolean): void => {
    recorded.set(path, (recorded.get(path) ?? true) && matches);
  };

  // The index: each entry that changed since the mark (what the user had staged before is theirs) matches
  // when the working tree holds what is staged and git is not told to look away (skip-worktree: S;
  // assume-unchanged: a lower-case tag).
  const entries = indexEntries(git);
  const staged = [...new Set([...Object.keys(entries), ...Object.keys(mark.staged)])].filter((p) => entries[p] !== mark.staged[p]);
  if (staged.length > 0) {
    const unlike = new Set([
      // Porcelain diff compares content where the index's stat data is stale (plumbing would report those).
      ...names(git(['diff', '--no-ext-diff', '--no-textconv', '--name-only', '-z', '--no-renames']).out),
      ...Object.entries(entries)
        .filter(([, e]) => /^(S|[a-z]) /.test(e))
        .map(([p]) => p),
    ]);
    for (const p of staged) judge(p, entries[p] === undefined ? !worktreeHas(root, p) : !unlike.has(p));
  }

  // New tips: a ref (or a detached HEAD) that now points at a commit no ref reached at the mark. Each path
  // where its tree differs from HEAD's as marked must hold there what the working tree holds now. (Commits
  // between are not judged: a rebase rewrites old content on its way.) Remote-tracking refs are not
  // judged: a granted `git fetch` brings what the remote has, which the working tree does not hold.
  const now = refsOf(git);
  const head = commitOf(git, 'HEAD');
  const tips = [
    ...new Set([
      ...Object.entries(now)
        .filter(([ref]) => !ref.startsWith('refs/remotes/'))
        .map(([, id]) => id),
      ...(head ? [head] : []),
    ]),
  ];
  const known = [...new Set([...Object.values(mark.refs), ...(mark.head ? [mark.head] : [])])];
  const fresh = tips.filter((t) => !known.includes(t) && git(['rev-list', '-n', '1', t, ...(known.length > 0 ? ['--not', ...known] : [])]).out.trim() !== '');
  for (const tip of fresh) {
    const peeled = commitOf(git, tip);
    if (peeled === null) {
      judge(`(a ref the command made or moved names ${tip}, which is not a commit)`, false);
      continue;
    }
    const paths = names(git(['diff-tree', '-r', '--name-only', '-z', '--no-renames', before, peeled]).out);
    const plain = [...new Set(paths)].filter((p) => !/[\n\t]/.test(p));
    for (const p of paths) if (!plain.includes(p)) judge(p, false);
    if (plain.length === 0) continue;
    // What the tip holds at each path (`missing` where it deleted it), and what the working tree holds.
    const ids = git(['cat-file', '--batch-check=%(objectname)'], `${plain.map((p) => `${peeled}:${p}`).join('\n')}\n`).out.split('\n');
    const onDisk = worktreeBlobs(git, root, plain);
    plain.forEach((p, i) => {
      const id = ids[i] ?? '';
      judge(p, (/^[0-9a-f]{40,64}$/.test(id) ? id : null) === (onDisk.get(p) ?? null));
    });
  }
  return recordedList(recorded);
}

function recordedList(recorded: Map<string, boolean>): GitRecorded[] {
  return [...recorded.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, matchesWorktree]) => ({ path, matchesWorktree }));
}

/** Puts every ref, HEAD and the index back as `mark` found them; returns what could not be. */
export function resetGitRecord(root: string, mark: GitMark, git: GitRun = hostGit(root)): string[] {
  const problems: string[] = [];
  if (mark.branch && git(['symbolic-ref', '-q', 'HEAD']).out.trim() !== mark.branch) {
    if (!git(['symbolic-ref', 'HEAD', mark.branch]).ok) problems.push(`HEAD (could not point it at ${mark.branch} again)`);
  }
  const now = refsOf(git);
  for (const ref of new Set([...Object.keys(now), ...Object.keys(mark.refs)])) {
    const was = mark.refs[ref];
    if (now[ref] === was) continue;
    const args = was ? ['update-ref', '--no-deref', ref, was] : ['update-ref', '--no-deref', '-d', ref];
    if (!git(args).ok) problems.push(`${ref} (could not be put back)`);
  }
  if (!mark.branch && mark.head && commitOf(git, 'HEAD') !== mark.head && !git(['update-ref', '--no-deref', 'HEAD', mark.head]).ok) {
    problems.push('HEAD (could not be detached at its commit again)');
  }
  try {
    if (mark.index === null) fs.rmSync(mark.indexPath, { force: true });
    else {
      const temp = `${mark.indexPath}.pe-restore`;
      fs.writeFileSync(temp, mark.index);
      fs.renameSync(temp, mark.indexPath);
    }
  } catch (error) {
    problems.push(`the git index (could not be restored: ${errorText(error)})`);
  }
  return problems;
}
