/**
 * Where a step's COMMANDS may write: the region the OS sandbox leaves writable, and what the scheduler
 * compares to let confined command steps run side by side. One function, so the two can never disagree.
 *
 * Rules, in order:
 *  1. For each edit glob, its longest literal directory prefix (`src/**\/*.ts` → `src`), or the file
 *     itself when the glob has no magic (`README.md` → `README.md`). A glob whose magic starts in its
 *     first segment (`**\/*.md`, `*.json`) or a negation (`!x`) widens the scope to the whole workspace ('').
 *  2. `.git` joins the scope when the step's command allowlist may run a git subcommand that writes the
 *     repository (`commit`, `add`, …, or any subcommand through a wildcard pattern like `git *`). The
 *     sandbox still keeps `.git/hooks` and `.git/config` read-only inside it.
 *  3. Prefixes nested inside another are dropped; the rest is sorted, so equal authorities give equal scopes.
 * Paths are workspace-relative, POSIX; '' is the whole workspace. A scope of [] writes nothing.
 */
import type { Authority } from '../contracts/plan';
import { parseCommand } from './commandParse';

/** The whole workspace. */
export const WHOLE_WORKSPACE = '';

/** Characters that make a glob segment magic (picomatch syntax, escapes included). */
const MAGIC = /[*?[\]{}()!+@\\]/;

/** git subcommands that write the repository (objects, refs, index, stash, worktrees). */
export const GIT_WRITE_SUBCOMMANDS: ReadonlySet<string> = new Set([
  'add', 'am', 'apply', 'branch', 'checkout', 'cherry-pick', 'clean', 'clone', 'commit', 'fetch', 'gc', 'init',
  'merge', 'mv', 'notes', 'pull', 'push', 'rebase', 'reset', 'restore', 'revert', 'rm', 'stash', 'switch', 'tag',
  'update-index', 'update-ref', 'worktree', 'prune', 'repack', 'pack-refs', 'reflog', 'replace', 'submodule',
  'sparse-checkout', 'maintenance', 'bisect', 'format-patch', 'remote', 'config', 'write-tree', 'commit-tree',
  'read-tree', 'hash-object', 'mktag', 'mktree', 'symbolic-ref', 'filter-branch', 'fast-import', 'unpack-objects',
]);

/** git global options that take a separate value (skipped to find the subcommand). */
const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--list-cmds']);

/** Longest literal directory prefix of a glob, the glob itself when literal, or '' for the whole workspace. */
export function globWriteRoot(glob: string): string {
  const trimmed = glob.replace(/^\.\//, '').replace(/\/+$/, '');
  if (trimmed === '' || trimmed.startsWith('!')) return WHOLE_WORKSPACE;
  const segments = trimmed.split('/');
  const firstMagic = segments.findIndex((s) => MAGIC.test(s));
  if (firstMagic === -1) return segments.filter((s) => s !== '.').join('/');
  return segments.slice(0, firstMagic).filter((s) => s !== '.').join('/');
}

/** Whether an allowlist pattern may run a git subcommand that writes the repository. */
export function patternWritesGit(pattern: string): boolean {
  const parsed = parseCommand(pattern, { pattern: true });
  if (!parsed.ok) return false;
  const [program, ...rest] = parsed.argv;
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
  return parsed.wildcard;
}

/** Whether `inner` is `outer` or lies below it. '' contains everything. */
export function pathWithin(inner: string, outer: string): boolean {
  return outer === WHOLE_WORKSPACE || inner === outer || inner.startsWith(`${outer}/`);
}

/** The writable region for a step's commands (see the rules at the top). */
export function writeScopeOf(authority: Pick<Authority, 'edit' | 'commands'>): string[] {
  const roots = authority.edit.map(globWriteRoot);
  if (authority.commands.some(patternWritesGit)) roots.push('.git');
  const unique = [...new Set(roots)].sort();
  return unique.filter((root) => !unique.some((other) => other !== root && pathWithin(root, other)));
}

/** Could two scopes share a path? */
export function scopesOverlap(a: readonly string[], b: readonly string[]): boolean {
  return a.some((x) => b.some((y) => pathWithin(x, y) || pathWithin(y, x)));
}

/** The scope as globs (for glob-overlap reasoning): a root covers itself and everything below it. */
export function scopeGlobs(scope: readonly string[]): string[] {
  return scope.flatMap((root) => (root === WHOLE_WORKSPACE ? ['**'] : [root, `${root}/**`]));
}
