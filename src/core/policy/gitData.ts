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
 * The state of an unfinished rebase, cherry-pick or revert: its todo list can hold `exec` lines, which
 * the user's `git rebase --continue` — or their editor's Git view — runs on the host. Never taken.
 */
export const GIT_RESUMABLE_NAMES: readonly string[] = ['rebase-merge', 'rebase-apply', 'sequencer'];
