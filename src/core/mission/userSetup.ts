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
import type { McpServers, PlanRequest, StepMcpContext } from '../ports';
import { instructionsForPlanner } from '../instructions/applies';
import { offeredTools, serverStates } from '../mcp/names';

export interface UserSetup {
  /** The instruction files read at mission start (absent: the front end read none, e.g. --no-instructions). */
  instructions?: InstructionSet;
  /** The MCP servers and the catalogue listed at mission start (absent: none configured). */
  mcp?: { servers: McpServers; catalogue: McpCatalogue };
}

/** What the planner and replanner get from the setup. */
export function planningSetup(setup: UserSetup): Pick<PlanRequest, 'instructions' | 'mcpTools'> {
  const instructions = instructionsForPlanner(setup.instructions);
  const tools = offeredTools(setup.mcp?.catalogue);
  return { ...(instructions.length > 0 ? { instructions } : {}), ...(tools.length > 0 ? { mcpTools: tools } : {}) };
}

/** The step's MCP context (every offered tool; the step's grants pick from them in mcpCall.ts). */
export function stepMcp(setup: UserSetup): StepMcpContext | undefined {
  if (!setup.mcp) return undefined;
  return { servers: setup.mcp.servers, tools: offeredTools(setup.mcp.catalogue), serverState: serverStates(setup.mcp.catalogue) };
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

/** The setup as a mission recorded it (a resume goes on with exactly that). */
export function recordedSetup(events: readonly TraceEvent[]): Pick<UserSetup, 'instructions'> & { catalogue?: McpCatalogue } {
  let instructions: InstructionSet | undefined;
  let catalogue: McpCatalogue | undefined;
  for (const e of events) {
    if (e.type === 'instructions') instructions = e.set;
    if (e.type === 'mcp_catalogue') catalogue = e.catalogue;
  }
  return { ...(instructions ? { instructions } : {}), ...(catalogue ? { catalogue } : {}) };
}
