/**
 * Where a step's COMMANDS may write: the region the OS sandbox leaves writable, and what the scheduler
 * compares to let confined command steps run side by side. One function, so the two can never disagree.
 *
 * A write root has a kind:
 *  - `tree`   — the path and everything below it;
 *  - `folder` — the path's direct entries only: its existing subfolders stay read-only (the sandbox binds
 *               each back), new ones it makes are writable and judged whole after the command. It is what a
 *               literal glob gives: `src/math.js` → the folder `src`, so a tool can write a temporary file
 *               beside its target and rename it over (sed -i, formatters, npm's write-file-atomic, git).
 *
 * Rules, in order:
 *  1. For each edit glob: its longest literal directory prefix as a `tree` (`src/**\/*.ts` → `src`); a
 *     literal glob (no magic) gives its parent as a `folder` (`README.md` → '' = the workspace root's
 *     direct entries, not the whole tree). A glob whose magic starts in its first segment (`**\/*.md`,
 *     `*.json`) or a negation (`!x`) widens the scope to the whole workspace as a `tree` ('').
 *  2. `.git` joins the scope as a `tree` when the step's command allowlist may run a git subcommand that
 *     writes the repository (`commit`, `add`, …, or any subcommand through a wildcard pattern like `git *`).
 *     The sandbox still keeps `.git/hooks` and `.git/config` read-only inside it.
 *  3. Collapse: a `tree` inside another `tree` is dropped; a `folder` inside (or at) a `tree` is dropped
 *     (equal paths: the `tree` wins); a `tree` inside a `folder` stays, and so does a `folder` inside another
 *     `folder` (neither covers the other). The rest is sorted, so equal authorities give equal scopes.
 * Paths are workspace-relative, POSIX; '' is the whole workspace. A scope of [] writes nothing.
 *
 * Overlap (the scheduler's `scopeGlobs`, `scopesOverlap`): a root of EITHER kind counts as its path and
 * everything below it. For a `tree` that is what it may write. For a `folder` P it is what its rollback may
 * undo: a command in P may create a subfolder that does not exist yet (P/x), and after the command a new
 * subfolder that keeps nothing its step may make is removed whole — with whatever another step wrote
 * there meanwhile (a deeper root P/x/y whose placeholder P/x was made for it, an editor's P/x/new.ts).
 * Which subfolders exist is not known when the plan is scheduled, so:
 *  - a `folder` P conflicts with any root at P (folder or tree), with any root below P at any depth (a
 *    `folder` P/x included), with any `tree` above P, and with any edit glob that may match P or a path
 *    below it (a direct entry of P, or one in a subfolder P may be the one to create);
 *  - two `folder` roots at different paths conflict only when one is an ancestor of the other (P and
 *    P/x/y do, `src/a` and `src/b` do not), and `folder` '' (a top-level literal like `package.json`)
 *    conflicts with every writer;
 *  - what it costs: command steps whose literal globs share a folder (`src/a.js`, `src/b.js`) run one
 *    after the other, never side by side — one's rollback must never undo the other's writes.
 */
import type { Authority } from '../contracts/plan';
import { parseCommand } from './commandParse';
import { isWithin, pathsOverlap, WORKSPACE_ROOT } from '../primitives/paths';

/** Characters that make a glob segment magic (picomatch syntax, escapes included). */
const MAGIC = /[*?[\]{}()!+@\\]/;

/** git subcommands that write the repository (objects, refs, index, stash, worktrees). */
const GIT_WRITE_SUBCOMMANDS: ReadonlySet<string> = new Set([
  'add',
  'am',
  'apply',
  'branch',
  'checkout',
  'cherry-pick',
  'clean',
  'clone',
  'commit',
  'fetch',
  'gc',
  'init',
  'merge',
  'mv',
  'notes',
  'pull',
  'push',
  'rebase',
  'reset',
  'restore',
  'revert',
  'rm',
  'stash',
  'switch',
  'tag',
  'update-index',
  'update-ref',
  'worktree',
  'prune',
  'repack',
  'pack-refs',
  'reflog',
  'replace',
  'submodule',
  'sparse-checkout',
  'maintenance',
  'bisect',
  'format-patch',
  'remote',
  'config',
  'write-tree',
  'commit-tree',
  'read-tree',
  'hash-object',
  'mktag',
  'mktree',
  'symbolic-ref',
  'filter-branch',
  'fast-import',
  'unpack-objects',
]);

/** git global options that take a separate value (skipped to find the subcommand). */
const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--list-cmds']);

/** A write root: a path and how much below it the sandbox makes writable (see the top of this file). */
export interface WriteRoot {
  path: string;
  kind: 'tree' | 'folder';
}

/** A glob's write root: its longest literal directory prefix as a tree, or, when literal, its parent folder. */
export function globWriteRoot(glob: string): WriteRoot {
  const trimmed = glob.replace(/^\.\//, '').replace(/\/+$/, '');
  if (trimmed === '' || trimmed.startsWith('!')) return { path: WORKSPACE_ROOT, kind: 'tree' };
  const segments = trimmed.split('/').filter((s) => s !== '.');
  const firstMagic = segments.findIndex((s) => MAGIC.test(s));
  if (firstMagic === -1) return { path: segments.slice(0, -1).join('/'), kind: 'folder' };
  return { path: segments.slice(0, firstMagic).join('/'), kind: 'tree' };
}

/** Whether an allowlist pattern may run a git subcommand that writes the repository. */
export function patternWritesGit(pattern: string): boolean {
  const parsed = parseCommand(pattern, { pattern: true });
  if (!parsed.ok) return false;
  const [program, ...rest] = parsed.value.argv;
  if (program === undefined || (program.split('/').pop() ?? program).replace(/\.exe$/i, '') !== 'git') return false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (GIT_VALUE_OPTIONS.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return GIT_WRITE_SUBCOMMANDS.has(arg);
  }
  // No subcommand in the literal part: `git *` may run any of them.
  return parsed.value.wildcard;
}

/** The writable region for a step's commands (see the rules at the top). */
export function writeScopeOf(authority: Pick<Authority, 'edit' | 'commands'>): WriteRoot[] {
  const roots = authority.edit.map(globWriteRoot);
  if (authority.commands.some(patternWritesGit)) roots.push({ path: '.git', kind: 'tree' });
  const trees = roots.filter((r) => r.kind === 'tree').map((r) => r.path);
  const kept = roots.filter((r) => (r.kind === 'tree' ? !trees.some((t) => t !== r.path && isWithin(r.path, t)) : !trees.some((t) => isWithin(r.path, t))));
  const unique = new Map(kept.map((r) => [`${r.path}\u0000${r.kind}`, r]));
  return [...unique.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

/** Could two scopes' commands touch, or undo, a common path? (Overlap at the top: kinds do not narrow it.) */
export function scopesOverlap(a: readonly WriteRoot[], b: readonly WriteRoot[]): boolean {
  return a.some((x) => b.some((y) => pathsOverlap(x.path, y.path)));
}

/**
 * The scope as globs for the scheduler's overlap test (plan/globs.ts: by literal prefix): a root of either
 * kind covers itself and everything below. `P/**` alone says both there — its prefix `P/` meets a glob
 * naming P itself — without the false meeting a bare `P` would have with `P0/**` (`out/s1`, `out/s10`).
 */
export function scopeGlobs(scope: readonly WriteRoot[]): string[] {
  return scope.map((root) => (root.path === WORKSPACE_ROOT ? '**' : `${root.path}/**`));
}
