/**
 * The judge of a staged command: what of the changes in its layer reaches the workspace, what stays
 * private to the step, and what is refused — each with its real reason. Pure: the policy's verdicts, the
 * step's privacy and the link rule are passed in.
 *
 * Rules, for each change, in this order — the first that decides wins:
 *   1. git     — paths in `.git`: only for a step granted git writes (else the folder is read-only to the
 *                command and nothing can be there). Git's data (objects, refs, index, HEAD, logs…) and its
 *                config go to the git check (`git`), never straight to the workspace; replace refs
 *                (`refs/replace/…`, which rewrite history unseen), an unfinished rebase, cherry-pick or
 *                revert (its todo list can `exec` at the user's next `--continue`), hooks and everything
 *                else are refused; stale lock files are dropped.
 *   2. kind    — a FIFO, socket or device is never applied: it stays private where the step keeps what lies
 *                there (rule 4: a test's unix socket in an ignored `tmp/`), and is refused anywhere else.
 *   3. edit    — what the step may make (the text editor's rules: edit globs, secrets, protected files,
 *                `.planexecuteignore`) is applied: contents, links, modes (set-id and sticky bits never),
 *                new folders; a removed folder is applied entry by entry (the caller lists what it held).
 *   4. private — what the step keeps for itself (the caller's privacy: what git ignored before the step
 *                attempt, tool caches, dependency folders — never a file git tracks) and new empty folders
 *                stay in the step's layer: its later commands and its verifier see them, the workspace never
 *                does. A kept folder stays whole (what is below it is not judged again) — unless something
 *                below it may be applied (`build/reports/**` under an ignored `build/`): then each entry
 *                below it is judged on its own.
 *   5. refused — anything else, with the policy's reason (outside the edit globs, protected, hidden…). It
 *                never reached the workspace; the call fails naming each path and what the command did there.
 * Then, over what rule 3 would apply: every link it makes or changes is judged on the tree as it would be
 * once the batch is applied (linkTargets.ts). One that leads outside the workspace, or into a hidden or
 * protected path, refuses the batch whole: nothing of it is applied (what the step keeps stays kept).
 * A folder that is new, holds entries and is neither kept nor applied needs no verdict of its own: its
 * entries carry one.
 */
import type { StagedChange } from '../contracts/staging';
import { GIT_DATA_NAMES, GIT_RESUMABLE_NAMES } from '../policy/gitData';

export interface JudgeRules {
  /** Why the policy refuses writing (`write`) or removing (`delete`) a workspace path; undefined when it allows it. */
  denial(path: string, kind: 'write' | 'delete', isDirectory: boolean): string | undefined;
  /** Why a path stays private to the step (`.gitignore: dist/`, a tool cache…); undefined when it does not. */
  private(path: string, isDirectory: boolean): string | undefined;
  /** Whether the step may write git's data (a git write command in its allowlist, an existing repository). */
  gitWritable: boolean;
  /** Why a link the batch would apply may not be (judged on the tree once `batch` is applied); undefined when it may. */
  linkRefusal(link: StagedChange, batch: readonly StagedChange[]): string | undefined;
}

/** Which rule refused a change (the failure's rule is `sandbox.<rule>`). */
type RefusalRule = 'outside_edit_scope' | 'kind' | 'git' | 'link' | 'batch' | 'checkpoint_limit' | 'unreadable';

export interface Refusal {
  path: string;
  /** What the command did there: `content`, `mode`, `new`, `removed`, `link`, `kind`, `special`. */
  what: string;
  why: string;
  rule: RefusalRule;
}

/** A path kept in the step's layer, with why. */
export interface Kept {
  path: string;
  why: string;
}

