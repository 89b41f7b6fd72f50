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
import type { CommandRun, FileChange } from '../contracts/results';
import { resolveAction } from '../policy/policy';
import type { HostFacts } from '../policy/sandboxSpec';
import type { StagedOutcome } from './stagedRun';
import { runGated, type PreDecision } from './approvalGate';
import type { CommandEffects, Reconciled } from './commandEffects';
import { cancelled, permissionDenied, timedOut, toolError } from './failures';
import { decideConfinement, NOTHING, refusalText, runDirect, runStaged, stagingFor, type Decision, type Launch } from './stepProcess';
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

export async function runCommand(env: ToolEnv, sink: CommandSink, effects: CommandEffects, command: string, hooks: CommandHooks = {}): Promise<CallResult> {
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
  const launch: Launch<CommandRun> = (sandbox, stagingRequest) =>
    ctx.terminal.run(
      {
        command,
        argv,
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
        const r = await runStaged(env, staging, host, label, launch, hooks.beforeSettle);
        if ('refused' in r) return r;
        staged = r.staged;
        return { run: { ...r.run, confinement } } as const;
      }
      const r = await runDirect(env, effects, confinement, host, label, launch);
      if ('refused' in r) return r;
      reconciled = r.reconciled;
      return { run: { ...r.run, confinement } } as const;
    },
    undefined,
    hooks.pre,
  );
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
    staged && staged.withheld.length > 0 ? `[NOT applied to the workspace — a PostToolUse hook blocked the change: ${staged.withheld.join(', ')}]` : '',
    ...(staged?.notes ?? []).map((n) => `[sandbox: ${n}]`),
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
