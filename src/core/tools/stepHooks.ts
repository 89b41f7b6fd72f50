/**
 * The user's hooks around one step attempt's tool calls and its report (the executor only; the verifier
 * gets none). In order, for a tool call:
 *   1. policy   — the caller's own check; a refused call never reaches a hook;
 *   2. PreToolUse — `deny` refuses the call (the model is told why); `allow` and `ask` go to the approval
 *                 gate as its pre-decision (approvalGate.ts: `allow` never stands in for an unsandboxed
 *                 command, `ask` reaches the user whatever the mode);
 *   3. the call itself;
 *   4. PostToolUse — project hooks run first, over the step's staging layer before it settles (a command's
 *                 changes are still there, unapplied, and the hooks' own writes join them): a block
 *                 withholds all of it. Then the user's hooks (and project hooks where nothing is staged)
 *                 run on the workspace: a block takes the call's change and the hooks' writes back from
 *                 the checkpoint. Either way the model is told which hook blocked and why.
 * Where a hook runs: a project hook as one of the step's commands — inside its sandbox, at the workspace
 * root, with its writes judged like the step's own (refused outside the edit globs, no network unless
 * granted) — and never unconfined (no sandbox: it does not run, and that is a failure naming it); a user
 * hook unconfined, as the user.
 */
import type { FileChange } from '../contracts/results';
import type { SandboxSpec } from '../contracts/sandbox';
import type { StagingRequest } from '../contracts/staging';
import type { Hook, HookEvent } from '../contracts/hooks';
import { hooksFor, toolUseOf, type OurToolCall } from '../hooks/matching';
import { notRun, placed, runEventHooks, type EventRun, type HookEnv, type HookLauncher, type HookRequest } from '../hooks/run';
import type { PreDecision } from './approvalGate';
import type { CommandEffects } from './commandEffects';
import { revertStep } from './checkpoints';
import type { ToolEnv } from './readTools';
import { launchInLayer, refusedLinesOf, runAsStepCommand, settleLayer, stepPlace, type StepPlace } from './stepProcess';

/** Stop hooks may send the executor back to work this many times per step attempt; then its report stands. */
const MAX_STOP_BLOCKS = 3;

/** What the step's checkpoint needs to hear from the hooks: their writes, and what a block restored. */
export interface HookCheckpoint {
  addFileChanges(changes: FileChange[]): void;
  /** `path` holds `hash` again (null: it is gone), as it did before the call a hook blocked. */
  restored(path: string, hash: string | null): void;
}

/** The PreToolUse answer: the call is refused, or it goes on (with what the gate and the model get). */
type PreOutcome = { denied: string } | { pre?: PreDecision; notes: string[] };

/** The PostToolUse answer: a block (the change was taken back) or notes for the model (context, warnings, refused writes). */
interface PostOutcome {
  blocked?: string;
  notes: string[];
}

export interface StepHooks {
  pre(call: OurToolCall): Promise<PreOutcome>;
  /** After a call whose change is on disk (`changes`; none for reads and MCP calls). */
  after(call: OurToolCall, response: Record<string, unknown>, changes: readonly FileChange[]): Promise<PostOutcome>;
  /** The first half of PostToolUse for a staged command: project hooks over its layer; a reason withholds it all. */
  beforeSettle(call: OurToolCall, response: Record<string, unknown>): Promise<string | undefined>;
  stop(): Promise<string | undefined>;
}

function blockOf(run: EventRun): string | undefined {
  const c = run.combined;
  return c.decision === 'block' || c.decision === 'deny' ? `${c.reason}\n(blocked by ${c.by.join('; ')})` : undefined;
}

function notesOf(run: EventRun): string[] {
  return [
    ...run.combined.context.map((c) => `[hook context] ${c}`),
    ...run.warnings.map((w) => `[hook warning] ${w}`),
    ...run.refused.map((r) => `[hook write refused] ${r}`),
  ];
}

