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
import type { Failure, FileChange } from '../contracts/results';
import type { SandboxSpec } from '../contracts/sandbox';
import type { StagingRequest } from '../contracts/staging';
import type { Hook, HookEvent } from '../contracts/hooks';
import { hooksFor, toolUseOf, type OurToolCall } from '../hooks/matching';
import { notRun, placed, runEventHooks, type EventRun, type HookEnv, type HookLauncher, type HookRequest } from '../hooks/run';
import type { HookProcessRun, StepHookContext } from '../ports';
import type { PreDecision } from './approvalGate';
import type { CommandEffects } from './commandEffects';
import { revertStep } from './checkpoints';
import type { ToolEnv } from './readTools';
import type { Result } from '../contracts/result';
import { isStaged, type CommandConfinement, type StagedConfinement } from '../policy/confinement';
import { confinementOfStep, launchInLayer, refusedLinesOf, runAsStepCommand, settleLayer } from './stepProcess';

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
  const setup = env.ctx.hooks;
  if (!setup || env.ctx.role !== 'executor' || setup.hooks.length === 0) return undefined;
  return new StepHookRunner(env, effects, checkpoint, setup);
}

/** One step attempt's hooks: where each runs, what its writes come to, and how many Stop blocks are left. */
class StepHookRunner implements StepHooks {
  readonly #henv: HookEnv;
  readonly #stepId: string;
  /** The step's confinement, asked once (policy/confinement.ts): every project hook of the step runs in it. */
  #placing: Promise<Result<CommandConfinement, Failure>> | undefined;
  #stopBlocks = 0;
  /** The project hooks' runs over a command's layer, kept from beforeSettle until after() (a step's calls come one at a time). */
  readonly #overCommand = new WeakMap<OurToolCall, EventRun>();