export interface Verdicts {
  /** To the workspace, in path order (a removed folder: only when every entry it held may go). */
  apply: StagedChange[];
  /** Removed folders whose entries the caller must judge one by one (rule 3). */
  removedFolders: string[];
  /** Stay in the step's layer. */
  keep: Kept[];
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
const SPECIAL_BITS = 0o7000;

/** What the command did at a path, as a refusal names it. */
export function whatOf(c: StagedChange): string {
  if (c.now === null) return 'removed';
  if (c.now === 'other') return 'special';
  if (c.was === null) return c.now === 'symlink' ? 'new link' : c.now === 'directory' ? 'new folder' : 'new';
  if (c.was !== c.now) return `kind (${c.was} → ${c.now})`;
  if (c.now === 'symlink') return 'link target';
  if (!c.content && c.mode) return `mode ${c.mode.was.toString(8)} → ${c.mode.now.toString(8)}`;
  return c.mode ? `content, mode ${c.mode.was.toString(8)} → ${c.mode.now.toString(8)}` : 'content';
}

function gitVerdict(c: StagedChange, rules: JudgeRules): { git: true } | { drop: true } | { refuse: string } {
  if (!rules.gitWritable) return { refuse: "git's folder is read-only for this step (no git command that writes is in its allowlist)" };
  if (c.path === '.git') return { refuse: 'the repository itself cannot be replaced or removed' };
  const rest = c.path.slice('.git/'.length);
  const top = rest.split('/')[0] ?? '';
  if (rest.startsWith('refs/replace')) return { refuse: 'replace refs rewrite what history shows without changing it; they are never taken' };
  if (GIT_RESUMABLE.has(top)) return { refuse: 'an unfinished rebase, cherry-pick or revert: its todo list could run commands at your next --continue' };
  if (rest.endsWith('.lock') && (top === 'objects' || top === 'refs' || GIT_DATA.has(rest.replace(/\.lock$/, '').split('/')[0] ?? ''))) return { drop: true };
  if (!GIT_DATA.has(top)) return { refuse: `${top} in git's folder can run code or redirect git (hooks, info, modules, worktrees…); only git's data is taken` };
  if (c.now === 'other' || c.now === 'symlink') return { refuse: 'git writes no links or special files there' };
  return { git: true };
}

/** Each folder above a path ('a/b/c' → 'a/b', 'a'). */
function* foldersAbove(path: string): Generator<string> {
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) yield path.slice(0, at);
}

/** Rule 3's verdict for one change: undefined when the step may make it, else the policy's reason. */
function editDenial(c: StagedChange, rules: JudgeRules): string | undefined {
  if (c.now === null) return rules.denial(c.path, 'delete', c.was === 'directory');
  return (
    rules.denial(c.path, 'write', c.now === 'directory') ??
    (c.was !== null && c.was !== c.now ? rules.denial(c.path, 'delete', c.was === 'directory') : undefined)
  );
}

