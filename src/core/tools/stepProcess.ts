/**
 * Where and how one of a step's processes runs — the bash tool's command after its approval, or a project
 * hook the user trusted — and what becomes of what it wrote. The process's confinement is one value
 * (src/core/policy/confinement.ts), asked of the terminal once (confinementOfStep) and consumed here:
 *   - staged run   — spec from the workspace as it is now, launch, then the layer is judged and only what the
 *                    step may make is applied (stagedRun.ts) — or nothing, when the step's PostToolUse hooks
 *                    withhold it (runStaged);
 *   - direct run   — spec and a snapshot of the write scope, launch, then changes inside the edit globs join
 *                    the checkpoint and the others are undone (runDirect).
 * `runConfined` is the one door to both: the spec is built there, after the approval wait and right before
 * the launch, never earlier (the caller holds no spec to go stale).
 * A project hook runs here like a command of its step (runAsStepCommand), or over the layer before it settles
 * (launchInLayer, then settleLayer), so its writes are judged like the step's own.
 */
import type { SandboxSpec } from '../contracts/sandbox';
import type { Failure, FileChange } from '../contracts/results';
import type { StagingRequest } from '../contracts/staging';
import type { GitMark, ScanEntry, ScanMemo, Workspace } from '../ports';
import { resolveAction, type Policy } from '../policy/policy';
import { gitWritableFor, sandboxSpec, untouchableIn, type SpecMemo } from '../policy/sandboxSpec';
import { confinementFor, isStaged, stagingMayApply, type CommandConfinement, type Refusal, type StagedConfinement } from '../policy/confinement';
import { err, ok, type Result } from '../contracts/result';
import { whileReading, whileWriting } from './workspaceLock';
import { gitOffending, settleStaged, type StagedOutcome } from './stagedRun';
import { judgeDirectWorktrees, registeredWorktrees } from './stagedWorktrees';
import { snapshotPrivacy, type StepPrivacy } from './stepPrivacy';
import { refusalText } from './commandResult';
import { SCAN_LIMIT, type CommandEffects, type Reconciled, type Snapshot } from './commandEffects';
import { permissionDenied } from './failures';
import type { ToolEnv } from './readTools';
import { errorText } from '../primitives/errorText';

const NOTHING: Reconciled = { accepted: [], rolledBack: [], unrestored: [], uncovered: [] };

/** The policy's refusal as the step's failure: not recoverable by the model; the remedy is the user's to apply. */
function refusalFailure(refusal: Refusal): Failure {
  return { ...permissionDenied(refusal.rule, refusal.reason), recoverable: false, cause: 'sandbox_unavailable', suggestion: refusal.remedy };
}

/**
 * The confinement of the step's processes, now: the terminal's facts asked (its sandbox, the host, and —
 * only where staging could apply — whether this machine can mount the step's layer), then decided by the
 * policy in one pure step (policy/confinement.ts).
 */
export async function confinementOfStep(env: ToolEnv, host = env.ctx.terminal.hostFacts(env.ctx.env)): Promise<Result<CommandConfinement, Failure>> {
  const { ctx, policy } = env;
  const support = await ctx.terminal.confinement();
  const layers = ctx.terminal.staging;
  const staging =
    layers && ctx.layer !== undefined && stagingMayApply(ctx.settings.sandbox, support)
      ? { kind: 'layer' as const, layers, layer: ctx.layer, support: await layers.support(policy.root) }
      : { kind: 'none' as const };
  const decided = confinementFor(policy, { setting: ctx.settings.sandbox, support, staging, host });
  return decided.ok ? ok(decided.value) : err(refusalFailure(decided.error));
}

/**
 * After a command of a step granted git writes: git may record, for a path outside the step's edit globs,
 * only what the working tree holds — a blob staged or committed for a file that is not there (or hidden
 * from `git status`) would reach the next push or checkout unseen. Such a record puts HEAD's branch and
 * the index back as they were before the command, and fails the call like any write outside the globs.
 */
async function judgeGitRecord(workspace: Workspace, policy: Policy, mark: GitMark, argv: readonly string[], reconciled: Reconciled): Promise<Reconciled> {
  const mayWrite = (path: string): boolean => resolveAction(policy, { kind: 'write', path }).allowed;
  const recorded = workspace.gitRecordedSince ? await workspace.gitRecordedSince(mark, { argv, mayWrite }) : [];
  const offending = gitOffending(recorded, mayWrite);
  if (offending === undefined) return reconciled;
  const problems = workspace.gitReset ? await workspace.gitReset(mark) : ["(git's record could not be put back: the workspace cannot)"];
  return {
    ...reconciled,
    rolledBack: [...reconciled.rolledBack, `git's record (${offending}; every ref, HEAD and the index were put back)`],
    unrestored: [...reconciled.unrestored, ...problems],
  };
}

