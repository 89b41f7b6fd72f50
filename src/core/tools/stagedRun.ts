/**
 * After a staged command: its layer is judged (stagedJudge.ts) and only what the step may make reaches the
 * workspace. In order:
 *   1. list   — what the layer holds that differs from the workspace (the runner, raw bytes, no judgement);
 *   2. judge  — applied, kept private to the step (by the user's rules as the attempt began:
 *               stepPrivacy.ts), refused — each with the policy's own reason; every link the batch would
 *               apply is judged on the tree once it is (linkTargets.ts), and one that may not be refuses the
 *               batch whole; folders the command removed are judged entry by entry from a listing of the
 *               workspace (a removed folder goes only when all it held may);
 *   2b. hold  — a PostToolUse hook of the step blocked (`withhold`): nothing below happens, the layer keeps
 *               only what stays private, and the paths it would have applied are reported withheld;
 *   3. git    — a step granted git writes: git's record in the layer is compared with the workspace (paths
 *               outside the edit globs may only be recorded as the workspace holds them) and the config
 *               keys it changed must be a branch's tracking; then git's data is copied in, or none of it;
 *   4. apply  — checkpoint first (what is replaced goes to the blob store, within a byte budget per
 *               command: what passes it is refused naming the limit), then one all-or-nothing batch through the Workspace port: contents, modes (never
 *               set-id or sticky bits), links, folders; removed folders after it;
 *   5. settle — the layer keeps only what stays private (build outputs, caches): the step's next commands
 *               and its verifier see it, the workspace never does; what was refused is gone from it too.
 * Nothing here writes the workspace but step 4 and git's data in step 3.
 */
import type { FileChange } from '../contracts/results';
import type { StagedChange } from '../contracts/staging';
import type { FileWrite, GitRecorded, PolicyFs, StagingLayers } from '../ports';
import { batchView, linkRefusal, workspaceView, type TreeView } from '../policy/linkTargets';
import { resolveAction, type Policy } from '../policy/policy';
import { isToolCache, judgeStaged, whatOf, type Kept, type Refusal, type Verdicts } from './stagedJudge';
import { judgeWorktrees, type WorktreeVerdicts } from './stagedWorktrees';
import type { StepPrivacy } from './stepPrivacy';
import type { ToolEnv } from './readTools';
import { errorText } from '../primitives/errorText';
import { isWithinAny } from '../primitives/paths';
import { namedList } from './pathSummary';
import { capText, listingOptionsFor } from './stagedCaps';
import { mapLimit } from '../primitives/mapLimit';

/** A single file larger than this is not checkpointed, so a command may not change it (Revert could not undo it). */
const STAGED_FILE_MAX = 64 * 1024 * 1024;
/** What one command may add to the checkpoint store, in bytes (a sparse file counts at its full size). */
const STAGED_CHECKPOINT_BYTES = 256 * 1024 * 1024;
/** Paths a refusal of git's record names, at most (the rest are counted). */
const GIT_NAMED = 30;
/** Reads and blob writes a command's apply keeps in flight at once. */
const IO_AT_ONCE = 16;
/** Entries a removed folder may hold to be judged one by one. */
const REMOVED_FOLDER_LIMIT = 100_000;

/** What `git` config keys a step may change: a branch's tracking, set by `checkout -b x origin/x`, `push -u`, `branch -u`. */
const TRACKING_KEY = /^branch\.[^\n]+\.(remote|merge|rebase|pushremote|description)$/;

export interface StagedOutcome {
  /** Applied changes the checkpoint covers (the step's diff and Revert step). */
  accepted: FileChange[];
  /** Applied changes Revert step does not cover (links, modes, folders), each with why. */
  uncovered: string[];
  refused: Refusal[];
  unjudgeable: string[];
  /** Kept for the step only (each with what is below it), with why. */
  kept: Kept[];
  /** Git's data taken into the repository. */
  gitTaken: number;
  notes: string[];
  /** What a PostToolUse hook's block kept out of the workspace (`withhold`): the paths it would have applied (absent: none). */
  withheld?: string[];
  /** The layer passed a cap (stagedCaps.ts): the sentence that says which; nothing was applied or kept. */
  capped?: string;
}