export function judgeStaged(changes: readonly StagedChange[], rules: JudgeRules): Verdicts {
  const v: Verdicts = { apply: [], removedFolders: [], keep: [], git: [], refused: [], dropped: [], strippedModes: [] };
  const sorted = [...changes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const refuse = (c: StagedChange, why: string, rule: RefusalRule): void => void v.refused.push({ path: c.path, what: whatOf(c), why, rule });
  // One pass to know, for each folder, whether changes lie below it and whether one of them may be applied.
  const denials = new Map<string, string | undefined>();
  const parents = new Set<string>();
  const mayBelow = new Set<string>();
  for (const c of sorted) {
    if (c.path === '.git' || c.path.startsWith('.git/')) continue;
    const denied = c.now === 'other' ? 'special' : editDenial(c, rules);
    denials.set(c.path, denied);
    for (const dir of foldersAbove(c.path)) {
      parents.add(dir);
      if (denied === undefined) mayBelow.add(dir);
    }
  }
  const keptRoots = new Set<string>();
  const keep = (c: StagedChange, why: string): void => {
    v.keep.push({ path: c.path, why });
    keptRoots.add(c.path);
  };

  for (const c of sorted) {
    if ([...foldersAbove(c.path)].some((d) => keptRoots.has(d))) continue;
    // 1. git
    if (c.path === '.git' || c.path.startsWith('.git/')) {
      const g = gitVerdict(c, rules);
      if ('git' in g) {
        if (c.now !== 'directory') v.git.push(c);
      } else if ('drop' in g) v.dropped.push(`${c.path} (a lock file git left behind)`);
      else refuse(c, g.refuse, 'git');
      continue;
    }
    const isDir = c.now === 'directory' || (c.now === null && c.was === 'directory');
    // A folder with something below it that may be applied is never kept whole: its entries are judged.
    const privately = (dir: boolean): string | undefined => (dir && mayBelow.has(c.path) ? undefined : rules.private(c.path, dir));
    // 2. kind
    if (c.now === 'other') {
      const kept = rules.private(c.path, false);
      if (kept !== undefined) keep(c, `a FIFO or socket: ${kept}`);
      else refuse(c, 'a FIFO, socket or device is never made in the workspace', 'kind');
      continue;
    }
    // 3. edit
    const denied = denials.get(c.path);
    if (c.now === 'directory' && c.was === 'directory') {
      // An existing folder: only its mode can have changed (what is below it has changes of its own).
      if (c.mode === undefined) continue;
      const kept = denied === undefined ? undefined : privately(true);
      if (denied === undefined) apply(c, v);
      else if (kept !== undefined) keep(c, kept);
      else refuse(c, denied, 'outside_edit_scope');
      continue;
    }
    if (denied === undefined) {
      if (c.now === null && c.was === 'directory') v.removedFolders.push(c.path);
      else apply(c, v);
      continue;
    }
    // 4. private
    const kept = privately(isDir);
    if (kept !== undefined) {
      keep(c, kept);
      continue;
    }
    // A new folder with entries needs no verdict of its own: they each have one. An empty one holds nothing
    // to refuse (a tool's by-product, as pytest-benchmark's `.benchmarks/`): it stays in the layer.
    if (c.now === 'directory' && c.was === null) {
      if (!parents.has(c.path)) keep(c, 'an empty folder');
      continue;
    }
    if (c.now === 'directory' && c.was !== null && c.was !== 'directory' && parents.has(c.path)) {
      refuse({ ...c, now: null }, denied, 'outside_edit_scope');
      continue;
    }
    // 5. refused
    refuse(c, denied, 'outside_edit_scope');
  }
  judgeLinks(v, rules, parents);
  return v;
}

/** Every link the batch would apply, on the tree once it is: one that may not be refuses the batch whole. */
function judgeLinks(v: Verdicts, rules: JudgeRules, parents: ReadonlySet<string>): void {
  const bad = v.apply.flatMap((c) => {
    if (c.now !== 'symlink') return [];
    const why = rules.linkRefusal(c, v.apply);
    return why === undefined ? [] : [{ c, why }];
  });
  if (bad.length === 0) return;
  const first = bad[0] as { c: StagedChange; why: string };
  const whole = `nothing of the command's changes is applied when one is a link that may not be (${first.c.path}: ${first.why})`;
  const links = new Set(bad.map((b) => b.c));
  for (const b of bad) v.refused.push({ path: b.c.path, what: whatOf(b.c), why: b.why, rule: 'link' });
  for (const c of v.apply) {
    // A new folder made only to hold what is below it has nothing of its own to refuse.
    if (links.has(c) || (c.now === 'directory' && c.was === null && parents.has(c.path))) continue;
    v.refused.push({ path: c.path, what: whatOf(c), why: whole, rule: 'batch' });
  }
  for (const dir of v.removedFolders) v.refused.push({ path: `${dir}/`, what: 'removed', why: whole, rule: 'batch' });
  for (const c of v.git) v.refused.push({ path: c.path, what: 'git data', why: whole, rule: 'batch' });
  v.apply = [];
  v.removedFolders = [];
  v.git = [];
  v.strippedModes = [];
}

function apply(c: StagedChange, v: Verdicts): void {
  if (c.nowMode !== undefined && (c.nowMode & SPECIAL_BITS) !== 0) {
    v.strippedModes.push(c.path);
    v.apply.push({ ...c, nowMode: c.nowMode & ~SPECIAL_BITS, ...(c.mode ? { mode: { was: c.mode.was, now: c.mode.now & ~SPECIAL_BITS } } : {}) });
    return;
  }
  v.apply.push(c);
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
