/**
 * Trace events: every arrow in the data flow is one. The JSONL trace is the mission's source of truth;
 * front ends render from it, and it is validated with these schemas whenever it is read back from disk.
 *
 * Adding an event type: add a schema to `TraceEventBodySchema` (one JSDoc line), never change the meaning
 * of an existing field.
 */
import { z } from 'zod';
import { PlanSchema } from './plan';
import { FailureSchema, StepResultSchema, VerificationSchema } from './results';
import { HandoffSchema, ToolCallRecordSchema } from './handoff';
import { ConfinementSchema } from './sandbox';
import { InstructionSetSchema } from './instructions';
import { McpCallOutcomeSchema, McpCatalogueSchema, McpConfinementSchema } from './mcp';
import { HookRunSchema, HookSetSchema } from './hooks';
import { CostSummarySchema, PlanEstimateSchema } from './estimate';

export const StepRunStatusSchema = z.enum([
  'pending',
  'ready',
  'running',
  'verifying',
  'succeeded',
  'failed',
  'blocked',
  'skipped',
  'interrupted',
  'cancelled',
  'replaced',
  /** The step ran, then the user restored the files it changed to their checkpoint (its work is undone). */
  'reverted',
]);

export const MissionPhaseSchema = z.enum(['planning', 'awaiting_approval', 'running', 'replanning', 'succeeded', 'failed', 'cancelled', 'interrupted']);

export const UsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cacheReadTokens: z.number().int().nonnegative().default(0),
  cacheWriteTokens: z.number().int().nonnegative().default(0),
});

export const PlanDiffSchema = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.object({ stepId: z.string(), fields: z.array(z.string()) })),
  /** Plan-level fields that changed (goal, constraints, assumptions, direct). Additive; absent = none. */
  planFields: z.array(z.string()).optional(),
});

const ApprovalDecisionSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('approved'), by: z.enum(['user', 'rule']), rule: z.string().optional() }),
  z.object({ decision: z.literal('rejected'), reason: z.string() }),
]);

/** A replan: what triggered it, its evidence, and which version it produced (the `replan` event, and the mission view's record of it). */
export const ReplanRecordSchema = z.object({
  trigger: z.string(),
  stepId: z.string().nullable(),
  mode: z.enum(['step', 'rest']),
  evidence: z.string(),
  fromVersion: z.number().int(),
  /** null: the proposed version was refused (the evidence says why) or the planner failed. */
  toVersion: z.number().int().nullable(),
  invalidated: z.array(z.object({ stepId: z.string(), reason: z.string() })).default([]),
  /** Why the proposed version was refused, one sentence each, in words for the user. Additive; absent = not refused. */
  refusedBecause: z.array(z.string()).optional(),
});

