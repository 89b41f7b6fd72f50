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
import type { CommandRequest, GitMark, ScanMemo, StagingLayers, Workspace } from '../ports';
import { resolveAction, type Policy } from '../policy/policy';
import { commandWriteScope, gitWritableFor, sandboxSpec, scanPrune, STAGED_SCOPE, untouchableIn, type HostFacts, type SpecMemo } from '../policy/sandboxSpec';
import { resolveProgram } from '../policy/programPath';
import { settleStaged, type StagedOutcome } from './stagedRun';
import { snapshotPrivacy } from './stepPrivacy';
import { runGated } from './approvalGate';
import { CommandEffects, SCAN_LIMIT, type Reconciled } from './commandEffects';
import { commandResult, refusalText, type CommandOutcome } from './commandResult';
import { permissionDenied, toolError } from './failures';
import type { ToolEnv } from './readTools';
import { failed, type CallResult } from './toolRecorder';
import { whileReading, whileWriting } from './workspaceLock';

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
async function judgeGitRecord(workspace: Workspace, policy: Policy, mark: GitMark, reconciled: Reconciled): Promise<Reconciled> {
  const recorded = workspace.gitRecordedSince ? await workspace.gitRecordedSince(mark) : [];
  const offending = recorded.filter((r) => !r.matchesWorktree && !resolveAction(policy, { kind: 'write', path: r.path }).allowed);
  if (offending.length === 0) return reconciled;
  const problems = workspace.gitReset ? await workspace.gitReset(mark) : ["(git's record could not be put back: the workspace cannot)"];
  return {
    ...reconciled,
    rolledBack: [
      ...reconciled.rolledBack,
      ...offending.map((r) => `${r.path} (recorded by git but not in the working tree; HEAD and the index were put back)`),
    ],
    unrestored: [...reconciled.unrestored, ...problems],
  };
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
  const host: HostFacts = ctx.terminal.hostFacts(ctx.env);
  const program = parsed.allowed && host.platform !== 'win32' ? resolveProgram(argv[0] ?? '', ctx.env.PATH, cwdAbs, policy.rootAliases, policy.fs) : undefined;
  if (program && !program.ok) return refuseProgram(env, command, program.reason);
  const runs = program?.ok ? program.program : undefined;
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
    ...(runs !== undefined ? { program: runs } : {}),
  };

  let reconciled: Reconciled = NOTHING;
  let staged: StagedOutcome | undefined;
  let privateOutputs: string[] = [];
  const outcome = await runGated(gate, policy, { kind: 'run', command, cwd: '.' }, gateAction, async () => {
    const request: Omit<CommandRequest, 'sandbox'> = {
      command,
      // The program the approval named, by the absolute path it resolved to (never a workspace file on PATH).
      argv: runs !== undefined ? [runs, ...argv.slice(1)] : argv,
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
    const direct = await runDirect(env, effects, request, host, confinement, label);
    if ('refused' in direct) return direct;
    reconciled = direct.reconciled;
    privateOutputs = direct.privateOutputs;
    return { run: { ...direct.run, confinement } } as const;
  });
  if (!outcome.ok) return failed(outcome.error);
  if ('refused' in outcome.value) return failed(toolError(`the command was not run: ${outcome.value.refused}`));
  const { run } = outcome.value;
  sink.commands.push(run);
  sink.addFileChanges(staged ? staged.accepted : reconciled.accepted);
  await ctx.record({
    type: 'command_sandbox',
    stepId: ctx.step.id,
    command,
    ...(runs !== undefined ? { program: runs } : {}),
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
    ...effectsOf(staging !== undefined, staged, reconciled),
  });
  const passedOver = program?.ok ? program.passedOver : undefined;
  const shown: Partial<CommandOutcome> = runs !== undefined && passedOver !== undefined ? { program: { name: argv[0] ?? '', path: runs, passedOver } } : {};
  return commandResult(env, { run, confinement, staged, reconciled, privateOutputs, ...shown });
}

/** A program found on PATH only inside the workspace: refused before anything is asked (programPath.ts). */
async function refuseProgram(env: ToolEnv, command: string, reason: string): Promise<CallResult> {
  await env.ctx.record({ type: 'policy_denied', stepId: env.ctx.step.id, action: `run \`${command}\``, rule: 'command.program_in_workspace', reason });
  return failed(permissionDenied('command.program_in_workspace', reason));
}

/** What became of a command's changes, as the `command_sandbox` trace event records it. */
function effectsOf(staging: boolean, staged: StagedOutcome | undefined, reconciled: Reconciled) {
  return {
    rolledBack: reconciled.rolledBack,
    unrestored: reconciled.unrestored,
    staging: staging ? ('staged' as const) : ('direct' as const),
    applied: staged ? staged.accepted.map((c) => c.path) : [],
    kept: staged ? staged.kept.map((k) => `${k.path} (${k.why})`) : [],
    refused: staged ? [...(staged.capped ? [staged.capped] : []), ...staged.refused.map(refusalText), ...staged.unjudgeable] : [],
  };
}

