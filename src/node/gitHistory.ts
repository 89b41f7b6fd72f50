/**
 * git judged whole: after a command of a step granted git writes, everything it made newly reachable —
 * from any ref, HEAD, a worktree's HEAD, a pseudo-ref (ORIG_HEAD…), or any reflog entry — is held to the
 * rule a branch tip is held to: a path outside the step's edit globs only as the workspace holds it. git's
 * own walk does the work, with everything the repository reached before excluded (`rev-list … --not
 * <known>`), so the cost follows what is new, not the history's length. In order:
 *   1. refs      — every ref that changed is sorted by what it is for (gitRefs.ts): a remote-tracking ref
 *                  (or FETCH_HEAD) may change only through a granted fetch, pull or push of a configured
 *                  remote, and what it brings is the remote's, not judged; a replace ref is never taken;
 *                  notes are judged as notes (3); everything else is a tip (4).
 *   2. commits   — the new commits, each compared with its parents (`diff-tree -c --root`: a merge only
 *                  where it differs from every parent): a path outside the globs it adds or changes may
 *                  carry only the blob the workspace holds there, or one the repository already held at
 *                  that same path before the command (a rebase of the user's own history re-records old
 *                  content; a blob that was only at another path does not count). Removals deliver nothing.
 *                  A stash's index and untracked-files parents and stash entries kept only in the reflog
 *                  are commits like any other.
 *   3. notes     — a notes ref's new commits may hold only notes: paths that are object ids.
 *   4. tips      — a tip that is a new commit (a branch, tag, HEAD, a stash entry and its index, ORIG_HEAD…)
 *                  is compared with the old HEAD whole: every path outside the globs where it differs must
 *                  hold what the workspace holds — what `git checkout` or `git stash apply` would write.
 * A branch checked out in a linked worktree inside the workspace (`git worktree add .worktrees/hotfix`) is
 * judged against that worktree's files: its path `src/a.js` is the workspace's `.worktrees/hotfix/src/a.js`.
 */
import type { GitJudgeOptions, GitMark, GitRecorded } from '../core/ports';
import { isNotePath, refRole, remoteOf, remoteRefsGranted } from '../core/policy/gitRefs';
import { pathBelow } from '../core/primitives/paths';
import { isNullId, parseRawZ, parseRefs, parseWorktreeList, type RawEntry } from './gitParse';
import type { GitRun } from './gitRecord';

/** Pseudo-refs a later command of the user's consumes (`git reset ORIG_HEAD`, `git merge FETCH_HEAD`…). */
const PSEUDO_REFS = ['ORIG_HEAD', 'FETCH_HEAD', 'MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD'] as const;
/** More paths than this for the look into old history: refused rather than searched (fail closed). */
const MAX_HISTORY_PATHS = 2_000;

export interface HistoryInput {
  root: string;
  /** git on the repository as the command left it (the layer's view, or the workspace itself). */
  git: GitRun;
  mark: GitMark;
  options?: GitJudgeOptions;
  /** Blob ids of workspace files as `git add` would store them (null: no regular file there). */
  blobsOf(paths: readonly string[]): Map<string, string | null>;
}

/** A commit that must be compared whole with the old HEAD, and where its files live (''/ a worktree folder). */
interface Tip {
  id: string;
  by: string;
  base: string;
}

const NOT_REMOTE = 'a remote-tracking ref changes only through a granted git fetch, pull or push of a remote your git config names';

/** Each pseudo-ref's commit (absent ones left out). */
export function readPseudoRefs(git: GitRun): Record<string, string> {
  const out = git(['cat-file', '--batch-check=%(objectname) %(objecttype)'], PSEUDO_REFS.map((n) => `${n}^{commit}\n`).join('')).out.split('\n');
  const refs: Record<string, string> = {};
  PSEUDO_REFS.forEach((name, i) => {
    const [id, type] = (out[i] ?? '').split(' ');
    if (type === 'commit' && id) refs[name] = id;
  });
  return refs;
}

