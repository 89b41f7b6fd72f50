/**
 * The user's own setup, as one mission uses it: the project's instruction files and the MCP servers with
 * their catalogue. Recorded once at the start (a replay and a resume read the recording, never the disk
 * again); the planner reads all of it; each step gets the instructions for its files, the paths the plan's
 * constraints forbid, and its MCP context. Instructions are text only: nothing here turns them into
 * authority — a step's authority is the approved plan's, narrowed by its `forbid_paths` checks.
 */
import type { InstructionSet } from '../contracts/instructions';
import type { McpCatalogue } from '../contracts/mcp';
import type { ConstraintCheck, Plan, Step } from '../contracts/plan';
import type { TraceEvent } from '../contracts/traceEvents';
import type { HookRunner, McpServers, PlanRequest, StepHookContext, StepMcpContext } from '../ports';
import type { HookSet } from '../contracts/hooks';
import { instructionsForPlanner } from '../instructions/applies';
import { offeredTools, serverStates } from '../mcp/names';

export interface UserSetup {
  /** The instruction files read at mission start (absent: the front end read none, e.g. --no-instructions). */
  instructions?: InstructionSet;
  /** The MCP servers and the catalogue listed at mission start (absent: none configured). */
  mcp?: { servers: McpServers; catalogue: McpCatalogue };
  /** The user's hooks (the project's only once trusted) and what runs them (absent: none). */
  hooks?: MissionHooks;
}

export interface MissionHooks {
  set: HookSet;
  runner: HookRunner;
  /** Where the mission's trace file is, the hooks' `transcript_path` (absent: the front end does not know it). */
  transcriptPath?(missionId: string): string;
}

export type HookContext = NonNullable<PlanRequest['hookContext']>;

/** What the planner and replanner get from the setup (and from the hooks that ran at the start). */
export function planningSetup(setup: UserSetup, hookContext: HookContext = []): Pick<PlanRequest, 'instructions' | 'mcpTools' | 'hookContext'> {
  const instructions = instructionsForPlanner(setup.instructions);
  const tools = offeredTools(setup.mcp?.catalogue);
  return {
    ...(instructions.length > 0 ? { instructions } : {}),
    ...(tools.length > 0 ? { mcpTools: tools } : {}),
    ...(hookContext.length > 0 ? { hookContext } : {}),
  };
}

/** Claude Code's name for an approval mode, as hooks read it (`permission_mode`). */
export function permissionModeOf(approve: 'ask' | 'plan' | 'all' | undefined): string {
  return approve === 'all' ? 'bypassPermissions' : approve === 'plan' ? 'acceptEdits' : 'default';
}

/** The step's MCP context (every offered tool; the step's grants pick from them in mcpCall.ts). */
export function stepMcp(setup: UserSetup): StepMcpContext | undefined {
  if (!setup.mcp) return undefined;
  return { servers: setup.mcp.servers, tools: offeredTools(setup.mcp.catalogue), serverState: serverStates(setup.mcp.catalogue) };
}

/** The executor's hooks for a step (absent: the mission runs none). */
export function stepHooks(setup: UserSetup, missionId: string, approve: 'ask' | 'plan' | 'all' | undefined): StepHookContext | undefined {
  const hooks = setup.hooks;
  if (!hooks || hooks.set.hooks.length === 0) return undefined;
  return {
    hooks: hooks.set.hooks,
    runner: hooks.runner,
    ...(hooks.transcriptPath ? { transcriptPath: hooks.transcriptPath(missionId) } : {}),
    permissionMode: permissionModeOf(approve),
  };
}

/** Paths no step may write, from the plan's `forbid_paths` checks. */
export function forbiddenPaths(plan: Plan): { constraint: string; globs: string[] }[] {
  return (plan.constraintChecks ?? []).flatMap((c) => (c.check.kind === 'forbid_paths' ? [{ constraint: c.constraint, globs: c.check.globs }] : []));
}

/** The plan's constraint checks that the verifier runs for this step. */
export function constraintChecksFor(plan: Plan, step: Step, changedFiles: boolean): ConstraintCheck[] {
  return (plan.constraintChecks ?? []).filter((c) => {
    if (c.check.kind === 'forbid_paths') return true;
    return c.steps.length > 0 ? c.steps.includes(step.id) : changedFiles;
  });
}

/** The hooks a mission recorded at its start (a replay runs the same ones again). */
export function recordedHooks(events: readonly TraceEvent[]): HookSet | undefined {
  let set: HookSet | undefined;
  for (const e of events) if (e.type === 'hooks') set ??= e.set;
  return set;
}

/** The setup as a mission recorded it (a resume goes on with exactly that), and what its start hooks said. */
export function recordedSetup(events: readonly TraceEvent[]): Pick<UserSetup, 'instructions'> & { catalogue?: McpCatalogue; hookContext: HookContext } {
  let instructions: InstructionSet | undefined;
  let catalogue: McpCatalogue | undefined;
  const hookContext: HookContext = [];
  for (const e of events) {
    if (e.type === 'instructions') instructions = e.set;
    if (e.type === 'mcp_catalogue') catalogue = e.catalogue;
    if (e.type === 'hook_run' && e.run.stepId === null && e.run.context)
      hookContext.push({ source: `${e.run.event} hook \`${e.run.command}\` (${e.run.source})`, text: e.run.context });
  }
  return { ...(instructions ? { instructions } : {}), ...(catalogue ? { catalogue } : {}), hookContext };
}
