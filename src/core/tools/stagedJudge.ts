/**
 * The judge of a staged command: what of the changes in its layer reaches the workspace, what stays
 * private to the step, and what is refused. Pure: the policy and the privacy test are passed in.
 *
 * Rules, for each change, in this order — the first that decides wins:
 *   1. git     — paths in `.git`: only for a step granted git writes (else the folder is read-only to the
 *                command and nothing can be there). Git's data (objects, refs, index, HEAD, logs…) and its
 *                config go to the git check (`git`), never straight to the workspace; replace refs
 *                (`refs/replace/…`, which rewrite history unseen), an unfinished rebase, cherry-pick or
 *                revert (its todo list can `exec` at the user's next `--continue`), hooks and everything
 *                else are refused; stale lock files are dropped.
 *   2. kind    — a FIFO, socket or device is refused wherever it is.
 *   3. edit    — what the step may make (the text editor's rules: edit globs, secrets, protected files,
 *                `.planexecuteignore`) is applied: contents, links that stay inside the workspace, modes
 *                (set-id and sticky bits never), new folders; a removed folder is applied entry by entry
 *                (the caller lists what it held). A link leading outside the workspace is refused.
 *   4. private — what git ignores, tool caches, dependency folders and new empty folders stay in the step's
 *                layer: its later commands see them (a build, then a run of what it built), the workspace
 *                never does.
 *   5. refused — anything else: outside the step's edit globs. It never reached the workspace; the call
 *                fails naming each path and what the command did there.
 * A folder that is kept stays whole (what is below it is not judged again); a folder that is new, holds
 * entries and is neither kept nor applied needs no verdict of its own: its entries carry one.
 */
import * as posix from 'node:path/posix';
import type { StagedChange } from '../contracts/staging';
import { GIT_DATA_NAMES, GIT_RESUMABLE_NAMES, WORKTREE_DATA_NAMES, objectsVerdict } from '../policy/gitData';
import { isBelow, isWithin } from '../primitives/paths';

export interface JudgeRules {
  /** The policy's verdict on writing (`write`) or removing (`delete`) a workspace path. */
  allowed(path: string, kind: 'write' | 'delete', isDirectory: boolean): boolean;
  /** Whether a path is private to the step (git ignores it, a tool cache, a dependency folder). */
  private(path: string, isDirectory: boolean): boolean;
  /** Whether the step may write git's data (a git write command in its allowlist, an existing repository). */
  gitWritable: boolean;
  /** The workspace root (absolute), for links. */
  root: string;
}

export interface Refusal {
  path: string;
  /** What the command did there: `content`, `mode`, `new`, `removed`, `link`, `kind`, `special`. */
  what: string;
  why: string;
}

export interface Verdicts {
  /** To the workspace, in path order (a removed folder: only when every entry it held may go). */
  apply: StagedChange[];
  /** Removed folders whose entries the caller must judge one by one (rule 3). */
  removedFolders: string[];
  /** Stay in the step's layer. */
  keep: string[];
  /** Git's data and config: for the git check (rule 1). */
  git: StagedChange[];
  refused: Refusal[];
  /** Dropped without a word in the failure (stale lock files), each said in a note. */
  dropped: string[];
  /** Set-id or sticky bits the command set on applied entries, which were left off. */
  strippedModes: string[];
}

/**
 * Git's data names (gitData.ts), plus `description` and `config`: the layer's config is taken only after
 * git's review has compared it key by key (GitReview.configChanged). Lock files are dropped, not taken.
 */
const GIT_DATA = new Set([...GIT_DATA_NAMES, 'description', 'config']);
const GIT_RESUMABLE = new Set(GIT_RESUMABLE_NAMES);
const WORKTREE_DATA = new Set([...WORKTREE_DATA_NAMES, 'gitdir', 'commondir']);
const SPECIAL_BITS = 0o7000;

/** A link's target, read as the kernel would from the link's folder, stays inside the workspace. */
export function linkStaysInside(root: string, path: string, target: string | undefined): boolean {
  if (target === undefined || target === '') return false;
  const resolved = posix.isAbsolute(target) ? target : posix.join(root, posix.dirname(path), target);
  const normal = posix.normalize(resolved);
  return isWithin(normal, root);
}