export interface StagedInput {
  env: ToolEnv;
  staging: StagingLayers;
  layer: string;
  /** What the step keeps for itself (stepPrivacy.ts: the user's rules as the attempt began). */
  privacy: StepPrivacy;
  gitWritable: boolean;
  label: string;
  /** A PostToolUse hook blocked the change (its reason): nothing is applied, no git data taken; kept outputs stay for the step. */
  withhold?: string;
  /** The command's argv: a granted `git fetch`, `pull` or `push` may move remote-tracking refs. */
  argv: readonly string[];
}

/** A workspace path's folder ('' for the root). */
const parentOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/** A policy reason without the path it starts with ("README.md is outside…" → "outside…"): the path is named beside it. */
function reasonFor(path: string, reason: string): string {
  if (reason.startsWith(`${path} is `)) return reason.slice(path.length + 4);
  if (reason.startsWith(`${path} `)) return reason.slice(path.length + 1);
  return reason;
}

/**
 * The policy over the disk as it stands for one judgement: each path's lstat and real path asked once (a
 * thousand changes in one folder resolve that folder once). Sound for as long as the judgement runs: no
 * process runs over the layer meanwhile (workspaceLock.ts), nothing is applied before the verdicts are
 * all given, and what is applied is resolved again when it is written (the Workspace port re-checks).
 */
function judging(policy: Policy): Policy {
  const stats = new Map<string, ReturnType<PolicyFs['lstatSync']>>();
  const reals = new Map<string, { real: string } | { error: unknown }>();
  const disk = policy.fs;
  const fs: PolicyFs = {
    readTextSync: (p, maxBytes) => disk.readTextSync(p, maxBytes),
    readlinkSync: (p) => disk.readlinkSync(p),
    executableSync: (p) => disk.executableSync(p),
    lstatSync: (p) => {
      if (!stats.has(p)) stats.set(p, disk.lstatSync(p));
      return stats.get(p);
    },
    realpathSync: (p) => {
      let known = reals.get(p);
      if (known === undefined) {
        try {
          known = { real: disk.realpathSync(p) };
        } catch (error) {
          known = { error };
        }
        reals.set(p, known);
      }
      if ('error' in known) throw known.error;
      return known.real;
    },
  };
  return { ...policy, fs };
}

/** The policy's reason for refusing a write or removal, or undefined when it allows it (one judgement's: see `judging`). */
function denialBy(given: Policy) {
  const policy = judging(given);
  return (path: string, kind: 'write' | 'delete'): string | undefined => {
    const r = resolveAction(policy, { kind, path });
    return r.allowed ? undefined : reasonFor(path, r.reason);
  };
}

/** The link rule over the tree once a batch is applied (one view per batch). */
function linksOn(policy: Policy): (link: StagedChange, batch: readonly StagedChange[]) => string | undefined {
  const disk = workspaceView(policy.root, policy.fs);
  let view: { batch: readonly StagedChange[]; tree: TreeView } | undefined;
  return (link, batch) => {
    if (view?.batch !== batch) view = { batch, tree: batchView(disk, batch) };
    return linkRefusal(policy, view.tree, link.path, link.target);
  };
}