/**
 * A command that writes the workspace directly: the spec and the snapshot come from the workspace as it is
 * now, after the approval wait; afterwards — cancelled, timed out or thrown too — what it changed is judged.
 */
async function runDirect(
  env: ToolEnv,
  effects: CommandEffects,
  request: Omit<CommandRequest, 'sandbox'>,
  host: HostFacts,
  confinement: Confinement,
  label: string,
): Promise<{ run: CommandRun; reconciled: Reconciled; privateOutputs: string[] } | { refused: string }> {
  const { ctx, policy } = env;
  const scope = commandWriteScope(policy);
  const prune = scanPrune(policy, scope);
  const scanned = await effects.scan(prune, scope);
  if (!scanned.ok) return { refused: scanned.error };
  const built = sandboxSpec({ policy, entries: scanned.value.entries, env: ctx.env, host });
  if (!built.ok) return { refused: built.error };
  const region = { scope, untouchable: untouchableIn(built.value, gitWritableFor(policy, scanned.value.entries)), prune };
  const before = scope.length > 0 ? await effects.before(scanned.value.entries, region, scanned.value.unnamable) : null;
  if (before && !before.ok) return { refused: before.error };
  // A step granted git writes: what git records is judged too (src/node/gitRecord.ts).
  const gitMark = gitWritableFor(policy) && ctx.workspace.gitMark ? await ctx.workspace.gitMark() : null;
  let reconciled: Reconciled = NOTHING;
  let run: CommandRun;
  try {
    run = await ctx.terminal.run({ ...request, sandbox: confinement === 'sandboxed' ? built.value : null }, ctx.signal);
  } finally {
    reconciled = before ? await effects.after(before.value, label) : NOTHING;
    if (gitMark) reconciled = await judgeGitRecord(ctx.workspace, policy, gitMark, reconciled);
  }
  // Build outputs git ignores outside the globs: a private copy for this command (bubblewrap), read-only under Seatbelt.
  const privateOutputs = confinement === 'sandboxed' && host.platform === 'linux' ? built.value.privateOutputs : [];
  return { run, reconciled, privateOutputs };
}

/** What a step's staged commands remember of the workspace between them: one per policy (a step attempt's). */
const stagedMemos = new WeakMap<Policy, { scan: ScanMemo; spec: SpecMemo }>();

function stagedMemoOf(policy: Policy): { scan: ScanMemo; spec: SpecMemo } {
  let memo = stagedMemos.get(policy);
  if (!memo) stagedMemos.set(policy, (memo = { scan: {}, spec: { verdicts: new WeakMap() } }));
  return memo;
}

/** Runs a staged command and settles its layer — after a cancel, a timeout or a throw too. */
async function runStaged(
  env: ToolEnv,
  staging: Staging,
  request: Omit<CommandRequest, 'sandbox'>,
  host: HostFacts,
): Promise<{ run: CommandRun; staged?: StagedOutcome } | { refused: string }> {
  const { ctx, policy } = env;
  // Names and kinds only: what the spec hides or keeps read-only. Nothing is stat'ed or stored up front, and
  // what the step's earlier commands listed and judged is taken again for every folder that did not move.
  const memo = stagedMemoOf(policy);
  const listed = await ctx.workspace.scan({ prune: scanPrune(policy, STAGED_SCOPE, true), limit: SCAN_LIMIT, detail: () => false, memo: memo.scan });
  if (listed.truncated)
    return { refused: `the workspace has more than ${SCAN_LIMIT} entries outside ignored and dependency folders; add large folders to .planexecuteignore` };
  const built = sandboxSpec({ policy, entries: listed.entries, env: ctx.env, host, staged: true, memo: memo.spec });
  if (!built.ok) return { refused: built.error };
  const verifier = policy.role === 'verifier';
  // What the step keeps for itself: the user's rules as the attempt began (taken before its first write).
  const privacy = verifier ? undefined : env.privacy ? await env.privacy() : await snapshotPrivacy(ctx, policy, host);
  const stagingRequest = verifier ? { over: staging.layer } : { layer: staging.layer };
  let run: CommandRun | undefined;
  let staged: StagedOutcome | undefined;
  try {
    // No write to the workspace while the overlay over it is mounted (workspaceLock.ts).
    run = await whileReading(ctx.workspace.root, () => ctx.terminal.run({ ...request, sandbox: built.value, staging: stagingRequest }, ctx.signal));
  } finally {
    // The verifier's scratch layer is thrown away by the runner: it writes nothing anyone keeps.
    if (privacy) {
      staged = await whileWriting(ctx.workspace.root, () =>
        settleStaged({
          env,
          staging: staging.layers,
          layer: staging.layer,
          privacy,
          gitWritable: gitWritableFor(policy, listed.entries),
          label: `${ctx.step.id}: ${request.command}`,
        }),
      );
    }
  }
  return { run, ...(staged ? { staged } : {}) };
}