/**
 * After a process that wrote the workspace directly: a worktree it added (its links checked, stagedWorktrees.ts),
 * then what it changed (commandEffects.ts), then git's whole record (judgeGitRecord).
 */
async function reconcileDirect(
  env: ToolEnv,
  effects: CommandEffects,
  before: Snapshot | undefined,
  label: string,
  git: { mark: GitMark; worktrees: ReadonlySet<string> } | null,
  argv: readonly string[],
): Promise<Reconciled> {
  const { ctx, policy } = env;
  const mayWrite = (path: string): boolean => resolveAction(policy, { kind: 'write', path }).allowed;
  const worktrees = git ? await judgeDirectWorktrees(ctx.workspace, { root: policy.root, mayWrite }, git.worktrees) : undefined;
  let reconciled = before ? await effects.after(before, label, worktrees?.accepted) : NOTHING;
  if (worktrees && worktrees.removed.length > 0) {
    const notRemoved = await ctx.workspace.removeEntries(worktrees.removed, true);
    reconciled = {
      ...reconciled,
      rolledBack: [...reconciled.rolledBack, ...worktrees.refused.map((r) => `${r.path} (${r.why})`)],
      unrestored: [...reconciled.unrestored, ...notRemoved],
    };
  }
  return git ? judgeGitRecord(ctx.workspace, policy, git.mark, argv, reconciled) : reconciled;
}

/** A process of the step as the trace and the judge name it: its label, and its argv (a granted `git fetch` may move remote-tracking refs). */
export interface ProcessName {
  label: string;
  argv: readonly string[];
}

/** Launches one process with the spec (null: unconfined) and staging its place decided: Terminal.run, or a hook's HookRunner. */
export type Launch<R> = (sandbox: SandboxSpec | null, staging?: StagingRequest) => Promise<R>;

/** What a step's staged processes remember of the workspace between them: one per policy (a step attempt's). */
const stagedMemos = new WeakMap<Policy, { scan: ScanMemo; spec: SpecMemo }>();

function stagedMemoOf(policy: Policy): { scan: ScanMemo; spec: SpecMemo } {
  let memo = stagedMemos.get(policy);
  if (!memo) stagedMemos.set(policy, (memo = { scan: {}, spec: { verdicts: new WeakMap() } }));
  return memo;
}

/** Names and kinds only, for every entry: one function, so a memoized scan can hand its last result back. */
const namesOnly = (): boolean => false;

/**
 * The staged spec, from the workspace as it is now: names and kinds only (what it hides or keeps
 * read-only); what the step's earlier processes listed and judged is taken again for every folder that did not move.
 */
async function stagedSpec(env: ToolEnv, c: StagedConfinement): Promise<{ spec: SandboxSpec; entries: ScanEntry[] } | { refused: string }> {
  const { ctx, policy } = env;
  const host = c.host;
  const memo = stagedMemoOf(policy);
  const listed = await ctx.workspace.scan({ prune: c.region.prune, limit: SCAN_LIMIT, detail: namesOnly, memo: memo.scan });
  if (listed.truncated)
    return { refused: `the workspace has more than ${SCAN_LIMIT} entries outside ignored and dependency folders; add large folders to .planexecuteignore` };
  const built = sandboxSpec({ policy, entries: listed.entries, env: ctx.env, host, staged: true, memo: memo.spec });
  return built.ok ? { spec: built.value, entries: listed.entries } : { refused: built.error };
}

/** What the step keeps for itself: the user's rules as the attempt began (taken once, before its first write). */
function privacyOf(env: ToolEnv, c: CommandConfinement): Promise<StepPrivacy> {
  return env.privacy ? env.privacy() : snapshotPrivacy(env.ctx, env.policy, c.host);
}