export async function settleStaged(input: StagedInput): Promise<StagedOutcome> {
  const { env, staging, layer } = input;
  const { policy } = env;
  const root = policy.root;
  const listing = await staging.changes(layer, root, listingOptionsFor(policy, input.privacy));
  const outcome: StagedOutcome = {
    accepted: [],
    uncovered: [],
    refused: [],
    unjudgeable: listing.unjudgeable,
    kept: [],
    gitTaken: 0,
    notes: [...listing.notes],
  };
  if (listing.capped) {
    // Fails closed: nothing applied, nothing kept (the layer is emptied for the step's next command).
    outcome.capped = capText(listing.capped);
    outcome.notes.push(...(await staging.settle(layer, root, { keep: [] })));
    return outcome;
  }
  const denied = denialBy(policy);
  const worktrees = await worktreesOf(input, listing.changes);
  // A valid worktree's `.git` file (and what mirrors the main checkout) may be written; a removed worktree's may go.
  const denial = (path: string, kind: 'write' | 'delete'): string | undefined =>
    (kind === 'write' ? worktrees.accepted.has(path) : worktrees.removable.has(path)) ? undefined : denied(path, kind);
  const verdicts = judgeStaged(listing.changes, { denial, private: input.privacy, gitWritable: input.gitWritable, linkRefusal: linksOn(policy) });
  const failedWorktrees = new Map(worktrees.refused.map((r) => [r.path, r.why]));
  verdicts.git = verdicts.git.filter((c) => !failedWorktrees.has(c.path));
  verdicts.apply = verdicts.apply.filter((c) => !failedWorktrees.has(c.path));
  for (const [path, why] of failedWorktrees) {
    const c = listing.changes.find((x) => x.path === path);
    if (c && !verdicts.refused.some((r) => r.path === path)) verdicts.refused.push({ path, what: c.now === null ? 'removed' : 'git data', why, rule: 'git' });
  }
  outcome.refused.push(...verdicts.refused);
  outcome.notes.push(...verdicts.dropped.map((d) => `dropped: ${d}`));
  if (verdicts.strippedModes.length > 0) outcome.notes.push(`set-id and sticky bits were left off: ${namedList(verdicts.strippedModes)}`);
  // Folders the listing kept whole (stagedCaps.ts) were never walked: the judge's rule 4 keeps them anyway,
  // with the reason it would give (a new folder the step keeps: why it is private).
  const whole = (listing.keptWhole ?? []).map((path) => ({
    path,
    why: isToolCache(path) ? 'a dependency folder or tool cache no edit glob reaches' : (input.privacy(path, true) ?? 'kept for the step'),
  }));
  if (input.withhold !== undefined) return withheld(input, verdicts, whole, outcome);

  const removals = await judgeRemovedFolders(input, verdicts, outcome, denial);
  await takeGit(input, verdicts, outcome);
  if (worktrees.pointers.length > 0 && outcome.gitTaken === 0) {
    // A worktree's `.git` file without its registration would point at nothing: it goes with git's data.
    verdicts.apply = verdicts.apply.filter((c) => !worktrees.pointers.includes(c.path));
    for (const p of worktrees.pointers) outcome.refused.push({ path: p, what: 'new', why: "the worktree's git data was not taken", rule: 'git' });
  }
  await applyChanges(input, verdicts.apply, removals, outcome);
  outcome.kept = [...verdicts.keep, ...whole];
  const problems = await staging.settle(layer, root, { keep: outcome.kept.map((k) => k.path) });
  outcome.notes.push(...problems);
  return outcome;
}

/** The hook point between judging and applying: a PostToolUse block keeps every change out, the layer keeps only what is private. */
async function withheld(input: StagedInput, verdicts: Verdicts, whole: StagedOutcome['kept'], outcome: StagedOutcome): Promise<StagedOutcome> {
  outcome.withheld = [...verdicts.apply.map((c) => c.path), ...verdicts.removedFolders.map((d) => `${d}/`), ...verdicts.git.map((c) => c.path)];
  outcome.kept = [...verdicts.keep, ...whole];
  outcome.notes.push(...(await input.staging.settle(input.layer, input.env.policy.root, { keep: outcome.kept.map((k) => k.path) })));
  return outcome;
}