/** The commit each id names (tags peeled), or null for a tree, a blob or a missing object. */
function peel(git: GitRun, ids: readonly string[]): Map<string, string | null> {
  const unique = [...new Set(ids)];
  const out = git(['cat-file', '--batch-check=%(objectname) %(objecttype)'], unique.map((id) => `${id}^{commit}\n`).join('')).out.split('\n');
  return new Map(unique.map((id, i) => [id, /^(\S+) commit$/.exec(out[i] ?? '')?.[1] ?? null]));
}

/** Commits reachable from `from` and from none of `not`, by git's own walk. */
function walk(git: GitRun, from: readonly string[], not: readonly string[]): string[] {
  if (from.length === 0) return [];
  const input = [...new Set(from)].map((id) => `${id}\n`).join('') + [...new Set(not)].map((id) => `^${id}\n`).join('');
  return git(['rev-list', '--ignore-missing', '--stdin'], input)
    .out.split('\n')
    .filter((l) => l !== '');
}

/** Each new commit's paths, compared with its parents (a merge: where it differs from every parent). */
function introduced(git: GitRun, commits: readonly string[]): RawEntry[] {
  if (commits.length === 0) return [];
  return parseRawZ(git(['diff-tree', '--stdin', '-z', '-r', '-c', '--root', '--no-renames', '--no-ext-diff'], commits.map((c) => `${c}\n`).join('')).out);
}

/** Which `path\0id` pairs the old history records (at that path), searched from the known tips with git's path-limited walk. */
function heldBefore(git: GitRun, known: readonly string[], paths: readonly string[]): Set<string> | undefined {
  if (paths.length === 0 || known.length === 0) return new Set();
  if (paths.length > MAX_HISTORY_PATHS) return undefined;
  const args = [
    '--literal-pathspecs',
    'log',
    '--stdin',
    '--full-history',
    '-m',
    '--root',
    '--raw',
    '-z',
    '--no-abbrev',
    '--no-renames',
    '--format=%H',
    '--',
    ...paths,
  ];
  const r = git(args, known.map((k) => `${k}\n`).join(''));
  if (!r.ok) return undefined;
  const held = new Set<string>();
  for (const e of parseRawZ(r.out)) for (const id of e.ids) if (!isNullId(id)) held.add(`${e.path}\0${id}`);
  return held;
}

/** The stash's entries (stash@{n}), each with its index and untracked-files parents. */
function stashEntries(git: GitRun): { id: string; n: number; index?: string; untracked?: string }[] {
  const ids = git(['reflog', 'show', '--format=%H', 'refs/stash', '--'])
    .out.split('\n')
    .filter((l) => /^[0-9a-f]{40,64}$/.test(l));
  if (ids.length === 0) return [];
  const parents = git(['cat-file', '--batch-check=%(objectname)'], ids.map((id) => `${id}^2\n${id}^3\n`).join('')).out.split('\n');
  const idOf = (line: string | undefined): string | undefined => (/^[0-9a-f]{40,64}$/.test(line ?? '') ? line : undefined);
  return ids.map((id, n) => ({ id, n, index: idOf(parents[2 * n]), untracked: idOf(parents[2 * n + 1]) }));
}