function whatOf(c: StagedChange): string {
  if (c.now === null) return 'removed';
  if (c.now === 'other') return 'special';
  if (c.was === null) return c.now === 'symlink' ? 'new link' : c.now === 'directory' ? 'new folder' : 'new';
  if (c.was !== c.now) return `kind (${c.was} → ${c.now})`;
  if (c.now === 'symlink') return 'link target';
  if (!c.content && c.mode) return `mode ${c.mode.was.toString(8)} → ${c.mode.now.toString(8)}`;
  return c.mode ? `content, mode ${c.mode.was.toString(8)} → ${c.mode.now.toString(8)}` : 'content';
}

type GitVerdict = { git: true } | { drop: string } | { refuse: string };

const LOCK_LEFT = 'a lock file git left behind';

function gitVerdict(c: StagedChange, rules: JudgeRules): GitVerdict {
  if (!rules.gitWritable) return { refuse: "git's folder is read-only for this step (no git command that writes is in its allowlist)" };
  if (c.path === '.git') return { refuse: 'the repository itself cannot be replaced or removed' };
  const rest = c.path.slice('.git/'.length);
  const top = rest.split('/')[0] ?? '';
  if (rest.startsWith('refs/replace')) return { refuse: 'replace refs rewrite what history shows without changing it; they are never taken' };
  if (GIT_RESUMABLE.has(top)) return { refuse: 'an unfinished rebase, cherry-pick or revert: its todo list could run commands at your next --continue' };
  if (rest.endsWith('.lock') && (top === 'objects' || top === 'refs' || GIT_DATA.has(rest.replace(/\.lock$/, '').split('/')[0] ?? '')))
    return { drop: LOCK_LEFT };
  if (top === 'worktrees') return worktreeVerdict(c, rest);
  if (!GIT_DATA.has(top)) return { refuse: `${top} in git's folder can run code or redirect git (hooks, info, modules…); only git's data is taken` };
  if (c.now === 'other' || c.now === 'symlink') return { refuse: 'git writes no links or special files there' };
  if (top === 'objects' && c.now !== 'directory') {
    const o = objectsVerdict(rest, c);
    if (o !== 'data') return o;
  }
  return { git: true };
}

/**
 * A linked worktree's own git folder (`.git/worktrees/<name>/…`): its HEAD, index, logs and refs are git's
 * data; its links (`gitdir`, `commondir`) are checked by content (stagedWorktrees.ts); its own config
 * (`config.worktree` can name hooks and programs), hooks and an unfinished rebase are never taken.
 */
function worktreeVerdict(c: StagedChange, rest: string): GitVerdict {
  const entry = rest.split('/')[2];
  if (entry === undefined)
    return c.now === 'directory' || (c.now === null && c.was === 'directory') ? { git: true } : { refuse: "a worktree's git folder holds folders only" };
  if (c.now === 'other' || c.now === 'symlink') return { refuse: 'git writes no links or special files there' };
  if (GIT_RESUMABLE.has(entry)) return { refuse: 'an unfinished rebase, cherry-pick or revert: its todo list could run commands at your next --continue' };
  if (rest.endsWith('.lock')) return { drop: LOCK_LEFT };
  if (!WORKTREE_DATA.has(entry)) return { refuse: `${entry} in a worktree's git folder can run code or redirect git; only git's data is taken` };
  return { git: true };
}