/** Judges the layer and applies what the step may make — or, with `withhold`, nothing (kept outputs stay for the step). */
function settle(
  env: ToolEnv,
  c: StagedConfinement,
  privacy: StepPrivacy,
  entries: readonly ScanEntry[],
  name: ProcessName,
  withhold?: string,
): Promise<StagedOutcome> {
  // No process over the layer while the workspace is written (workspaceLock.ts).
  return whileWriting(env.ctx.workspace.root, () =>
    settleStaged({
      env,
      staging: c.writes.layers,
      layer: c.writes.layer,
      privacy,
      gitWritable: gitWritableFor(env.policy, entries),
      label: name.label,
      argv: name.argv,
      ...(withhold !== undefined ? { withhold } : {}),
    }),
  );
}

/**
 * Runs a staged process and settles its layer — after a cancel, a timeout or a throw too. `beforeSettle`
 * (the step's PostToolUse hooks) runs over the layer first; a reason it returns withholds every change.
 */
async function runStaged<R>(
  env: ToolEnv,
  c: StagedConfinement,
  name: ProcessName,
  launch: Launch<R>,
  beforeSettle?: (run: R) => Promise<string | undefined>,
): Promise<{ run: R; staged?: StagedOutcome } | { refused: string }> {
  const built = await stagedSpec(env, c);
  if ('refused' in built) return built;
  const staging = c.writes;
  const verifier = env.policy.role === 'verifier';
  // Taken before the process writes anything: neither its `.gitignore` nor a later edit decides what the step keeps.
  const privacy = verifier ? undefined : await privacyOf(env, c);
  // A worktree whose repository lies outside the workspace: its git data is written there directly (no
  // layer covers it), so it is judged afterwards as without staging — and put back when refused.
  const linkedGit = !verifier && c.gitWritable && built.entries.some((e) => e.path === '.git' && e.kind === 'file');
  const gitMark = linkedGit && env.ctx.workspace.gitMark ? await env.ctx.workspace.gitMark() : null;
  let run: R | undefined;
  let staged: StagedOutcome | undefined;
  try {
    // No write to the workspace while the overlay over it is mounted (workspaceLock.ts).
    run = await whileReading(env.ctx.workspace.root, () => launch(built.spec, verifier ? { over: staging.layer } : { layer: staging.layer }));
  } finally {
    // The verifier's scratch layer is thrown away by the runner: it writes nothing anyone keeps.
    if (privacy) {
      let withhold: string | undefined;
      try {
        withhold = run !== undefined && beforeSettle ? await beforeSettle(run) : undefined;
      } catch (error) {
        // Fail closed: hooks that could not say whether to block are read as a block — nothing is applied.
        withhold = `the PostToolUse hooks could not run: ${errorText(error)}`;
      }
      staged = await settle(env, c, privacy, built.entries, name, withhold);
      if (gitMark) await judgeLinkedGit(env, gitMark, name.argv, staged);
    }
  }
  return { run, ...(staged ? { staged } : {}) };
}

/** A linked worktree's outside git data, written directly during a staged process: judged, put back when refused. */
async function judgeLinkedGit(env: ToolEnv, mark: GitMark, argv: readonly string[], staged: StagedOutcome): Promise<void> {
  const judged = await judgeGitRecord(env.ctx.workspace, env.policy, mark, argv, NOTHING);
  staged.refused.push(
    ...judged.rolledBack.map((why) => ({
      path: '.git',
      what: 'git data',
      why: `${why} — written directly in the worktree's repository outside the workspace`,
      rule: 'git' as const,
    })),
  );
  staged.notes.push(...judged.unrestored.map((p) => `NOT put back: ${p}`));
}

