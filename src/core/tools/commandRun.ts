/**
 * The `bash` tool's path from a command line to a finished, confined run. In order:
 *   1. policy       — the command line and working directory (policy.ts); a refusal stops here;
 *   2. confinement  — what the terminal can enforce and what the user's `sandbox` setting asks:
 *                     sandboxed; or refused (`required` without a sandbox, saying what to install); or
 *                     unconfined — `prefer` without a sandbox (the user must approve this command, in
 *                     every approval mode) or `off`;
 *   3. staging      — sandboxed where the terminal stages writes: the command writes the step attempt's
 *                     layer (the verifier: a scratch layer over it), never the workspace. Elsewhere it
 *                     writes the workspace directly, and the card and the trace say so;
 *   4. approval     — the approval gate, with the confinement, network grant and staging on the request;
 *   5. spec         — after approval, from the workspace as it is now (sandboxSpec.ts); direct writes
 *                     also take a snapshot of the write scope (commandEffects.ts);
 *   6. run          — through the Terminal port, which enforces the spec or refuses;
 *   7. effects      — staged: the layer is judged and only what the step may make is applied
 *                     (stagedRun.ts); direct: changes inside the edit globs join the checkpoint, others
 *                     are undone. Either way the call fails with permission_denied naming what the step
 *                     may not do, and a `command_sandbox` trace event says how the command ran and what
 *                     became of its changes.
 */
import type { Confinement, SandboxSupport } from '../contracts/sandbox';
import type { CommandRun, Failure, FileChange } from '../contracts/results';
import type { CommandRequest, GitMark, StagingLayers, Workspace } from '../ports';
import { resolveAction, type Policy } from '../policy/policy';
import { commandWriteScope, gitWritableFor, sandboxSpec, scanPrune, STAGED_SCOPE, untouchableIn, type HostFacts } from '../policy/sandboxSpec';
import { gitOffending, settleStaged, type StagedOutcome } from './stagedRun';
import { judgeDirectWorktrees, registeredWorktrees } from './stagedWorktrees';
import { signingHint } from './signingHint';
import type { Refusal } from './stagedJudge';
import { runGated } from './approvalGate';
import { CommandEffects, SCAN_LIMIT, type Reconciled, type Snapshot } from './commandEffects';
import { cancelled, permissionDenied, timedOut, toolError } from './failures';
import type { ToolEnv } from './readTools';
import { failed, type CallResult } from './toolRecorder';

export interface CommandSink {
  /** The step's checkpoint: merges command-made changes in. */
  addFileChanges(changes: FileChange[]): void;
  commands: CommandRun[];
}

const NOTHING: Reconciled = { accepted: [], rolledBack: [], unrestored: [], uncovered: [] };

type Decision = { kind: 'run'; confinement: Confinement; reason?: string } | { kind: 'refuse'; failure: Failure };