export function judgeStaged(changes: readonly StagedChange[], rules: JudgeRules): Verdicts {
  const v: Verdicts = { apply: [], removedFolders: [], keep: [], git: [], refused: [], dropped: [], strippedModes: [] };
  const sorted = [...changes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const keptRoots: string[] = [];
  const hasChildren = (dir: string): boolean => sorted.some((o) => isBelow(o.path, dir));
  const refuse = (c: StagedChange, why: string): void => void v.refused.push({ path: c.path, what: whatOf(c), why });

  for (const c of sorted) {
    if (keptRoots.some((k) => isWithin(c.path, k))) continue;
    // 1. git
    if (isWithin(c.path, '.git')) {
      const g = gitVerdict(c, rules);
      if ('git' in g) {
        if (c.now !== 'directory') v.git.push(c);
      } else if ('drop' in g) v.dropped.push(`${c.path} (${g.drop})`);
      else refuse(c, g.refuse);
      continue;
    }
    // 2. kind
    if (c.now === 'other') {
      refuse(c, 'a FIFO, socket or device is never made in the workspace');
      continue;
    }
    const isDir = c.now === 'directory' || (c.now === null && c.was === 'directory');
    // 3. edit
    const may =
      c.now === null
        ? rules.allowed(c.path, 'delete', c.was === 'directory')
        : rules.allowed(c.path, 'write', c.now === 'directory') &&
          (c.was === null || c.was === c.now || rules.allowed(c.path, 'delete', c.was === 'directory'));
    if (c.now === 'directory' && c.was === 'directory') {
      // An existing folder: only its mode can have changed (what is below it has changes of its own).
      if (c.mode === undefined) continue;
      if (may) apply(c, v);
      else if (rules.private(c.path, true)) keepRoot(c, v, keptRoots);
      else refuse(c, "outside the step's edit globs");
      continue;
    }
    if (may) {
      if (c.now === 'symlink' && !linkStaysInside(rules.root, c.path, c.target)) {
        refuse(c, `a link leading outside the workspace (${c.target ?? '?'})`);
        continue;
      }
      if (c.now === null && c.was === 'directory') {
        v.removedFolders.push(c.path);
        continue;
      }
      if (c.now === 'directory' && hasChildren(c.path)) {
        // Made as the parent of what is applied below it; nothing of its own to apply but its mode.
        apply(c, v);
        continue;
      }
      apply(c, v);
      continue;
    }
    // 4. private
    if (rules.private(c.path, isDir)) {
      keepRoot(c, v, keptRoots);
      continue;
    }
    // A new folder with entries needs no verdict of its own: they each have one. An empty one holds nothing
    // to refuse (a tool's by-product, as pytest-benchmark's `.benchmarks/`): it stays in the layer.
    if (c.now === 'directory' && c.was === null) {
      if (!hasChildren(c.path)) keepRoot(c, v, keptRoots);
      continue;
    }
    if (c.now === 'directory' && c.was !== null && c.was !== 'directory' && hasChildren(c.path)) {
      refuse({ ...c, now: null }, "outside the step's edit globs");
      continue;
    }
    // 5. refused
    refuse(c, "outside the step's edit globs");
  }
  return v;
}

function apply(c: StagedChange, v: Verdicts): void {
  if (c.nowMode !== undefined && (c.nowMode & SPECIAL_BITS) !== 0) {
    v.strippedModes.push(c.path);
    v.apply.push({ ...c, nowMode: c.nowMode & ~SPECIAL_BITS, ...(c.mode ? { mode: { was: c.mode.was, now: c.mode.now & ~SPECIAL_BITS } } : {}) });
    return;
  }
  v.apply.push(c);
}

function keepRoot(c: StagedChange, v: Verdicts, keptRoots: string[]): void {
  v.keep.push(c.path);
  keptRoots.push(c.path);
}

/** Dependency folders and tool caches: private to the step even where no ignore file names them. */
const PRIVATE_DIRS = new Set([
  'node_modules',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.hypothesis',
  '.tox',
  '.nox',
  '.venv',
  'venv',
  '.cache',
  '.parcel-cache',
  '.turbo',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.nyc_output',
  '.gradle',
  '.eslintcache',
  '.stylelintcache',
]);
const PRIVATE_FILES = [/\.tsbuildinfo$/, /\.py[co]$/, /^\.eslintcache$/, /^\.coverage(\..*)?$/];

/** Whether a path is a tool cache or lies in a dependency folder (private to the step, whatever git says). */
export function isToolCache(path: string): boolean {
  const parts = path.split('/');
  if (parts.some((p) => PRIVATE_DIRS.has(p))) return true;
  const base = parts[parts.length - 1] ?? '';
  return PRIVATE_FILES.some((re) => re.test(base));
}