/** New worktrees the command registered (`git worktree add`): their links checked by content (stagedWorktrees.ts). */
async function worktreesOf(input: StagedInput, changes: readonly StagedChange[]): Promise<WorktreeVerdicts> {
  if (!input.gitWritable) return { accepted: new Set(), removable: new Set(), refused: [], pointers: [] };
  const { policy, ctx } = input.env;
  return judgeWorktrees(changes, {
    root: policy.root,
    mayWrite: (path) => resolveAction(policy, { kind: 'write', path }).allowed,
    readLayer: (path) => input.staging.read(input.layer, policy.root, path),
    readWorkspace: async (path) => ((await ctx.workspace.stat(path))?.kind === 'file' ? ctx.workspace.readFile(path) : null),
  });
}

/** Each removed folder: wholly removable (every entry may go), or only the entries that may (the rest refused). */
async function judgeRemovedFolders(
  input: StagedInput,
  verdicts: Verdicts,
  outcome: StagedOutcome,
  denied: (path: string, kind: 'write' | 'delete') => string | undefined,
): Promise<{ trees: string[]; files: StagedChange[] }> {
  const { workspace } = input.env.ctx;
  const trees: string[] = [];
  const files: StagedChange[] = [];
  for (const dir of verdicts.removedFolders) {
    const listing = await workspace.scan({ prune: () => false, limit: REMOVED_FOLDER_LIMIT, under: [dir] });
    const inside = listing.entries.filter((e) => e.path !== dir);
    if (listing.truncated || (listing.unreadable ?? []).length > 0) {
      outcome.refused.push({
        path: `${dir}/`,
        what: 'removed',
        why: `the folder holds more than ${REMOVED_FOLDER_LIMIT} entries (or what cannot be read): too much to judge entry by entry`,
        rule: 'unreadable',
      });
      continue;
    }
    const kept = inside.filter((e) => e.kind !== 'directory' && denied(e.path, 'delete') !== undefined);
    if (kept.length === 0) {
      trees.push(dir);
      files.push(...inside.filter((e) => e.kind === 'file').map((e): StagedChange => ({ path: e.path, was: 'file', now: null, content: true, size: e.size })));
      continue;
    }
    for (const e of kept)
      outcome.refused.push({ path: e.path, what: 'removed', why: `${denied(e.path, 'delete') ?? ''} (its folder was removed)`, rule: 'outside_edit_scope' });
    files.push(
      ...inside
        .filter((e) => e.kind !== 'directory' && denied(e.path, 'delete') === undefined)
        .map((e): StagedChange => ({ path: e.path, was: e.kind, now: null, content: true, size: e.size })),
    );
  }
  return { trees, files };
}

async function takeGit(input: StagedInput, verdicts: Verdicts, outcome: StagedOutcome): Promise<void> {
  if (verdicts.git.length === 0) return;
  const refuseAll = (why: string, changes: StagedChange[] = verdicts.git): void => {
    for (const c of changes) outcome.refused.push({ path: c.path, what: c.now === null ? 'removed' : 'git data', why, rule: 'git' });
  };
  const denied = denialBy(input.env.policy);
  const may = (path: string): boolean => denied(path, 'write') === undefined;
  const review = await input.staging.gitReview(input.layer, input.env.policy.root, { argv: input.argv, mayWrite: may });
  if (review === null) return refuseAll("not a repository of the workspace's own");
  if (review.problems.length > 0) return refuseAll(`git's record could not be reviewed: ${review.problems.join('; ')}`);
  let git = verdicts.git;
  const badKeys = review.configKeys.filter((k) => !TRACKING_KEY.test(k));
  if (badKeys.length > 0) {
    const config = git.filter((c) => c.path === '.git/config');
    git = git.filter((c) => c.path !== '.git/config');
    refuseAll(`it changes git config keys that can run programs or redirect git (${badKeys.join(', ')}); only a branch's tracking is taken`, config);
  }
  const offending = gitOffending(review.recorded, may);
  if (offending !== undefined) return refuseAll(offending, git);
  const taken = git.filter((c) => c.now === 'file').map((c) => c.path);
  // A worktree's whole git folder goes too (`git worktree remove`): else a stale registration stays behind.
  const removed = git
    .filter((c) => c.now === null && (c.was === 'file' || (c.was === 'directory' && /^\.git\/worktrees\/[^/]+$/.test(c.path))))
    .map((c) => c.path);
  const problems = await input.staging.applyGitData(input.layer, input.env.policy.root, taken, removed);
  outcome.gitTaken = git.length - problems.length;
  outcome.notes.push(...problems.map((p) => `git data not taken: ${p}`));
}

