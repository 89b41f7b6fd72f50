/**
 * What git records for the workspace (the index, and the commits its refs point at), around a command of a
 * step granted git writes. Such a command may write git's data, and git's data is not judged file by file:
 * a command can stage and commit a blob for any path — `.github/workflows/ci.yml`, `.vscode/tasks.json` —
 * that never exists in the working tree, hide it from `git status` with `--skip-worktree`, or put it in a
 * new tag, branch or stash entry. The next push, checkout, `stash pop` or "discard changes" then delivers
 * it. So, after the command, every path that the index or anything newly reachable records (every new
 * commit, stash parents, reflog entries, notes: gitHistory.ts) is listed with whether that record matches
 * the working tree; the engine (commandRun.ts, stagedRun.ts) refuses those outside the step's edit globs
 * that do not, and `resetGitRecord` puts every ref, HEAD and the index back.
 *
 * git runs here on the host, outside the sandbox — as the user's own git and their editor's Git view do —
 * with hooks and fsmonitor turned off, and without taking optional locks.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { GitJudgeOptions, GitMark, GitRecorded } from '../core/ports';
import { judgeHistory, readPseudoRefs } from './gitHistory';
import { parseRefs } from './gitParse';
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

const refsOf = (git: GitRun): Record<string, string> => parseRefs(git(['for-each-ref', '--format=%(objectname) %(refname)']).out);

/** The remotes the repository's config names (`remote.<name>.url`). */
function remotesOf(git: GitRun): string[] {
  return git(['config', '--get-regexp', '^remote\\..*\\.url$'])
    .out.split('\n')
    .map((line) => /^remote\.(.+)\.url /.exec(line)?.[1])
    .filter((r): r is string => r !== undefined);
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

/** The paths git tracks in the workspace's own repository (null outside one). */
export function gitTrackedFiles(root: string, git: GitRun = hostGit(root)): string[] | null {
  const top = git(['rev-parse', '--show-toplevel']);
  if (!top.ok || fs.realpathSync.native(top.out.trim()) !== root) return null;
  return names(git(['ls-files', '-z']).out);
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
  const head = commitOf(git, 'HEAD');
  const refs = refsOf(git);
  const pseudo = readPseudoRefs(git);
  // Every tip the repository reached: refs, every worktree's HEAD, every reflog entry (`--all --reflog`).
  const tips = git(['rev-list', '--no-walk', '--all', '--reflog'])
    .out.split('\n')
    .filter((l) => l !== '');
  return {
    head,
    branch: git(['symbolic-ref', '-q', 'HEAD']).out.trim() || null,
    refs,
    staged: indexEntries(git),
    indexPath,
    index,
    // Commits only (`--all` peels tags; a ref naming a tree or a blob reaches no commit): what `log` and `rev-list` take.
    known: [...new Set([...tips, ...Object.values(pseudo), ...(head ? [head] : [])])],
    pseudo,
    remotes: remotesOf(git),
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
 * Every path whose record changed since `mark` — in the index, or in anything the command made newly
 * reachable (gitHistory.ts) — and whether that record matches the working tree. Paths with a newline or a
 * tab in their name are listed as not matching (they cannot be passed to the batch hashing).
 */
export function gitRecordedSince(root: string, mark: GitMark, git: GitRun = hostGit(root), options?: GitJudgeOptions): GitRecorded[] {
  const recorded = new Map<string, GitRecorded>();
  const add = (r: GitRecorded): void => {
    const key = r.refused === undefined ? r.path : `${r.path}\0${r.refused}`;
    const was = recorded.get(key);
    if (was === undefined || (was.matchesWorktree && !r.matchesWorktree)) recorded.set(key, r);
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
    for (const p of staged) add({ path: p, matchesWorktree: entries[p] === undefined ? !worktreeHas(root, p) : !unlike.has(p), by: 'the index' });
  }

  for (const r of judgeHistory({ root, git, mark, ...(options ? { options } : {}), blobsOf: (paths) => worktreeBlobs(git, root, paths) })) add(r);
  return [...recorded.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The repository's git folders (its own and the shared one), absolute. */
function gitDirsOf(root: string, git: GitRun): string[] {
  const dirs = [git(['rev-parse', '--git-dir']).out.trim(), git(['rev-parse', '--git-common-dir']).out.trim()].filter((d) => d !== '');
  return [...new Set(dirs.map((d) => nodePath.resolve(root, d)))];
}

/** ORIG_HEAD, MERGE_HEAD… as marked: each written back, or removed where the mark had none. */
function resetPseudoRefs(root: string, git: GitRun, mark: GitMark): string[] {
  const now = readPseudoRefs(git);
  const gitDir = gitDirsOf(root, git)[0];
  const problems: string[] = [];
  for (const name of new Set([...Object.keys(now), ...Object.keys(mark.pseudo ?? {})])) {
    const was = mark.pseudo?.[name];
    if (gitDir === undefined || now[name] === was) continue;
    try {
      if (was === undefined || name === 'FETCH_HEAD') fs.rmSync(nodePath.join(gitDir, name), { force: true });
      else fs.writeFileSync(nodePath.join(gitDir, name), `${was}\n`);
    } catch (error) {
      problems.push(`${name} (could not be put back: ${errorText(error)})`);
    }
  }
  return problems;
}

/**
 * Reflog entries naming a commit the repository did not reach at the mark (either side of the entry) are removed (a stash entry kept
 * only in `logs/refs/stash` would otherwise survive the refs being put back); older entries stay as they were.
 */
function pruneReflogs(root: string, git: GitRun, mark: GitMark): string[] {
  if (mark.known === undefined) return [];
  const known = new Set(mark.known);
  const problems: string[] = [];
  const files: string[] = [];
  const collect = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // no reflogs there
    }
    for (const d of entries) {
      const at = nodePath.join(dir, d.name);
      if (d.isDirectory()) collect(at);
      else if (d.isFile()) files.push(at);
    }
  };
  for (const dir of gitDirsOf(root, git)) collect(nodePath.join(dir, 'logs'));
  for (const file of files) {
    try {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      // Both ids of an entry (`<old> <new> <who> <when>\t<why>`): putting a ref back adds one whose old id is new.
      const kept = lines.filter((line) => line === '' || line.split(' ', 2).every((id) => /^0+$/.test(id) || known.has(id)));
      if (kept.length !== lines.length) fs.writeFileSync(file, kept.join('\n'));
    } catch (error) {
      problems.push(`${file} (a reflog, could not be cleared of new entries: ${errorText(error)})`);
    }
  }
  return problems;
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
  problems.push(...resetPseudoRefs(root, git, mark), ...pruneReflogs(root, git, mark));
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
