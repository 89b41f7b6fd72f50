/**
 * The names git writes as its data in a repository's `.git` folder when it commits, fetches, merges,
 * stashes or bisects — one list for both ways a command writes (docs/sandbox.md). Anything else in
 * `.git` (hooks, info, modules, worktrees, commondir…) can make the user's own git run what a step
 * planted, so it is never taken. Each path adds what only it accepts, with why, below.
 */
export const GIT_DATA_NAMES: readonly string[] = [
  'objects',
  'refs',
  'logs',
  'index',
  'HEAD',
  'ORIG_HEAD',
  'FETCH_HEAD',
  'MERGE_HEAD',
  'MERGE_MSG',
  'MERGE_MODE',
  'MERGE_AUTOSTASH',
  'AUTO_MERGE',
  'COMMIT_EDITMSG',
  'TAG_EDITMSG',
  'packed-refs',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
  'BISECT_LOG',
  'BISECT_START',
  'BISECT_TERMS',
  'BISECT_EXPECTED_REV',
  'BISECT_ANCESTORS_OK',
  'BISECT_NAMES',
  'shallow',
  'rr-cache',
];

/**
 * What a linked worktree's own git folder (`.git/worktrees/<name>/`) holds as git's data: its HEAD, index,
 * logs, per-worktree refs and the rest of the names above, and `locked` (a reason, text). Its links
 * (`gitdir`, `commondir`) are judged by content (tools/stagedWorktrees.ts); its `config.worktree` (hooks,
 * programs), `hooks` and an unfinished rebase never are taken.
 */
export const WORKTREE_DATA_NAMES: readonly string[] = [...GIT_DATA_NAMES, 'locked'];

/** Whether a path is git's data inside a linked worktree's own git folder (`.git/worktrees/<name>/<data>`). */
export function isWorktreeData(rel: string): boolean {
  const parts = rel.split('/');
  return parts[0] === '.git' && parts[1] === 'worktrees' && parts.length >= 4 && WORKTREE_DATA_NAMES.includes(parts[3] ?? '');
}

/**
 * The state of an unfinished rebase, cherry-pick or revert: its todo list can hold `exec` lines, which
 * the user's `git rebase --continue` — or their editor's Git view — runs on the host. Never taken.
 */
export const GIT_RESUMABLE_NAMES: readonly string[] = ['rebase-merge', 'rebase-apply', 'sequencer'];

/**
 * Caches git derives from its objects and rebuilds at will: the commit-graph (it holds each commit's tree
 * and parents, and git believes it over the commit), the multi-pack-index, bitmaps, reverse indexes and
 * `info/packs`. A command's are never taken — a forged one would make an already judged commit check out
 * another tree — and nothing needs them: the repository keeps its own, which still describe its objects.
 */
const DERIVED_OBJECT_FILES = [
  /^objects\/info\/commit-graphs?(\/|$)/,
  /^objects\/info\/packs$/,
  /^objects\/pack\/multi-pack-index/,
  /^objects\/pack\/[^/]+\.(bitmap|rev|mtimes)$/,
];

/** Files that make git read objects from another place (one a later command could rewrite). */
const ALTERNATES = /^objects\/info\/(http-)?alternates$/;

/**
 * What may change under `.git/objects/` (`rest` is the path below `.git/`): objects are named by their
 * content and git never rewrites one it stores, so only new files are git's data — an object file whose
 * bytes change would change, at the user's next checkout, what a commit judged earlier delivers, with no
 * ref moving. (New objects are checked against their names by the review: src/node/sandbox/gitObjects.ts.)
 */
export function objectsVerdict(
  rest: string,
  change: { was: string | null; now: string | null; content: boolean },
): 'data' | { drop: string } | { refuse: string } {
  if (ALTERNATES.test(rest)) return { refuse: 'alternates make git read objects from another folder, which a later command could rewrite; never taken' };
  if (DERIVED_OBJECT_FILES.some((r) => r.test(rest)))
    return { drop: "a cache git rebuilds from its objects (commit-graph, multi-pack-index, bitmap…): the repository's own is kept" };
  if (change.was !== null && change.now !== null && (change.content || change.was !== change.now))
    return { refuse: 'git never rewrites an object it stores: a changed object file would change what a commit judged earlier delivers at your next checkout' };
  return 'data';
}