/** Per path: the content before the first change and after the last (what taking the lot back must restore). */
function merged(changes: readonly FileChange[]): FileChange[] {
  const byPath = new Map<string, FileChange>();
  for (const c of changes) {
    const prior = byPath.get(c.path);
    byPath.set(c.path, prior ? { ...c, beforeHash: prior.beforeHash } : c);
  }
  return [...byPath.values()];
}

export function createStepHooks(env: ToolEnv, effects: CommandEffects, checkpoint: HookCheckpoint): StepHooks | undefined {
  const { ctx, policy } = env;
  const setup = ctx.hooks;
  if (!setup || ctx.role !== 'executor' || setup.hooks.length === 0) return undefined;
  const stepId = ctx.step.id;
  const henv: HookEnv = {
    missionId: ctx.missionId,
    root: policy.root,
    ...(setup.transcriptPath !== undefined ? { transcriptPath: setup.transcriptPath } : {}),
    permissionMode: setup.permissionMode,
    env: ctx.env,
    runner: setup.runner,
    record: (e) => ctx.record(e),
    signal: ctx.signal,
  };
  let placing: Promise<StepPlace> | undefined;
  const place = (): Promise<StepPlace> => (placing ??= stepPlace(env));
  let stopBlocks = 0;

  /** The project hooks' runs over a command's layer, kept from beforeSettle until after() (a step's calls come one at a time). */
  const overCommand = new WeakMap<OurToolCall, EventRun>();
  const launchFor = (request: HookRequest, sandbox: SandboxSpec | null, staging?: StagingRequest) =>
    setup.runner.run(placed(request, sandbox, staging), ctx.signal);

  /** A hook settled at once: a user hook unconfined; a project hook as one of the step's commands. */
  const settled: HookLauncher = async (hook, request) => {
    if (hook.origin === 'user') return { run: await launchFor(request, null), accepted: [], refused: [] };
    const p = await place();
    if ('refused' in p) return notRun(`project hooks run only in the OS sandbox: ${p.refused}`);
    if (p.confinement === 'unsandboxed') return notRun('project hooks run only inside the OS sandbox, and there is none here');
    const label = `${stepId}: ${hook.event} hook ${hook.command}`;
    const r = await runAsStepCommand(env, effects, p, label, (sandbox, staging) => launchFor(request, sandbox, staging));
    if ('failed' in r) return notRun(r.failed);
    checkpoint.addFileChanges(r.accepted);
    return { run: r.run, accepted: r.accepted, refused: r.refusedWrites };
  };

  const run = (event: HookEvent, hooks: readonly Hook[], fields: Record<string, unknown>, launch: HookLauncher, tool?: string): Promise<EventRun> =>
    runEventHooks(henv, event, hooks, { ...fields, step_id: stepId }, launch, { stepId, ...(tool !== undefined ? { tool } : {}) });

  /** Takes the call's change and the hooks' writes back to what was there before the call. */
  const takeBack = async (changes: readonly FileChange[]): Promise<string[]> => {
    const files = merged(changes);
    if (files.length === 0) return [];
    const out = await revertStep(ctx.workspace, ctx.store, files, { force: true, label: `${stepId}: taken back (a PostToolUse hook blocked)` });
    if (!out.ok) return [`NOT taken back: ${out.error.message}`];
    for (const f of files) checkpoint.restored(f.path, f.beforeHash);
    return [];
  };

  /** Project PostToolUse hooks over the layer, then settle it: applied, or withheld on a block. */
  const overLayer = async (hooks: readonly Hook[], fields: Record<string, unknown>, tool: string, p: Exclude<StepPlace, { refused: string }>) => {
    const staging = p.staging!;
    const pending: HookLauncher = async (_hook, request) => {
      const r = await launchInLayer(env, staging, p.host, (sandbox, st) => launchFor(request, sandbox, st));
      return 'refused' in r ? notRun(r.refused) : { run: r.run, accepted: [], refused: [] };
    };
    return run('PostToolUse', hooks, fields, pending, tool);
  };

  return {
    async pre(call) {
      const use = toolUseOf(call, policy.root);
      const hooks = hooksFor(setup.hooks, 'PreToolUse', use.name);
      if (hooks.length === 0) return { notes: [] };
      const r = await run('PreToolUse', hooks, { tool_name: use.name, tool_input: use.input }, settled, use.name);
      const c = r.combined;
      const by = c.by.join('; ');
      if (c.decision === 'deny' || c.decision === 'block') return { denied: `${c.reason}\n(denied by ${by})` };
      const pre: PreDecision | undefined = c.decision === 'allow' || c.decision === 'ask' ? { decision: c.decision, by, reason: c.reason } : undefined;
      return { ...(pre ? { pre } : {}), notes: notesOf(r) };
    },

    async beforeSettle(call, response) {
      const use = toolUseOf(call, policy.root);
      const project = hooksFor(setup.hooks, 'PostToolUse', use.name).filter((h) => h.origin === 'project');
      const p = await place();
      if (project.length === 0 || 'refused' in p || !p.staging) return undefined;
      const r = await overLayer(project, { tool_name: use.name, tool_input: use.input, tool_response: response }, use.name, p);
      overCommand.set(call, r);
      return blockOf(r);
    },

    async after(call, response, changes) {
      const use = toolUseOf(call, policy.root);
      const hooks = hooksFor(setup.hooks, 'PostToolUse', use.name);
      const earlier = overCommand.get(call);
      overCommand.delete(call);
      if (hooks.length === 0) return { notes: [] };
      const fields = { tool_name: use.name, tool_input: use.input, tool_response: response };
      const p = await place();
      const layered = !('refused' in p) && p.staging !== undefined && p.confinement === 'sandboxed';
      const notes: string[] = earlier ? notesOf(earlier) : [];
      const taken: FileChange[] = [...changes];
      // A command's project hooks already ran over its layer (beforeSettle); an edit's run over the layer now.
      if (earlier) {
        const blocked = blockOf(earlier);
        if (blocked) return { blocked, notes };
      } else if (layered) {
        const project = hooks.filter((h) => h.origin === 'project');
        if (project.length > 0) {
          const r = await overLayer(project, fields, use.name, p);
          notes.push(...notesOf(r));
          const blocked = blockOf(r);
          const s = await settleLayer(env, p.staging!, p.host, `${stepId}: ${use.name} PostToolUse hooks`, blocked);
          if ('failed' in s) notes.push(`[hook warning] the hooks' writes could not be judged: ${s.failed}`);
          else {
            checkpoint.addFileChanges(s.accepted);
            taken.push(...s.accepted);
            notes.push(...refusedLinesOf(s).map((l) => `[hook write refused] ${l}`));
          }
          if (blocked) return { blocked, notes: [...notes, ...(await takeBack(taken))] };
        }
      }
      const rest = layered || earlier ? hooks.filter((h) => h.origin === 'user') : hooks;
      const r = await run('PostToolUse', rest, fields, settled, use.name);
      notes.push(...notesOf(r));
      taken.push(...r.accepted);
      const blocked = blockOf(r);
      if (!blocked) return { notes };
      return { blocked, notes: [...notes, ...(await takeBack(taken))] };
    },

    async stop() {
      const hooks = hooksFor(setup.hooks, 'Stop');
      if (hooks.length === 0) return undefined;
      const r = await run('Stop', hooks, { stop_hook_active: stopBlocks > 0 }, settled);
      const blocked = blockOf(r);
      if (!blocked) return undefined;
      if (stopBlocks >= MAX_STOP_BLOCKS) {
        await ctx.record({
          type: 'log',
          level: 'warn',
          message: `step ${stepId}: a Stop hook blocked again after ${MAX_STOP_BLOCKS} blocks; the executor's report stands`,
        });
        return undefined;
      }
      stopBlocks++;
      return blocked;
    },
  };
}