  constructor(
    private readonly env: ToolEnv,
    private readonly effects: CommandEffects,
    private readonly checkpoint: HookCheckpoint,
    private readonly setup: StepHookContext,
  ) {
    const { ctx, policy } = env;
    this.#stepId = ctx.step.id;
    this.#henv = {
      missionId: ctx.missionId,
      root: policy.root,
      ...(setup.transcriptPath !== undefined ? { transcriptPath: setup.transcriptPath } : {}),
      permissionMode: setup.permissionMode,
      env: ctx.env,
      runner: setup.runner,
      record: (e) => ctx.record(e),
      signal: ctx.signal,
    };
  }

  async pre(call: OurToolCall): Promise<PreOutcome> {
    const use = toolUseOf(call, this.env.policy.root);
    const hooks = hooksFor(this.setup.hooks, 'PreToolUse', use.name);
    if (hooks.length === 0) return { notes: [] };
    const r = await this.#run('PreToolUse', hooks, { tool_name: use.name, tool_input: use.input }, this.#settled, use.name);
    const c = r.combined;
    const by = c.by.join('; ');
    if (c.decision === 'deny' || c.decision === 'block') return { denied: `${c.reason}\n(denied by ${by})` };
    const pre: PreDecision | undefined = c.decision === 'allow' || c.decision === 'ask' ? { decision: c.decision, by, reason: c.reason } : undefined;
    return { ...(pre ? { pre } : {}), notes: notesOf(r) };
  }

  async beforeSettle(call: OurToolCall, response: Record<string, unknown>): Promise<string | undefined> {
    const use = toolUseOf(call, this.env.policy.root);
    const project = hooksFor(this.setup.hooks, 'PostToolUse', use.name).filter((h) => h.origin === 'project');
    const p = await this.#place();
    if (project.length === 0 || !p.ok || !isStaged(p.value)) return undefined;
    const r = await this.#overLayer(project, { tool_name: use.name, tool_input: use.input, tool_response: response }, use.name, p.value);
    this.#overCommand.set(call, r);
    return blockOf(r);
  }

  async after(call: OurToolCall, response: Record<string, unknown>, changes: readonly FileChange[]): Promise<PostOutcome> {
    const use = toolUseOf(call, this.env.policy.root);
    const hooks = hooksFor(this.setup.hooks, 'PostToolUse', use.name);
    const earlier = this.#overCommand.get(call);
    this.#overCommand.delete(call);
    if (hooks.length === 0) return { notes: [] };
    const fields = { tool_name: use.name, tool_input: use.input, tool_response: response };
    const p = await this.#place();
    // Staged is sandboxed by construction (policy/confinement.ts): the layer is there to run project hooks over.
    const layer = p.ok && isStaged(p.value) ? p.value : undefined;
    const notes: string[] = earlier ? notesOf(earlier) : [];
    const taken: FileChange[] = [...changes];
    // A command's project hooks already ran over its layer (beforeSettle); an edit's run over the layer now.
    const blockedEarlier = earlier ? blockOf(earlier) : undefined;
    if (blockedEarlier) return { blocked: blockedEarlier, notes };
    if (!earlier && layer) {
      const project = hooks.filter((h) => h.origin === 'project');
      const blocked = project.length > 0 ? await this.#projectOverEdit(project, fields, use.name, layer, notes, taken) : undefined;
      if (blocked) return { blocked, notes: [...notes, ...(await this.#takeBack(taken))] };
    }
    const rest = layer || earlier ? hooks.filter((h) => h.origin === 'user') : hooks;
    const r = await this.#run('PostToolUse', rest, fields, this.#settled, use.name);
    notes.push(...notesOf(r));
    taken.push(...r.accepted);
    const blocked = blockOf(r);
    if (!blocked) return { notes };
    return { blocked, notes: [...notes, ...(await this.#takeBack(taken))] };
  }

  async stop(): Promise<string | undefined> {
    const hooks = hooksFor(this.setup.hooks, 'Stop');
    if (hooks.length === 0) return undefined;
    const r = await this.#run('Stop', hooks, { stop_hook_active: this.#stopBlocks > 0 }, this.#settled);
    const blocked = blockOf(r);
    if (!blocked) return undefined;
    if (this.#stopBlocks >= MAX_STOP_BLOCKS) {
      await this.env.ctx.record({
        type: 'log',
        level: 'warn',
        message: `step ${this.#stepId}: a Stop hook blocked again after ${MAX_STOP_BLOCKS} blocks; the executor's report stands`,
      });
      return undefined;
    }
    this.#stopBlocks++;
    return blocked;
  }

  #place(): Promise<Result<CommandConfinement, Failure>> {
    return (this.#placing ??= confinementOfStep(this.env));
  }

  #launch(request: HookRequest, sandbox: SandboxSpec | null, staging?: StagingRequest): Promise<HookProcessRun> {
    return this.setup.runner.run(placed(request, sandbox, staging), this.env.ctx.signal);
  }

  #run(event: HookEvent, hooks: readonly Hook[], fields: Record<string, unknown>, launch: HookLauncher, tool?: string): Promise<EventRun> {
    const about = { stepId: this.#stepId, ...(tool !== undefined ? { tool } : {}) };
    return runEventHooks(this.#henv, event, hooks, { ...fields, step_id: this.#stepId }, launch, about);
  }

  /** A hook settled at once: a user hook unconfined; a project hook as one of the step's commands. */
  readonly #settled: HookLauncher = async (hook, request) => {
    if (hook.origin === 'user') return { run: await this.#launch(request, null), accepted: [], refused: [] };
    const p = await this.#place();
    if (!p.ok) return notRun(`project hooks run only in the OS sandbox: ${p.error.message}`);
    if (p.value.mode === 'unsandboxed') return notRun('project hooks run only inside the OS sandbox, and there is none here');
    const label = `${this.#stepId}: ${hook.event} hook ${hook.command}`;
    const r = await runAsStepCommand(this.env, this.effects, p.value, label, (sandbox, staging) => this.#launch(request, sandbox, staging));
    if ('failed' in r) return notRun(r.failed);
    this.checkpoint.addFileChanges(r.accepted);
    return { run: r.run, accepted: r.accepted, refused: r.refusedWrites };
  };

  /** Project PostToolUse hooks over the step's layer, left unsettled (the layer's owner settles it). */
  #overLayer(hooks: readonly Hook[], fields: Record<string, unknown>, tool: string, c: StagedConfinement): Promise<EventRun> {
    const pending: HookLauncher = async (_hook, request) => {
      const r = await launchInLayer(this.env, c, (sandbox, st) => this.#launch(request, sandbox, st));
      return 'refused' in r ? notRun(r.refused) : { run: r.run, accepted: [], refused: [] };
    };
    return this.#run('PostToolUse', hooks, fields, pending, tool);
  }

  /** An edit's project hooks over the layer, then the layer settled (applied, or withheld on a block); the block's reason. */
  async #projectOverEdit(hooks: readonly Hook[], fields: Record<string, unknown>, tool: string, c: StagedConfinement, notes: string[], taken: FileChange[]) {
    const r = await this.#overLayer(hooks, fields, tool, c);
    notes.push(...notesOf(r));
    const blocked = blockOf(r);
    const s = await settleLayer(this.env, c, `${this.#stepId}: ${tool} PostToolUse hooks`, blocked);
    if ('failed' in s) notes.push(`[hook warning] the hooks' writes could not be judged: ${s.failed}`);
    else {
      this.checkpoint.addFileChanges(s.accepted);
      taken.push(...s.accepted);
      notes.push(...refusedLinesOf(s).map((l) => `[hook write refused] ${l}`));
    }
    return blocked;
  }

  /** Takes the call's change and the hooks' writes back to what was there before the call. */
  async #takeBack(changes: readonly FileChange[]): Promise<string[]> {
    const files = merged(changes);
    if (files.length === 0) return [];
    const { workspace, store } = this.env.ctx;
    const out = await revertStep(workspace, store, files, { force: true, label: `${this.#stepId}: taken back (a PostToolUse hook blocked)` });
    if (!out.ok) return [`NOT taken back: ${out.error.message}`];
    for (const f of files) this.checkpoint.restored(f.path, f.beforeHash);
    return [];
  }
}