/**
 * What of git's record the step may not leave, as one reason (undefined: nothing): a path outside the edit
 * globs recorded other than the workspace holds it, or a record refused whatever the globs (a
 * remote-tracking ref moved without a granted fetch, a note that is not one). Names at most a few dozen.
 */
export function gitOffending(recorded: readonly GitRecorded[], mayWrite: (path: string) => boolean): string | undefined {
  const outside = recorded.filter((r) => r.refused === undefined && !r.matchesWorktree && !mayWrite(r.path));
  const refused = recorded.filter((r) => r.refused !== undefined);
  if (outside.length === 0 && refused.length === 0) return undefined;
  const named = (list: readonly GitRecorded[], text: (r: GitRecorded) => string): string =>
    `${list.slice(0, GIT_NAMED).map(text).join(', ')}${list.length > GIT_NAMED ? ` and ${list.length - GIT_NAMED} more` : ''}`;
  return [
    outside.length > 0
      ? `git would record, outside the step's edit globs, what the workspace does not hold: ${named(outside, (r) => (r.by ? `${r.path} (in ${r.by})` : r.path))}`
      : '',
    refused.length > 0 ? named(refused, (r) => `${r.by ?? r.path}: ${r.refused ?? ''}`) : '',
  ]
    .filter((p) => p !== '')
    .join('; ');
}

/** The checkpoint's budget for one command: `take` says whether a change of `bytes` fits, refusing it (named) when not. */
function checkpointBudget(outcome: StagedOutcome): (c: StagedChange, bytes: number) => boolean {
  let budget = STAGED_CHECKPOINT_BYTES;
  return (c, bytes) => {
    if (bytes > STAGED_FILE_MAX) {
      outcome.refused.push({
        path: c.path,
        what: whatOf(c),
        why: `over the checkpoint's limit of ${STAGED_FILE_MAX >> 20} MB for one file (Revert step could not undo it)`,
        rule: 'checkpoint_limit',
      });
      return false;
    }
    if (bytes > budget) {
      outcome.refused.push({
        path: c.path,
        what: whatOf(c),
        why: `the checkpoint's limit of ${STAGED_CHECKPOINT_BYTES >> 20} MB per command was reached (Revert step could not undo more)`,
        rule: 'checkpoint_limit',
      });
      return false;
    }
    budget -= bytes;
    return true;
  };
}