/** What a command's confinement will be, before anything is asked. */
function decideConfinement(mode: 'required' | 'prefer' | 'off', support: SandboxSupport): Decision {
  if (mode === 'off') return { kind: 'run', confinement: 'sandbox_off', reason: 'the sandbox is turned off (planExecute.sandbox = off)' };
  if (support.available) return { kind: 'run', confinement: 'sandboxed' };
  if (mode === 'prefer') return { kind: 'run', confinement: 'unsandboxed', reason: `no OS sandbox: ${support.reason}` };
  return {
    kind: 'refuse',
    failure: {
      ...permissionDenied('sandbox.unavailable', `commands must run in the OS sandbox, and there is none here: ${support.reason}. ${support.remedy}`),
      recoverable: false,
      cause: 'sandbox_unavailable',
      suggestion: support.remedy,
    },
  };
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
 * After a command that wrote the workspace directly: a worktree it added (its links checked, stagedWorktrees.ts),
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

interface Staging {
  layers: StagingLayers;
  layer: string;
}

/** Whether this command writes a staging layer, and if not, why not (said on the card and in the trace). */
async function stagingFor(env: ToolEnv, confinement: Confinement, support: SandboxSupport): Promise<{ staging?: Staging; why?: string }> {
  const { ctx, policy } = env;
  if (confinement !== 'sandboxed' || !support.available) return { why: 'commands run outside the sandbox, so nothing stages their writes' };
  if (support.kind !== 'bubblewrap') return { why: `${support.kind} cannot stage writes yet` };
  if (!ctx.terminal.staging || ctx.layer === undefined) return { why: 'this terminal does not stage writes' };
  const staged = await ctx.terminal.staging.support(policy.root);
  if (!staged.available) return { why: staged.reason };
  return { staging: { layers: ctx.terminal.staging, layer: ctx.layer } };
}

export async function runCommand(env: ToolEnv, sink: CommandSink, effects: CommandEffects, command: string): Promise<CallResult> {
  const { ctx, policy, gate } = env;
  const parsed = resolveAction(policy, { kind: 'run', command, cwd: '.' });
  const argv = parsed.allowed && parsed.kind === 'run' ? parsed.argv : [];
  const cwdAbs = parsed.allowed && parsed.kind === 'run' ? parsed.cwdAbs : policy.root;
  let decision: Decision = { kind: 'run', confinement: 'sandboxed' };
  let support: SandboxSupport = { available: false, reason: 'not asked', remedy: '' };
  if (parsed.allowed) {
    support = await ctx.terminal.confinement();
    decision = decideConfinement(ctx.settings.sandbox, support);
    if (decision.kind === 'refuse') {
      await ctx.record({
        type: 'policy_denied',
        stepId: ctx.step.id,
        action: `run \`${command}\``,
        rule: 'sandbox.unavailable',
        reason: decision.failure.message,
      });
      return failed(decision.failure);
    }
  }
  const confinement = decision.kind === 'run' ? decision.confinement : 'sandboxed';
  const network = policy.authority.network;
  // A granted network is the sandbox's own only where the runner can give it one (slirp4netns on Linux).
  const hostLoopback = network && !(confinement === 'sandboxed' && support.available && support.ownNetwork === true);
  const { staging, why: directWhy } = parsed.allowed ? await stagingFor(env, confinement, support) : { staging: undefined, why: undefined };
  const host: HostFacts = ctx.terminal.hostFacts(ctx.env);
  const label = `${ctx.step.id}: ${command}`;
  const gateAction = {
    kind: 'command' as const,
    command,
    argv,
    cwd: '.',
    confinement,
    network,
    ...(network ? { hostLoopback } : {}),
    staged: staging !== undefined,
  };

  let reconciled: Reconciled = NOTHING;
  let staged: StagedOutcome | undefined;
  const outcome = await runGated(gate, policy, { kind: 'run', command, cwd: '.' }, gateAction, async () => {
    const request: Omit<CommandRequest, 'sandbox'> = {
      command,
      argv,
      cwd: cwdAbs,
      timeoutMs: ctx.settings.commandTimeoutMs,
      maxOutputBytes: ctx.settings.maxOutputBytes,
      env: { ...ctx.env },
    };
    if (staging) {
      const r = await runStaged(env, staging, request, host);
      if ('refused' in r) return r;
      staged = r.staged;
      return { run: { ...r.run, confinement } } as const;
    }
    // The spec and the snapshot come from the workspace as it is now, after the approval wait.
    const scope = commandWriteScope(policy);
    const prune = scanPrune(policy, scope);
    const scanned = await effects.scan(prune, scope);
    if (!scanned.ok) return { refused: scanned.error } as const;
    const built = sandboxSpec({ policy, entries: scanned.value.entries, env: ctx.env, host });
    if (!built.ok) return { refused: built.error } as const;
    const region = { scope, untouchable: untouchableIn(built.value, gitWritableFor(policy, scanned.value.entries)), prune };
    const before = scope.length > 0 ? await effects.before(scanned.value.entries, region, scanned.value.unnamable) : null;
    if (before && !before.ok) return { refused: before.error } as const;
    // A step granted git writes: what git records is judged too (src/node/gitRecord.ts), and a worktree it adds.
    const gitMark = gitWritableFor(policy) && ctx.workspace.gitMark ? await ctx.workspace.gitMark() : null;
    const git = gitMark ? { mark: gitMark, worktrees: await registeredWorktrees(ctx.workspace) } : null;
    let run: CommandRun;
    try {
      run = await ctx.terminal.run({ ...request, sandbox: confinement === 'sandboxed' ? built.value : null }, ctx.signal);
    } finally {
      // Cancelled, timed out or thrown: what the command changed is judged all the same.
      reconciled = await reconcileDirect(env, effects, before?.value, label, git, argv);
    }
    return { run: { ...run, confinement } } as const;
  });
  if (!outcome.ok) return failed(outcome.error);
  if ('refused' in outcome.value) return failed(toolError(`the command was not run: ${outcome.value.refused}`));
  const { run } = outcome.value;
  sink.commands.push(run);
  const accepted = staged ? staged.accepted : reconciled.accepted;
  sink.addFileChanges(accepted);
  const refusedLines = staged ? [...staged.refused.map(refusalText), ...staged.unjudgeable] : [];
  await ctx.record({
    type: 'command_sandbox',
    stepId: ctx.step.id,
    command,
    confinement,
    network,
    ...(network ? { hostLoopback } : {}),
    sandbox: confinement === 'sandboxed' && support.available ? support.kind : 'none',
    ...(decision.kind === 'run' && decision.reason
      ? { reason: decision.reason }
      : staging
        ? {}
        : directWhy
          ? { reason: `writes the workspace directly: ${directWhy}` }
          : {}),
    rolledBack: reconciled.rolledBack,
    unrestored: reconciled.unrestored,
    staging: staging ? 'staged' : 'direct',
    applied: staged ? staged.accepted.map((c) => c.path) : [],
    kept: staged?.kept ?? [],
    refused: refusedLines,
  });
  return commandResult(env, run, confinement, staged, reconciled, refusedLines);
}

/** What a failed command prints when it wanted the network (npm, pip, git, curl, node's fetch…). */
const NETWORK_ERROR =
  /ENOTFOUND|EAI_AGAIN|ENETUNREACH|ECONNREFUSED|ENOTCACHED|getaddrinfo|Could not resolve host|Network is unreachable|Temporary failure in name resolution|offline mode|--offline|Failed to establish a new connection|fetch failed/i;

function refusalText(r: Refusal): string {
  return `${r.path} (${r.what}: ${r.why})`;
}

/** Runs a staged command and settles its layer — after a cancel, a timeout or a throw too. */
async function runStaged(
  env: ToolEnv,
  staging: Staging,
  request: Omit<CommandRequest, 'sandbox'>,
  host: HostFacts,
): Promise<{ run: CommandRun; staged?: StagedOutcome } | { refused: string }> {
  const { ctx, policy } = env;
  // Names and kinds only: what the spec hides or keeps read-only. Nothing is stat'ed or stored up front.
  const listed = await ctx.workspace.scan({ prune: scanPrune(policy, STAGED_SCOPE, true), limit: SCAN_LIMIT, detail: () => false });
  if (listed.truncated)
    return { refused: `the workspace has more than ${SCAN_LIMIT} entries outside ignored and dependency folders; add large folders to .planexecuteignore` };
  const built = sandboxSpec({ policy, entries: listed.entries, env: ctx.env, host, staged: true });
  if (!built.ok) return { refused: built.error };
  const verifier = policy.role === 'verifier';
  const stagingRequest = verifier ? { over: staging.layer } : { layer: staging.layer };
  // A worktree whose repository lies outside the workspace: its git data is written there directly (no
  // layer covers it), so it is judged afterwards as without staging — and put back when refused.
  const linkedGit = !verifier && gitWritableFor(policy) && listed.entries.some((e) => e.path === '.git' && e.kind === 'file');
  const gitMark = linkedGit && ctx.workspace.gitMark ? await ctx.workspace.gitMark() : null;
  let run: CommandRun | undefined;
  let staged: StagedOutcome | undefined;
  try {
    run = await ctx.terminal.run({ ...request, sandbox: built.value, staging: stagingRequest }, ctx.signal);
  } finally {
    // The verifier's scratch layer is thrown away by the runner: it writes nothing anyone keeps.
    if (!verifier) {
      staged = await settleStaged({
        env,
        staging: staging.layers,
        layer: staging.layer,
        entries: listed.entries,
        host,
        gitWritable: gitWritableFor(policy, listed.entries),
        label: `${ctx.step.id}: ${request.command}`,
        argv: request.argv,
      });
      if (gitMark) {
        const judged = await judgeGitRecord(ctx.workspace, policy, gitMark, request.argv, NOTHING);
        staged.refused.push(
          ...judged.rolledBack.map((why) => ({
            path: '.git',
            what: 'git data',
            why: `${why} — written directly in the worktree's repository outside the workspace`,
          })),
        );
        staged.notes.push(...judged.unrestored.map((p) => `NOT put back: ${p}`));
      }
    }
  }
  return { run, ...(staged ? { staged } : {}) };
}

function commandResult(
  env: ToolEnv,
  run: CommandRun,
  confinement: Confinement,
  staged: StagedOutcome | undefined,
  reconciled: Reconciled,
  refusedLines: string[],
): CallResult {
  const { ctx, policy } = env;
  const marker = confinement === 'sandboxed' ? '' : `, ${confinement === 'unsandboxed' ? 'UNSANDBOXED' : 'sandbox off'}`;
  const head = `exit code: ${run.exitCode ?? 'none'}${run.signal ? `, signal ${run.signal}` : ''}, ${Math.round(run.durationMs)} ms${marker}${run.truncated ? ', output truncated (head and tail kept)' : ''}`;
  const accepted = staged ? staged.accepted : reconciled.accepted;
  const uncoveredList = staged ? staged.uncovered : reconciled.uncovered;
  const lines = [
    accepted.length > 0
      ? `[${staged ? 'applied to the workspace' : 'files changed by the command'}: ${accepted.map((c) => `${c.path} (${c.change})`).join(', ')}]`
      : '',
    staged && staged.kept.length > 0
      ? `[kept for this step only — git ignores them, or they are tool caches; the step's next commands see them, the workspace does not: ${staged.kept.join(', ')}]`
      : '',
    uncoveredList.length > 0 ? `[not covered by Revert step: ${uncoveredList.join(', ')}]` : '',
    staged && staged.gitTaken > 0 ? `[git: ${staged.gitTaken} file(s) of git's data taken into the repository]` : '',
    ...(staged?.notes ?? []).map((n) => `[sandbox: ${n}]`),
    signingHint(run.exitCode, run.output) ?? '',
    !policy.authority.network && run.exitCode !== 0 && NETWORK_ERROR.test(run.output)
      ? '[sandbox: this step has no network grant, so the command could not reach the network (package managers are told they are offline); a step that must download names `network` in its authority, which the user approves in the plan]'
      : '',
  ].filter((l) => l !== '');
  const output = `${head}\n${run.output}${lines.length > 0 ? `\n${lines.join('\n')}` : ''}`;
  const partial = { files: accepted, commands: [run] };
  if (ctx.signal.aborted) return failed({ ...cancelled('the command was cancelled; its process tree was killed'), partialSideEffects: partial });
  if (refusedLines.length > 0) {
    const failure = {
      ...permissionDenied(
        'sandbox.outside_edit_scope',
        `the command changed what the step may not (edit globs: ${policy.authority.edit.join(', ') || 'none'}); those changes were NOT applied to the workspace, which still holds what it held: ${refusedLines.join('; ')}`,
      ),
      partialSideEffects: partial,
    };
    return { ...failed(failure), output: `${failed(failure).output}\n\ncommand output:\n${output}` };
  }
  if (reconciled.rolledBack.length > 0 || reconciled.unrestored.length > 0) {
    const parts = [
      reconciled.rolledBack.length > 0 ? `rolled back: ${reconciled.rolledBack.join(', ')}` : '',
      reconciled.unrestored.length > 0 ? `NOT rolled back (still in the workspace): ${reconciled.unrestored.join(', ')}` : '',
    ].filter((p) => p !== '');
    const failure = {
      ...permissionDenied(
        'sandbox.outside_edit_scope',
        `the command changed paths outside the step's edit globs (${policy.authority.edit.join(', ') || 'none'}); ${parts.join('; ')}`,
      ),
      partialSideEffects: partial,
    };
    return { ...failed(failure), output: `${failed(failure).output}\n\ncommand output:\n${output}` };
  }
  if (run.signal && run.durationMs >= ctx.settings.commandTimeoutMs) {
    return {
      ...failed({ ...timedOut(`the command exceeded ${ctx.settings.commandTimeoutMs} ms and was killed`), partialSideEffects: partial }),
      output: `timeout: ${output}`,
    };
  }
  return { ok: true, output };
}