export const TraceEventBodySchema = z.discriminatedUnion('type', [
  /** The mission began: task, workspace, effective settings (never secrets). */
  z.object({
    type: z.literal('mission_started'),
    task: z.string(),
    workspaceRoot: z.string(),
    settings: z.record(z.string(), z.unknown()),
    /** The user's constraints as the planner got them (a replay asks with these). Additive; absent = unknown. */
    constraints: z.array(z.string()).optional(),
  }),
  /**
   * The project's instruction files the mission uses (and those listed but not used, with why): path, size,
   * content hash and the text used. Recorded before planning; a replay and a resume use this text.
   */
  z.object({ type: z.literal('instructions'), set: InstructionSetSchema }),
  /** The MCP servers the mission may use and the tools each offers (the catalogue the planner saw). */
  z.object({ type: z.literal('mcp_catalogue'), catalogue: McpCatalogueSchema }),
  /** The hooks this mission runs (the user's, and the project's the user trusted), the project ones skipped, and notes. */
  z.object({ type: z.literal('hooks'), set: HookSetSchema }),
  /** One hook run: event, source file, command, exit, duration, decision, whether it timed out, and what it said. */
  z.object({ type: z.literal('hook_run'), run: HookRunSchema }),
  /**
   * Before the first command: git tracks these secrets, which no sandbox can hide from git (`git show
   * HEAD:.env`); what the mission said, and whether the user (or their flag) let it go on.
   */
  z.object({
    type: z.literal('tracked_secrets'),
    files: z.array(z.string()),
    message: z.string(),
    allowed: z.boolean(),
    by: z.enum(['user', 'flag']),
  }),
  /** One MCP tool call that reached the server (after policy and approval), and its outcome (replayed from here). */
  z.object({
    type: z.literal('mcp_call'),
    stepId: z.string(),
    role: z.enum(['executor', 'verifier']),
    server: z.string(),
    tool: z.string(),
    /** sha256 of the canonical JSON of the arguments (the tool_call record holds the arguments). */
    argumentsHash: z.string(),
    confinement: McpConfinementSchema,
    outcome: McpCallOutcomeSchema,
    durationMs: z.number().nonnegative(),
  }),
  /** A plan version exists (initial, user edit, or replan), with its diff from the parent. */
  z.object({ type: z.literal('plan_version'), plan: PlanSchema, author: z.enum(['planner', 'user', 'replanner']), diff: PlanDiffSchema.nullable() }),
  /** What a plan version is expected to cost (src/core/roles/costEstimate.ts), recorded before it is approved. */
  z.object({ type: z.literal('plan_estimate'), version: z.number().int(), estimate: PlanEstimateSchema }),
  /** The user approved a plan version to run. */
  z.object({ type: z.literal('plan_approved'), version: z.number().int(), by: z.enum(['user', 'rule']) }),
  /** A step changed run status. */
  z.object({ type: z.literal('step_status'), stepId: z.string(), status: StepRunStatusSchema, attempt: z.number().int(), reason: z.string().optional() }),
  /** The engine handed a step to an executor. */
  z.object({ type: z.literal('handoff'), handoff: HandoffSchema }),
  /** One model call: role, model, prompt version, usage and cost. */
  z.object({
    type: z.literal('model_call'),
    role: z.enum(['planner', 'executor', 'verifier', 'replanner']),
    stepId: z.string().nullable(),
    model: z.string(),
    promptVersion: z.string(),
    usage: UsageSchema,
    costUsd: z.number().nonnegative(),
    durationMs: z.number().nonnegative(),
    stopReason: z.string().nullable(),
    requestId: z.string().nullable().default(null),
    /** Hash of the request's replay-relevant shape (see src/core/model/requestHash.ts); replay matches on it. */
    requestHash: z.string().optional(),
    /** The response content blocks as received, so a replay can answer without the API. */
    response: z.object({ content: z.array(z.unknown()), stopReason: z.string().nullable() }).optional(),
    /** Attempts the adapter needed (retries after mid-stream faults), and the failure if the call failed. */
    attempts: z.number().int().positive().optional(),
    failure: FailureSchema.optional(),
    /** The provider that answered (anthropic, openai, vscode-lm). Additive; absent = anthropic. */
    provider: z.string().optional(),
    /**
     * How `costUsd` was reached: from the price table (`priced`), a model on this machine (`local`, no
     * cost), or a model with no known price (`unknown`: 0 is not a real figure). Additive; absent = as
     * before (priced when the model was in the table).
     */
    pricing: z.enum(['priced', 'local', 'unknown']).optional(),
  }),
  /**
   * A model call is waiting before it tries again (rate limit, overload, a cut stream): the step goes on
   * waiting instead of failing. `waitMs` honours the provider's retry-after when it sent one.
   */
  z.object({
    type: z.literal('model_wait'),
    role: z.enum(['planner', 'executor', 'verifier', 'replanner']),
    stepId: z.string().nullable(),
    provider: z.string(),
    model: z.string(),
    reason: z.enum(['rate_limited', 'overloaded', 'server_error', 'connection', 'stream_cut']),
    waitMs: z.number().nonnegative(),
    /** The attempt that failed (1 = the first). */
    attempt: z.number().int().positive(),
    message: z.string(),
  }),
  /** A tool call and its raw (capped) result. */
  z.object({ type: z.literal('tool_call'), record: ToolCallRecordSchema }),
  /**
   * How a command ran: inside the OS sandbox or not (and why), with its network grant, and what was rolled
   * back after it because it changed paths outside the step's edit globs.
   */
  z.object({
    type: z.literal('command_sandbox'),
    stepId: z.string().nullable(),
    command: z.string(),
    /** The program that ran, by its absolute path (a bare name resolved on PATH outside the workspace). Absent: as named. */
    program: z.string().optional(),
    confinement: ConfinementSchema,
    /** The sandbox that confined it (bubblewrap, seatbelt) or `none`. */
    sandbox: z.string(),
    network: z.boolean(),
    /** A granted network that was the host's: this machine's loopback services were reachable too. */
    hostLoopback: z.boolean().optional(),
    /** Why it ran unconfined, when it did. */
    reason: z.string().optional(),
    /** Paths outside the edit globs the command changed; they were restored. */
    rolledBack: z.array(z.string()).default([]),
    /** Changes that could not be restored, each with why. */
    unrestored: z.array(z.string()).default([]),
    /**
     * `staged`: the command wrote a private layer and only judged changes reached the workspace (then
     * `applied`, `kept`, `refused` say which); `direct`: it wrote the workspace (no staging here, with why in
     * `reason`), judged and undone afterwards. Absent in older traces.
     */
    staging: z.enum(['staged', 'direct']).optional(),
    /** Staged: paths applied to the workspace. */
    applied: z.array(z.string()).default([]),
    /** Staged: paths kept in the step's layer only (build outputs, caches), each `path (why)`. */
    kept: z.array(z.string()).default([]),
    /** Staged: paths the command changed but may not, never applied — each `path (what: why)`. */
    refused: z.array(z.string()).default([]),
  }),
  /** The policy refused an action (before any approval was asked). */
  z.object({ type: z.literal('policy_denied'), stepId: z.string().nullable(), action: z.string(), rule: z.string(), reason: z.string() }),
  /** An approval was requested (recorded before the user sees it). */
  z.object({
    type: z.literal('approval_requested'),
    requestId: z.string(),
    stepId: z.string().nullable(),
    kind: z.enum(['plan', 'write', 'command', 'mcp']),
    actionHash: z.string(),
    summary: z.string(),
  }),
  /** The decision, recorded before the effect happens. */
  z.object({ type: z.literal('approval_decided'), requestId: z.string(), actionHash: z.string(), decision: ApprovalDecisionSchema }),
  /** An executor's structured result. */
  z.object({ type: z.literal('step_result'), result: StepResultSchema }),
  /** The verifier's record for a step. */
  z.object({ type: z.literal('verification'), verification: VerificationSchema }),
  /** A replan was triggered (the trigger and its evidence) and which version it produced. */
  z.object({ type: z.literal('replan'), ...ReplanRecordSchema.shape }),
  /**
   * The user reverted steps: their files were restored to the checkpoints, newest step first. Each
   * reverted step also gets a `step_status` 'reverted'. `overwrote` lists files that had changed since the
   * mission wrote them and were overwritten with the user's consent.
   */
  z.object({
    type: z.literal('revert'),
    stepIds: z.array(z.string()),
    files: z.array(z.object({ stepId: z.string(), path: z.string(), action: z.enum(['restored', 'deleted']) })),
    overwrote: z.array(z.string()).default([]),
  }),
  /**
   * A stopped mission goes on in the same trace: `resume` after an interruption, `retry` from the failing
   * step, `continue` after a cancel or a budget stop. `reopened`: steps set back to pending; `reset`: the
   * per-run budgets that start again from zero (cost and tokens never do).
   */
  z.object({
    type: z.literal('mission_continued'),
    mode: z.enum(['resume', 'retry', 'continue']),
    reopened: z.array(z.string()),
    reset: z.array(z.enum(['replans', 'steps', 'wall_time'])).default([]),
    /** The settings the mission goes on with, as in mission_started (a cap may have been raised). Additive. */
    settings: z.record(z.string(), z.unknown()).optional(),
  }),
  /** A budget moved or ran out. */
  z.object({
    type: z.literal('budget'),
    kind: z.enum(['replans', 'tokens', 'cost', 'wall_time', 'steps']),
    used: z.number(),
    limit: z.number(),
    exceeded: z.boolean(),
  }),
  /** The mission phase changed. */
  z.object({ type: z.literal('mission_phase'), phase: MissionPhaseSchema, reason: z.string().optional() }),
  /** Estimate and actual side by side, when the mission ends (only when a version was estimated). */
  z.object({ type: z.literal('cost_summary'), summary: CostSummarySchema }),
  /** The mission ended. */
  z.object({
    type: z.literal('mission_finished'),
    outcome: z.enum(['succeeded', 'failed', 'cancelled', 'budget_exceeded']),
    summary: z.string(),
    failure: FailureSchema.optional(),
  }),
  /** Free-form diagnostic line (mirrored to the log channel). */
  z.object({ type: z.literal('log'), level: z.enum(['trace', 'debug', 'info', 'warn', 'error']), message: z.string() }),
]);

/** Every event carries its place in the mission's sequence and a timestamp. */
export const TraceEventSchema = z.intersection(z.object({ missionId: z.string(), seq: z.number().int().nonnegative(), at: z.string() }), TraceEventBodySchema);

export type StepRunStatus = z.infer<typeof StepRunStatusSchema>;
export type MissionPhase = z.infer<typeof MissionPhaseSchema>;
export type Usage = z.infer<typeof UsageSchema>;
export type PlanDiff = z.infer<typeof PlanDiffSchema>;
export type TraceEventBody = z.infer<typeof TraceEventBodySchema>;
export type TraceEvent = z.infer<typeof TraceEventSchema>;