/** Runs a process that writes the workspace directly: its changes inside the edit globs join the checkpoint, the others are undone. */
async function runDirect<R>(
  env: ToolEnv,
  effects: CommandEffects,
  c: CommandConfinement,
  name: ProcessName,
  launch: Launch<R>,
): Promise<{ run: R; reconciled: Reconciled; privateOutputs: string[] } | { refused: string }> {
  const { ctx, policy } = env;
  const { host, mode: confinement } = c;
  // The spec and the snapshot come from the workspace as it is now, after the approval wait.
  const { scope, prune } = c.region;
  const scanned = await effects.scan(prune, scope);
  if (!scanned.ok) return { refused: scanned.error };
  const built = sandboxSpec({ policy, entries: scanned.value.entries, env: ctx.env, host });
  if (!built.ok) return { refused: built.error };
  const region = { scope, untouchable: untouchableIn(built.value, gitWritableFor(policy, scanned.value.entries)), prune };
  const before = scope.length > 0 ? await effects.before(scanned.value.entries, region, scanned.value.unnamable) : null;
  if (before && !before.ok) return { refused: before.error };
  // A step granted git writes: what git records is judged too (src/node/gitRecord.ts), and a worktree it adds.
  const gitMark = c.gitWritable && ctx.workspace.gitMark ? await ctx.workspace.gitMark() : null;
  const git = gitMark ? { mark: gitMark, worktrees: await registeredWorktrees(ctx.workspace) } : null;
  let run: R;
  let reconciled: Reconciled = NOTHING;
  try {
    run = await launch(confinement === 'sandboxed' ? built.value : null);
  } finally {
    // Cancelled, timed out or thrown: what the command changed is judged all the same.
    reconciled = await reconcileDirect(env, effects, before?.value, name.label, git, name.argv);
  }
  // Build outputs git ignores outside the globs: a private copy for this process (bubblewrap), read-only under Seatbelt.
  const privateOutputs = confinement === 'sandboxed' && host.platform === 'linux' ? built.value.privateOutputs : [];
  return { run, reconciled, privateOutputs };
}

/** A process of the step, launched and settled: what it returned and what became of its writes (staged or direct). */
export type ConfinedRun<R> = { run: R; staged?: StagedOutcome; reconciled: Reconciled; privateOutputs: string[] };

/**
 * Runs one process of the step in its confinement — the one door to a launch: the spec is built here, from
 * the workspace as it is now (after the approval wait), and the process launched right after it. Staged: over
 * the step's layer, then settled (`beforeSettle` first, the PostToolUse hooks). Direct: with a snapshot of its
 * write scope, then reconciled.
 */
export async function runConfined<R>(
  env: ToolEnv,
  effects: CommandEffects,
  c: CommandConfinement,
  name: ProcessName,
  launch: Launch<R>,
  beforeSettle?: (run: R) => Promise<string | undefined>,
): Promise<ConfinedRun<R> | { refused: string }> {
  if (isStaged(c)) {
    const r = await runStaged(env, c, name, launch, beforeSettle);
    return 'refused' in r ? r : { ...r, reconciled: NOTHING, privateOutputs: [] };
  }
  return runDirect(env, effects, c, name, launch);
}

/**
 * Runs one process as a command of the step (a project hook), settled at once: staged over the step
 * attempt's layer and judged, or writing directly, judged and undone outside the edit globs. What it may
 * make reaches the workspace (checkpointed); the rest is refused, each path with why.
 */
export async function runAsStepCommand<R>(
  env: ToolEnv,
  effects: CommandEffects,
  c: CommandConfinement,
  label: string,
  launch: Launch<R>,
): Promise<{ run: R; accepted: FileChange[]; refusedWrites: string[] } | { failed: string }> {
  // A hook is never a granted `git fetch`: no argv moves remote-tracking refs for it.
  const r = await runConfined(env, effects, c, { label, argv: [] }, launch);
  if ('refused' in r) return { failed: r.refused };
  if (isStaged(c)) return { run: r.run, accepted: r.staged?.accepted ?? [], refusedWrites: r.staged ? refusedLinesOf(r.staged) : [] };
  return {
    run: r.run,
    accepted: r.reconciled.accepted,
    refusedWrites: [...r.reconciled.rolledBack.map((p) => `${p} (rolled back)`), ...r.reconciled.unrestored.map((u) => `${u} (NOT rolled back)`)],
  };
}

/** Runs one process over the step attempt's layer without settling it: the layer's owner settles it later (settleLayer). */
export async function launchInLayer<R>(env: ToolEnv, c: StagedConfinement, launch: Launch<R>): Promise<{ run: R } | { refused: string }> {
  const built = await stagedSpec(env, c);
  if ('refused' in built) return built;
  return { run: await whileReading(env.ctx.workspace.root, () => launch(built.spec, { layer: c.writes.layer })) };
}

/** Settles what processes launched in the layer left there (applies what the step may make, or withholds it all). */
export async function settleLayer(env: ToolEnv, c: StagedConfinement, label: string, withhold?: string): Promise<StagedOutcome | { failed: string }> {
  const built = await stagedSpec(env, c);
  if ('refused' in built) return { failed: built.refused };
  return settle(env, c, await privacyOf(env, c), built.entries, { label, argv: [] }, withhold);
}

export function refusedLinesOf(staged: StagedOutcome): string[] {
  return [...staged.refused.map(refusalText), ...staged.unjudgeable];
}
