/**
 * The `bash` tool's path from a command line to a finished, confined run. In order:
 *   1. policy       — the command line and working directory (policy.ts), and the program it names
 *                     (programPath.ts); a refusal stops here;
 *   2. confinement  — ONE value (policy/confinement.ts, asked by stepProcess.ts confinementOfStep): sandboxed,
 *                     or refused (`required` without a sandbox, saying what to install), or unconfined —
 *                     `prefer` without a sandbox (the user must approve this command, in every approval
 *                     mode) or `off`; staged (the command writes the step attempt's layer — the verifier: a
 *                     scratch layer over it — never the workspace) or direct, and why; the network grant;
 *   3. approval     — the approval gate; the request's confinement, network and staging are read off the value;
 *   4. spec         — after approval, from the workspace as it is now (stepProcess.ts runConfined, the only
 *                     place it is built); direct writes also take a snapshot of the write scope (commandEffects.ts);
 *   5. run          — through the Terminal port, which enforces the spec or refuses;
 *   6. effects      — staged: the layer is judged and only what the step may make is applied
 *                     (stagedRun.ts); direct: changes inside the edit globs join the checkpoint, others
 *                     are undone. Either way the call fails with permission_denied naming what the step
 *                     may not do, and a `command_sandbox` trace event says how the command ran and what
 *                     became of its changes.
 */
import type { CommandRun, FileChange } from '../contracts/results';
import { resolveAction } from '../policy/policy';
import { confinementMode, type CommandConfinement } from '../policy/confinement';
import { resolveProgram } from '../policy/programPath';
import { checkPolicy, runApproved, type GateAction, type PreDecision } from './approvalGate';
import type { CommandEffects } from './commandEffects';
import { commandResult, refusalText, type CommandOutcome } from './commandResult';
import { permissionDenied, toolError } from './failures';
import { confinementOfStep, runConfined, type ConfinedRun, type Launch } from './stepProcess';
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
  return !confinementMode(ctx.settings.sandbox, await ctx.terminal.confinement()).ok;
}

export async function runCommand(env: ToolEnv, sink: CommandSink, effects: CommandEffects, command: string, hooks: CommandHooks = {}): Promise<CallResult> {
  const { ctx, policy, gate } = env;
  const allowed = await checkPolicy(gate, policy, { kind: 'run', command, cwd: '.' });
  if (!allowed.ok) return failed(allowed.error);
  // A `run` action resolves as one; anything else is a broken invariant of the policy (a bug).
  if (allowed.value.kind !== 'run') throw new Error(`the policy resolved a command as a ${allowed.value.kind}`);
  const { argv, cwdAbs } = allowed.value;
  const host = ctx.terminal.hostFacts(ctx.env);
  const program = host.platform !== 'win32' ? resolveProgram(argv[0] ?? '', ctx.env.PATH, cwdAbs, policy.rootAliases, policy.fs) : undefined;
  if (program && !program.ok) return refuseProgram(env, command, program.reason);
  const runs = program?.ok ? program.program : undefined;
  const confined = await confinementOfStep(env, host);
  if (!confined.ok) {
    await ctx.record({ type: 'policy_denied', stepId: ctx.step.id, action: `run \`${command}\``, rule: 'sandbox.unavailable', reason: confined.error.message });
    return failed(confined.error);
  }
  const c = confined.value;
  const label = `${ctx.step.id}: ${command}`;
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
  const outcome = await runApproved(
    gate,
    gateActionOf(c, command, argv, runs),
    // The spec is built inside, after the decision: from the workspace as it then is.
    () => runConfined(env, effects, c, { label, argv }, launch, hooks.beforeSettle),
    undefined,
    hooks.pre,
  );
  if (!outcome.ok) return failed(outcome.error);
  if ('refused' in outcome.value) return failed(toolError(`the command was not run: ${outcome.value.refused}`));
  const done = outcome.value;
  const run: CommandRun = { ...done.run, confinement: c.mode };
  sink.commands.push(run);
  sink.addFileChanges(done.staged ? done.staged.accepted : done.reconciled.accepted);
  await ctx.record({
    type: 'command_sandbox',
    stepId: ctx.step.id,
    command,
    ...(runs !== undefined ? { program: runs } : {}),
    confinement: c.mode,
    ...networkOf(c),
    sandbox: c.sandbox,
    ...(c.reason ? { reason: c.reason } : c.writes.kind === 'direct' ? { reason: `writes the workspace directly: ${c.writes.why}` } : {}),
    ...effectsOf(c, done),
  });
  const passedOver = program?.ok ? program.passedOver : undefined;
  const shown: Partial<CommandOutcome> = runs !== undefined && passedOver !== undefined ? { program: { name: argv[0] ?? '', path: runs, passedOver } } : {};
  const { staged, reconciled, privateOutputs } = done;
  return commandResult(env, { run, confinement: c.mode, staged, reconciled, privateOutputs, ...shown });
}

/** The network as the approval request and the trace say it: granted or not, and, granted, whether it is the host's. */
function networkOf(c: CommandConfinement): { network: boolean; hostLoopback?: boolean } {
  return c.network.granted ? { network: true, hostLoopback: c.network.hostLoopback } : { network: false };
}

/** What the approval is asked for: the command as it will run, its confinement read off the one value. */
function gateActionOf(c: CommandConfinement, command: string, argv: string[], program: string | undefined): GateAction {
  return {
    kind: 'command',
    command,
    argv,
    cwd: '.',
    confinement: c.mode,
    ...networkOf(c),
    staged: c.writes.kind === 'staged',
    ...(program !== undefined ? { program } : {}),
  };
}

/** A program found on PATH only inside the workspace: refused before anything is asked (programPath.ts). */
async function refuseProgram(env: ToolEnv, command: string, reason: string): Promise<CallResult> {
  await env.ctx.record({ type: 'policy_denied', stepId: env.ctx.step.id, action: `run \`${command}\``, rule: 'command.program_in_workspace', reason });
  return failed(permissionDenied('command.program_in_workspace', reason));
}

/** What became of a command's changes, as the `command_sandbox` trace event records it. */
function effectsOf(c: CommandConfinement, { staged, reconciled }: Pick<ConfinedRun<CommandRun>, 'staged' | 'reconciled'>) {
  return {
    rolledBack: reconciled.rolledBack,
    unrestored: reconciled.unrestored,
    staging: c.writes.kind,
    applied: staged ? staged.accepted.map((change) => change.path) : [],
    kept: staged ? staged.kept.map((k) => `${k.path} (${k.why})`) : [],
    refused: staged ? [...(staged.capped ? [staged.capped] : []), ...staged.refused.map(refusalText), ...staged.unjudgeable] : [],
  };
}
