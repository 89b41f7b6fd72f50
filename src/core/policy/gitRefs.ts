/**
 * What a ref is for, when a step's command has written git's data: which refs hold working-tree content
 * (a branch, a tag, the stash, HEAD — checked out or applied later, so held to the edit globs), which hold
 * notes (text about commits, never checked out), which mirror a remote (changed only by a granted fetch,
 * pull or push), and which are never taken (replace refs). Pure: names and argv in, verdicts out.
 */

export type RefRole = 'worktree' | 'notes' | 'remote' | 'replace';

/** The role of a full ref name (`refs/heads/main`, `refs/notes/commits`, `refs/remotes/origin/main`). */
export function refRole(name: string): RefRole {
  if (name.startsWith('refs/notes/')) return 'notes';
  if (name.startsWith('refs/remotes/')) return 'remote';
  if (name.startsWith('refs/replace/')) return 'replace';
  return 'worktree';
}

/** The remote a remote-tracking ref belongs to (`refs/remotes/origin/main` → `origin`), given the configured names. */
export function remoteOf(name: string, remotes: readonly string[]): string | undefined {
  const rest = name.slice('refs/remotes/'.length);
  // Remote names may hold slashes (`team/upstream`): the longest configured name that prefixes the rest.
  return [...remotes].sort((a, b) => b.length - a.length).find((r) => rest.startsWith(`${r}/`) || rest === r);
}

const HEX = /^[0-9a-f]+$/;

/**
 * Whether a path in a notes tree names a note: the annotated object's id, whole or split into two-hex-digit
 * folders (`ab/cdef…`, `ab/cd/ef…`), 40 (SHA-1) or 64 (SHA-256) hex digits in all.
 */
export function isNotePath(path: string): boolean {
  const parts = path.split('/');
  const last = parts[parts.length - 1] ?? '';
  if (!parts.slice(0, -1).every((p) => p.length === 2 && HEX.test(p)) || !HEX.test(last)) return false;
  const total = parts.join('').length;
  return total === 40 || total === 64;
}

/** git's options before the subcommand that take the next word as their value. */
const GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--exec-path']);
/** fetch/pull/push options that take the next word as their value (the rest are flags or `--x=value`). */
const SUBCOMMAND_WITH_VALUE = new Set([
  '--depth',
  '--deepen',
  '--shallow-since',
  '--shallow-exclude',
  '-j',
  '--jobs',
  '-o',
  '--server-option',
  '--push-option',
  '--negotiation-tip',
  '--refmap',
  '--upload-pack',
  '--receive-pack',
  '--exec',
  '--repo',
  '-s',
  '--strategy',
  '-X',
  '--strategy-option',
  '--recurse-submodules-default',
]);

/** git's subcommand and the words after it, or undefined when argv is not git. */
function gitSubcommand(argv: readonly string[]): { sub: string; rest: string[] } | undefined {
  const program = argv[0] ?? '';
  if (program !== 'git' && !program.endsWith('/git')) return undefined;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (GLOBAL_WITH_VALUE.has(word)) {
      i++;
      continue;
    }
    if (word.startsWith('-')) continue;
    return { sub: word, rest: argv.slice(i + 1) };
  }
  return undefined;
}

/** The first word after the subcommand that is not an option (nor an option's value). */
function firstOperand(rest: readonly string[]): string | undefined {
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i] ?? '';
    if (word === '--') return rest[i + 1];
    if (SUBCOMMAND_WITH_VALUE.has(word)) {
      i++;
      continue;
    }
    if (!word.startsWith('-')) return word;
  }
  return undefined;
}

/**
 * The configured remotes whose remote-tracking refs (and FETCH_HEAD) this command may change: a
 * `git fetch`, `pull` or `push` of a configured remote (none named: any configured remote, as git picks the
 * branch's upstream; `--all`: every one), or `git remote update`. A fetch from a path or a URL that is not
 * a configured remote (`git fetch . evil:refs/remotes/origin/main`) changes none: a remote-tracking ref
 * forged from local content would reach the user's `git checkout <branch>` unjudged.
 */
export function remoteRefsGranted(argv: readonly string[], remotes: readonly string[]): string[] {
  const cmd = gitSubcommand(argv);
  if (cmd === undefined) return [];
  if (cmd.sub === 'remote') {
    const action = firstOperand(cmd.rest);
    return action === 'update' ? [...remotes] : [];
  }
  if (cmd.sub !== 'fetch' && cmd.sub !== 'pull' && cmd.sub !== 'push') return [];
  if (cmd.rest.includes('--all') || cmd.rest.includes('--multiple'))
    return cmd.rest.includes('--all') ? [...remotes] : remotes.filter((r) => cmd.rest.includes(r));
  const repository = firstOperand(cmd.rest);
  if (repository === undefined) return [...remotes];
  return remotes.includes(repository) ? [repository] : [];
}
