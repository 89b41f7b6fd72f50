/**
 * The `bash` tool's path from a command line to a finished, confined run. In order:
 *   1. policy       — the command line and working directory (policy.ts); a refusal stops here;
 *   2. confinement  — what the terminal can enforce and what the user's `sandbox` setting asks:
 *                     sandboxed; or refused (`required` without a sandbox, saying what to install); or
 *                     unconfined — `prefer` without a sandbox (the user must approve this command, in
 *                     every approval mode) or `off`;
 *   3. approval     — the approval gate, with the confinement and network grant on the request;
 *   4. spec         — after approval, from the workspace as it is now (sandboxSpec.ts), with a snapshot of
 *                     the write scope (commandEffects.ts);
 *   5. run          — through the Terminal port, which enforces the spec or refuses;
 *   6. effects      — changes inside the edit globs join the checkpoint, others are rolled back and fail
 *                     the call with permission_denied naming them; a `command_sandbox` trace event says
 *                     how the command ran and what was undone.
 */
import type { Confinement, SandboxSupport } from '../contracts/sandbox';
import type { CommandRun, Failure, FileChange } from '../contracts/results';
import type { GitMark, Workspace } from '../ports';
import { resolveAction, type Policy } from '../policy/policy';
import { commandWriteScope, gitWritableFor, sandboxSpec, scanPrune, untouchableIn } from '../policy/sandboxSpec';
import { hostFacts } from '../policy/hostFacts';
import { runGated } from './approvalGate';
import { CommandEffects, type Reconciled } from './commandEffects';
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
export function decideConfinement(mode: 'required' | 'prefer' | 'off', support: SandboxSupport): Decision {
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
  const problems = workspace.gitReset ? await workspace.gitReset(mark) : ['(git\'s record could not be put back: the workspace cannot)'];
  return {
    ...reconciled,
    rolledBack: [...reconciled.rolledBack, ...offending.map((r) => `${r.path} (recorded by git but not in the working tree; HEAD and the index were put back)`)],
    unrestored: [...reconciled.unrestored, ...problems],
  };
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
      await ctx.record({ type: 'policy_denied', stepId: ctx.step.id, action: `run \`${command}\``, rule: 'sandbox.unavailable', reason: decision.failure.message });
      return failed(decision.failure);
    }
  }
  const confinement = decision.kind === 'run' ? decision.confinement : 'sandboxed';
  const network = policy.authority.network;
  // A granted network is the sandbox's own only where the runner can give it one (slirp4netns on Linux).
  const hostLoopback = network && !(confinement === 'sandboxed' && support.available && support.ownNetwork === true);
  const label = `${ctx.step.id}: ${command}`;

  let reconciled: Reconciled = NOTHING;
  const outcome = await runGated(gate, policy, { kind: 'run', command, cwd: '.' }, { kind: 'command', command, argv, cwd: '.', confinement, network, ...(network ? { hostLoopback } : {}) }, async () => {
    // The spec and the snapshot come from the workspace as it is now, after the approval wait.
    const scope = commandWriteScope(policy);
    const prune = scanPrune(policy, scope);
    const scanned = await effects.scan(prune, scope);
    if (!scanned.ok) return { refused: scanned.reason } as const;
    const built = sandboxSpec({ policy, entries: scanned.entries, env: ctx.env, host: hostFacts(ctx.env) });
    if (!built.ok) return { refused: built.reason } as const;
    const region = { scope, untouchable: untouchableIn(built.spec, gitWritableFor(policy, scanned.entries)), prune };
    const before = scope.length > 0 ? await effects.before(scanned.entries, region) : null;
    if (before && !before.ok) return { refused: before.reason } as const;
    // A step granted git writes: what git records is judged too (src/node/gitRecord.ts).
    const gitMark = gitWritableFor(policy) && ctx.workspace.gitMark ? await ctx.workspace.gitMark() : null;
    const request = {
      command, argv, cwd: cwdAbs, timeoutMs: ctx.settings.commandTimeoutMs, maxOutputBytes: ctx.settings.maxOutputBytes, env: { ...ctx.env },
      sandbox: confinement === 'sandboxed' ? built.spec : null,
    };
    let run: CommandRun;
    try {
      run = await ctx.terminal.run(request, ctx.signal);
    } finally {
      // Cancelled, timed out or thrown: what the command changed is judged all the same.
      reconciled = before ? await effects.after(before.snapshot, label) : NOTHING;
      if (gitMark) reconciled = await judgeGitRecord(ctx.workspace, policy, gitMark, reconciled);
    }
    return { run: { ...run, confinement }, reconciled } as const;
  });
  if (!outcome.ok) return failed(outcome.failure);
  if ('refused' in outcome.value) return failed(toolError(`the command was not run: ${outcome.value.refused}`));
  const { run } = outcome.value;
  sink.commands.push(run);
  sink.addFileChanges(reconciled.accepted);
  await ctx.record({
    type: 'command_sandbox', stepId: ctx.step.id, command, confinement, network, ...(network ? { hostLoopback } : {}),
    sandbox: confinement === 'sandboxed' && support.available ? support.kind : 'none',
    ...(decision.kind === 'run' && decision.reason ? { reason: decision.reason } : {}),
    rolledBack: reconciled.rolledBack, unrestored: reconciled.unrestored,
  });

  const marker = confinement === 'sandboxed' ? '' : `, ${confinement === 'unsandboxed' ? 'UNSANDBOXED' : 'sandbox off'}`;
  const head = `exit code: ${run.exitCode ?? 'none'}${run.signal ? `, signal ${run.signal}` : ''}, ${Math.round(run.durationMs)} ms${marker}${run.truncated ? ', output truncated (head and tail kept)' : ''}`;
  const changed = reconciled.accepted.length > 0 ? `\n[files changed by the command: ${reconciled.accepted.map((c) => `${c.path} (${c.change})`).join(', ')}]` : '';
  const uncovered = reconciled.uncovered.length > 0 ? `\n[not covered by Revert step: ${reconciled.uncovered.join(', ')}]` : '';
  const output = `${head}\n${run.output}${changed}${uncovered}`;
  const partial = { files: reconciled.accepted, commands: [run] };
  if (ctx.signal.aborted) return failed({ ...cancelled('the command was cancelled; its process tree was killed'), partialSideEffects: partial });
  if (reconciled.rolledBack.length > 0 || reconciled.unrestored.length > 0) {
    const names = [...reconciled.rolledBack, ...reconciled.unrestored];
    const failure = {
      ...permissionDenied('sandbox.outside_edit_scope', `the command changed paths outside the step's edit globs (${policy.authority.edit.join(', ') || 'none'}); they were rolled back: ${names.join(', ')}`),
      partialSideEffects: partial,
    };
    return { ...failed(failure), output: `${failed(failure).output}\n\ncommand output:\n${output}` };
  }
  if (run.signal && run.durationMs >= ctx.settings.commandTimeoutMs) {
    return { ...failed({ ...timedOut(`the command exceeded ${ctx.settings.commandTimeoutMs} ms and was killed`), partialSideEffects: partial }), output: `timeout: ${output}` };
  }
  return { ok: true, output };
}
