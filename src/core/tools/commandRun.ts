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
import type { SandboxSupport } from '../contracts/sandbox';
import type { CommandRun, FileChange } from '../contracts/results';
import { resolveAction } from '../policy/policy';
import type { HostFacts } from '../policy/sandboxSpec';
import { resolveProgram } from '../policy/programPath';
import type { StagedOutcome } from './stagedRun';
import { runGated, type PreDecision } from './approvalGate';
import type { CommandEffects, Reconciled } from './commandEffects';
import { commandResult, refusalText, type CommandOutcome } from './commandResult';
import { permissionDenied, toolError } from './failures';
import { decideConfinement, NOTHING, runDirect, runStaged, stagingFor, type Decision, type Launch } from './stepProcess';
import type { ToolEnv } from './readTools';
import { failed, type CallResult } from './toolRecorder';

export interface CommandSink {
  /** The step's checkpoint: merges command-made changes in. */
  addFileChanges(changes: FileChange[]): void;
  commands: CommandRun[];
}

/** A command's hooks (stepHooks.ts): the PreToolUse answer for the gate, and PostToolUse over the layer before it settles. */
export interface CommandHooks {
  pre?: PreDecision;
  /** Runs over the step's layer after the command, before its changes are judged and applied; a reason withholds them all. */
  beforeSettle?(run: CommandRun): Promise<string | undefined>;
}

/**
 * Whether the policy refuses this command before anything is asked — its line, a program of that name
 * found only inside the workspace, or no sandbox where one is required. Such a command never reaches a hook.
 */
export async function refusedBeforeAsking(env: ToolEnv, command: string): Promise<boolean> {
  const { ctx, policy } = env;
  const parsed = resolveAction(policy, { kind: 'run', command, cwd: '.' });
  if (!parsed.allowed || parsed.kind !== 'run') return true;
  if (ctx.terminal.hostFacts(ctx.env).platform !== 'win32') {
    const program = resolveProgram(parsed.argv[0] ?? '', ctx.env.PATH, parsed.cwdAbs, policy.rootAliases, policy.fs);
    if (!program.ok) return true;
  }
  return decideConfinement(ctx.settings.sandbox, await ctx.terminal.confinement()).kind === 'refuse';
}

export async function runCommand(env: ToolEnv, sink: CommandSink, effects: CommandEffects, command: string, hooks: CommandHooks = {}): Promise<CallResult> {
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
  const launch: Launch<CommandRun> = (sandbox, stagingRequest) =>
    ctx.terminal.run(
      {
        command,
        // The program the approval named, by the absolute path it resolved to (never a workspace file on PATH).
        argv: runs !== undefined ? [runs, ...argv.slice(1)] : argv,
        cwd: cwdAbs,
        timeoutMs: ctx.settings.commandTimeoutMs,
        maxOutputBytes: ctx.settings.maxOutputBytes,
        env: { ...ctx.env },
        sandbox,
        ...(stagingRequest ? { staging: stagingRequest } : {}),
      },
      ctx.signal,
    );
  const outcome = await runGated(
    gate,
    policy,
    { kind: 'run', command, cwd: '.' },
    gateAction,
    async () => {
      if (staging) {
        const r = await runStaged(env, staging, host, { label, argv }, launch, hooks.beforeSettle);
        if ('refused' in r) return r;
        staged = r.staged;
        return { run: { ...r.run, confinement } } as const;
      }
      const direct = await runDirect(env, effects, confinement, host, { label, argv }, launch);
      if ('refused' in direct) return direct;
      reconciled = direct.reconciled;
      privateOutputs = direct.privateOutputs;
      return { run: { ...direct.run, confinement } } as const;
    },
    undefined,
    hooks.pre,
  );
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