export function judgeHistory(input: HistoryInput): GitRecorded[] {
  const { git, mark, root } = input;
  const may = input.options?.mayWrite ?? ((): boolean => false);
  const out: GitRecorded[] = [];
  const known = mark.known ?? [...Object.values(mark.refs), ...(mark.head ? [mark.head] : [])];
  const knownSet = new Set(known);
  const remotes = mark.remotes ?? [];
  const granted = input.options ? remoteRefsGranted(input.options.argv, remotes) : [];

  // Linked worktrees inside the workspace: where each one's branch or detached HEAD keeps its files.
  const worktrees = parseWorktreeList(git(['worktree', 'list', '--porcelain', '-z']).out).slice(1);
  const baseOf = (rel: string | undefined): string => (rel === undefined || rel === '' ? '' : rel);
  const branchBase = new Map(worktrees.filter((w) => w.branch).map((w) => [w.branch ?? '', baseOf(pathBelow(w.path, root))]));

  // 1. refs
  const tips: Tip[] = [];
  const notes: string[] = [];
  const delivered: string[] = [];
  const loose: string[] = [];
  const labels = new Map<string, string>();
  const refs = parseRefs(git(['for-each-ref', '--format=%(objectname) %(refname)']).out);
  for (const name of new Set([...Object.keys(refs), ...Object.keys(mark.refs)])) {
    const id = refs[name];
    if (id === mark.refs[name]) continue;
    const role = refRole(name);
    if (role === 'replace')
      out.push({ path: name, matchesWorktree: false, by: name, refused: 'replace refs rewrite what history shows; they are never taken' });
    else if (role === 'remote') {
      const remote = remoteOf(name, remotes);
      if (remote !== undefined && granted.includes(remote)) {
        if (id) delivered.push(id);
      } else out.push({ path: name, matchesWorktree: false, by: name, refused: NOT_REMOTE });
    } else if (id === undefined) continue;
    else if (role === 'notes') notes.push(id);
    else tips.push({ id, by: name, base: branchBase.get(name) ?? '' });
  }
  const head = git(['rev-parse', '-q', '--verify', 'HEAD^{commit}']).out.trim();
  if (head && head !== mark.head) tips.push({ id: head, by: 'HEAD', base: '' });
  for (const w of worktrees)
    if (w.head && !w.branch && !knownSet.has(w.head))
      tips.push({ id: w.head, by: `the HEAD of the worktree at ${w.path}`, base: baseOf(pathBelow(w.path, root)) });
  const pseudo = readPseudoRefs(git);
  for (const [name, id] of Object.entries(pseudo)) {
    if (id === mark.pseudo?.[name]) continue;
    if (name === 'FETCH_HEAD' && granted.length > 0) delivered.push(id);
    else tips.push({ id, by: name, base: '' });
  }
  for (const s of stashEntries(git)) {
    if (knownSet.has(s.id)) continue;
    tips.push({ id: s.id, by: `stash@{${s.n}}`, base: '' });
    if (s.index) tips.push({ id: s.index, by: `stash@{${s.n}}'s index`, base: '' });
    if (s.untracked) labels.set(s.untracked, `stash@{${s.n}}'s untracked files`);
  }
  for (const id of git(['rev-list', '--no-walk', '--reflog']).out.split('\n')) if (id !== '' && !knownSet.has(id)) loose.push(id);

  // Tags and refs that name no commit: a tree or a blob under a ref is never a working tree's.
  const peeled = peel(
    git,
    tips.map((t) => t.id),
  );
  const tipCommits: Tip[] = [];
  for (const t of tips) {
    const commit = peeled.get(t.id) ?? null;
    if (commit === null) {
      if (!knownSet.has(t.id)) out.push({ path: t.by, matchesWorktree: false, by: t.by, refused: `it names ${t.id}, which is not a commit` });
    } else tipCommits.push({ ...t, id: commit });
  }

  // 2. commits: those of worktree branches first (judged at their folder), then the rest at the root.
  const not = [...known, ...delivered];
  const inWorktrees = new Map<string, string>();
  for (const base of new Set(tipCommits.filter((t) => t.base !== '').map((t) => t.base))) {
    for (const c of walk(
      git,
      tipCommits.filter((t) => t.base === base).map((t) => t.id),
      not,
    ))
      inWorktrees.set(c, base);
  }
  // A reflog entry of a notes ref or a worktree's branch is theirs, not the root's.
  const noteAll = new Set(walk(git, notes, not));
  const rootNew = walk(
    git,
    [...tipCommits.filter((t) => t.base === '').map((t) => t.id), ...loose.filter((id) => !inWorktrees.has(id) && !noteAll.has(id))],
    not,
  );
  const atRoot = new Set(rootNew);
  const worktreeNew = [...inWorktrees.keys()].filter((c) => !atRoot.has(c));
  // (Tips first: where a path is refused twice, the tip says best what would deliver it.) A branch moved to
  // what a granted fetch brought (`git pull`) is a tip too: its checkout must be what the workspace holds.
  const fresh = new Set([...rootNew, ...inWorktrees.keys(), ...walk(git, delivered, known)]);
  out.push(
    ...judgeTips(
      input,
      tipCommits.filter((t) => fresh.has(t.id)),
      may,
    ),
  );
  out.push(...judgeCommits(input, [...rootNew, ...worktreeNew], (c) => inWorktrees.get(c) ?? '', labels, known, may));

  // 3. notes: commits only notes refs reach.
  const noteCommits = [...noteAll].filter((c) => !atRoot.has(c) && !inWorktrees.has(c));
  for (const e of introduced(git, noteCommits)) {
    if (!isNullId(e.id) && !isNotePath(e.path)) {
      out.push({
        path: e.path,
        matchesWorktree: false,
        by: `notes commit ${e.commit.slice(0, 7)}`,
        refused: 'a notes ref may hold only notes (files named by the id of the object each annotates)',
      });
    }
  }
  return out;
}