/** Checkpoint, then one batch: what each applied change becomes, within the per-command byte budget. */
async function applyChanges(
  input: StagedInput,
  apply: StagedChange[],
  removals: { trees: string[]; files: StagedChange[] },
  outcome: StagedOutcome,
): Promise<void> {
  const { ctx } = input.env;
  const { workspace, store } = ctx;
  const trees = new Set(removals.trees);
  const writes: FileWrite[] = [];
  const accepted: FileChange[] = [];
  const take = checkpointBudget(outcome);
  const before = async (c: StagedChange): Promise<string | null> => (c.was === 'file' ? store.putBlob(await workspace.readFile(c.path)) : null);
  const modeText = (m: { was: number; now: number }): string => `mode ${m.was.toString(8)} → ${m.now.toString(8)}`;
  /** One change's writes and checkpoint record (its reads and blob writes); throws when a read fails. */
  const prepare = async (c: StagedChange): Promise<{ writes: FileWrite[]; accepted?: FileChange; uncovered: string[] }> => {
    if (c.now === 'file') {
      const beforeHash = await before(c);
      const content = await input.staging.read(input.layer, input.env.policy.root, c.path);
      const afterHash = await store.putBlob(content);
      const change = c.was === 'file' ? 'modified' : 'created';
      return {
        writes: [{ path: c.path, content, mode: (c.nowMode ?? 0o644) & 0o777 }],
        ...(c.content || c.was !== 'file' ? { accepted: { path: c.path, change, beforeHash, afterHash } } : {}),
        uncovered: c.mode ? [`${c.path} (${modeText(c.mode)}: not undone by Revert step)`] : [],
      };
    }
    const deleted = c.was === 'file' ? { accepted: { path: c.path, change: 'deleted' as const, beforeHash: await before(c), afterHash: null } } : {};
    if (c.now === null) {
      const removed = !isWithinAny(parentOf(c.path), trees) ? [{ path: c.path, content: null }] : [];
      const uncovered = c.was === 'file' ? [] : [`${c.path} (a removed ${c.was === 'symlink' ? 'link' : 'entry'}: not restored by Revert step)`];
      return { writes: removed, ...deleted, uncovered };
    }
    if (c.now === 'symlink')
      return { writes: [{ path: c.path, content: null, link: c.target ?? '' }], ...deleted, uncovered: [`${c.path} (a link: not covered by Revert step)`] };
    if (c.now === 'directory') {
      const dir: FileWrite = { path: c.path, content: null, directory: true, ...(c.nowMode !== undefined ? { mode: c.nowMode & 0o777 } : {}) };
      return { writes: [dir], ...deleted, uncovered: c.mode ? [`${c.path}/ (${modeText(c.mode)}: not undone by Revert step)`] : [] };
    }
    return { writes: [], ...deleted, uncovered: [] };
  };

  // Linear, and overlapped: sizes first, the budget decided in path order, then reads and blob writes
  // several at a time (a thousand files are a thousand reads and two thousand small writes).
  const all = [...removals.files, ...apply];
  // The listing's size of the workspace's file where it gave one (a removed folder's entries: from its scan).
  const wasSizes = await mapLimit(all, IO_AT_ONCE, async (c) =>
    c.was !== 'file' ? 0 : (c.wasSize ?? (await workspace.stat(c.path).catch(() => undefined))?.size ?? 0),
  );
  const taken = all.map((c, i) => {
    const wasSize = wasSizes[i] ?? 0;
    const bytes = c.now === 'file' ? (c.size ?? 0) + wasSize : c.was === 'file' ? (c.now === null ? (c.size ?? wasSize) : wasSize) : 0;
    return c.was !== 'file' && c.now !== 'file' ? true : take(c, bytes);
  });
  const prepared = await mapLimit(all, IO_AT_ONCE, async (c, i) => {
    if (!taken[i]) return undefined;
    try {
      return await prepare(c);
    } catch (error) {
      return { failed: `it could not be read for the checkpoint: ${errorText(error)}` };
    }
  });
  prepared.forEach((p, i) => {
    if (p === undefined) return;
    if ('failed' in p) return void outcome.refused.push({ path: all[i]?.path ?? '?', what: 'content', why: p.failed, rule: 'unreadable' });
    writes.push(...p.writes);
    if (p.accepted) accepted.push(p.accepted);
    outcome.uncovered.push(...p.uncovered);
  });
  if (writes.length === 0 && removals.trees.length === 0) return;
  try {
    if (writes.length > 0) await workspace.applyWrites(writes, input.label, { origin: 'command' });
    const failed = await workspace.removeEntries(removals.trees, true);
    outcome.notes.push(...failed.map((f) => `not removed: ${f}`));
    outcome.accepted.push(...accepted);
  } catch (error) {
    // All or nothing: the batch did not land; say so for each path it held.
    for (const w of writes)
      outcome.refused.push({
        path: w.path,
        what: 'content',
        why: `the workspace could not be written: ${errorText(error)}`,
        rule: 'unreadable',
      });
  }
}