/** Rule 2 over `commits`: each path outside the globs they add or change must be the workspace's, or held there before. */
function judgeCommits(
  input: HistoryInput,
  commits: readonly string[],
  baseOf: (commit: string) => string,
  labels: ReadonlyMap<string, string>,
  known: readonly string[],
  may: (path: string) => boolean,
): GitRecorded[] {
  const candidates: { path: string; repoPath: string; id: string; by: string }[] = [];
  for (const e of introduced(input.git, commits)) {
    if (isNullId(e.id)) continue;
    const base = baseOf(e.commit);
    const path = base === '' ? e.path : `${base}/${e.path}`;
    if (may(path)) continue;
    candidates.push({ path, repoPath: e.path, id: e.id, by: labels.get(e.commit) ?? `commit ${e.commit.slice(0, 7)}` });
  }
  if (candidates.length === 0) return [];
  const onDisk = input.blobsOf([...new Set(candidates.map((c) => c.path))]);
  const pending = candidates.filter((c) => onDisk.get(c.path) !== c.id);
  const held = heldBefore(input.git, known, [...new Set(pending.map((c) => c.repoPath))]);
  return candidates.map((c) => ({
    path: c.path,
    matchesWorktree: onDisk.get(c.path) === c.id || (held?.has(`${c.repoPath}\0${c.id}`) ?? false),
    by: c.by,
  }));
}

/** Rule 4: each new tip against the old HEAD, path by path, as `git checkout` would write it. */
function judgeTips(input: HistoryInput, tips: readonly Tip[], may: (path: string) => boolean): GitRecorded[] {
  const { git, mark } = input;
  const before = mark.head ?? git(['hash-object', '-t', 'tree', '--stdin'], '').out.trim();
  const out: GitRecorded[] = [];
  const seen = new Set<string>();
  for (const tip of tips) {
    if (seen.has(`${tip.id}\0${tip.base}`)) continue;
    seen.add(`${tip.id}\0${tip.base}`);
    const paths = git(['diff-tree', '-r', '--name-only', '-z', '--no-renames', before, tip.id])
      .out.split('\0')
      .filter((p) => p !== '');
    const at = (p: string): string => (tip.base === '' ? p : `${tip.base}/${p}`);
    for (const p of paths) if (/[\n\t]/.test(p)) out.push({ path: at(p), matchesWorktree: false, by: tip.by });
    const judged = [...new Set(paths)].filter((p) => !/[\n\t]/.test(p) && !may(at(p)));
    if (judged.length === 0) continue;
    // What the tip holds at each path (`missing` where it removed it), and what the workspace holds.
    const ids = git(['cat-file', '--batch-check=%(objectname)'], `${judged.map((p) => `${tip.id}:${p}`).join('\n')}\n`).out.split('\n');
    const onDisk = input.blobsOf(judged.map(at));
    judged.forEach((p, i) => {
      const id = ids[i] ?? '';
      out.push({ path: at(p), matchesWorktree: (/^[0-9a-f]{40,64}$/.test(id) ? id : null) === (onDisk.get(at(p)) ?? null), by: tip.by });
    });
  }
  return out;
}
