/**
 * The mission as a front end sees it: the one schema of the view model that `applyEvent`
 * (mission/view.ts) folds from the trace. Types are inferred from it, and the webview's view
 * (src/webview/protocol.ts) is derived from it — the same objects without what the engine keeps to itself,
 * plus what the host adds — so a field added here reaches the webview, typed and checked, with no second
 * declaration (docs/architecture.md, "The mission view, from the engine to the webview").
 *
 * Nothing parses a view at run time except the webview's check of what the host posts; these schemas are
 * the view's declaration, so they carry no bounds of their own.
 */
import { z } from 'zod';
import { PlanSchema, StepKindSchema, StepSchema } from './plan';
import { CheckOutcomeSchema, FailureCauseSchema, FailureClassSchema, FileChangeSchema } from './results';
import { MissionPhaseSchema, PlanDiffSchema, ReplanRecordSchema, StepRunStatusSchema } from './traceEvents';
import { InstructionSetSchema } from './instructions';
import { McpCatalogueSchema } from './mcp';
import { HookRunSchema, HookSetSchema } from './hooks';
import { CostSummarySchema, PlanEstimateSchema } from './estimate';

const RoleSchema = z.enum(['planner', 'executor', 'verifier', 'replanner']);

/** One run of one of the user's hooks (the `hook_run` record, and when it happened). */
export const HookRunViewSchema = HookRunSchema.omit({ stepId: true }).extend({ at: z.string() });

/** Hook runs a step's view keeps (a PreToolUse hook on every call would otherwise grow it without bound). */
export const HOOK_RUNS_KEPT = 50;

/** One step: the fields the latest plan gave it, and its run state as the trace tells it. */
export const StepViewSchema = z.object({
  id: z.string(),
  title: z.string(),
  kind: StepKindSchema,
  required: z.boolean(),
  dependsOn: z.array(z.string()),
  status: StepRunStatusSchema,
  attempt: z.number().int().nonnegative(),
  /** Why the step is in its status (failure message, "depends on s2, which failed", ...). */
  reason: z.string().nullable(),
  output: z.string().nullable(),
  failure: z.object({ class: FailureClassSchema, message: z.string() }).nullable(),
  changedFiles: z.array(FileChangeSchema),
  /** The commands the step ran, with their exit codes. */
  commands: z.array(z.object({ command: z.string(), exitCode: z.number().int().nullable() })),
  verification: z.object({ passed: z.boolean(), checks: z.array(CheckOutcomeSchema) }).nullable(),
  /** The user's hooks that ran for this step (the latest HOOK_RUNS_KEPT): which hook said what, about which tool. */
  hooks: z.array(HookRunViewSchema),
  /** The step as the latest plan that holds it defines it (a step a replan dropped keeps its last definition). */
  definition: StepSchema,
});

/** One version of the plan: who made it, why, and what changed against its parent. */
export const PlanVersionViewSchema = z.object({
  version: z.number().int(),
  parentVersion: z.number().int().nullable(),
  author: z.enum(['planner', 'user', 'replanner']),
  reason: z.string(),
  diff: PlanDiffSchema.nullable(),
  stepCount: z.number().int().nonnegative(),
  at: z.string(),
  /** The plan of this version (a front end shows what changed field by field). */
  plan: PlanSchema,
});

/** One replan attempt: the `replan` event's record, and when it happened. */
export const ReplanViewSchema = ReplanRecordSchema.extend({ at: z.string() });

/** A model call waiting before it tries again (rate limit, overload, a cut stream): shown as a countdown. */
export const WaitViewSchema = z.object({
  role: RoleSchema,
  stepId: z.string().nullable(),
  reason: z.enum(['rate_limited', 'overloaded', 'server_error', 'connection', 'stream_cut']),
  message: z.string(),
  attempt: z.number().int(),
  /** When the wait started (ISO). */
  at: z.string(),
  /** When the next attempt is due (ISO). */
  until: z.string(),
});

/** Files restored by one revert, newest step first. */
export const RevertViewSchema = z.object({
  at: z.string(),
  stepIds: z.array(z.string()),
  files: z.array(z.object({ stepId: z.string(), path: z.string(), action: z.enum(['restored', 'deleted']) })),
  overwrote: z.array(z.string()),
});

/** An approval the trace shows as asked and not yet decided. */
export const ApprovalViewSchema = z.object({
  requestId: z.string(),
  stepId: z.string().nullable(),
  kind: z.enum(['plan', 'write', 'command', 'mcp']),
  summary: z.string(),
  actionHash: z.string(),
  at: z.string(),
});

export const RoleUsageSchema = z.object({
  calls: z.number().int().nonnegative(),
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  costUsd: z.number().nonnegative(),
});

/** The failure that ended the mission, with what a front end needs to offer the matching action. */
export const FailureViewSchema = z.object({
  class: FailureClassSchema,
  message: z.string(),
  cause: FailureCauseSchema.nullable(),
  provider: z.string().nullable(),
  detail: z.string().nullable(),
});

export const MissionViewSchema = z.object({
  missionId: z.string().nullable(),
  task: z.string(),
  phase: MissionPhaseSchema,
  phaseReason: z.string().nullable(),
  direct: z.boolean(),
  plan: PlanSchema.nullable(),
  versions: z.array(PlanVersionViewSchema),
  approvedVersion: z.number().int().nullable(),
  /** Step ids in the latest plan's order (steps replaced by a replan stay in `steps`, not here). */
  stepOrder: z.array(z.string()),
  steps: z.record(z.string(), StepViewSchema),
  pendingApprovals: z.array(ApprovalViewSchema),
  usage: z.object({
    inputTokens: z.number().nonnegative(),
    outputTokens: z.number().nonnegative(),
    costUsd: z.number().nonnegative(),
    byRole: z.record(z.string(), RoleUsageSchema),
  }),
  replans: z.array(ReplanViewSchema),
  budgets: z.record(z.string(), z.object({ used: z.number(), limit: z.number(), exceeded: z.boolean() })),
  /**
   * How the mission ended. `summary` is what is true now: after a revert it no longer claims work that was
   * undone (`recorded` keeps the summary the mission ended with).
   */
  outcome: z
    .object({
      outcome: z.enum(['succeeded', 'failed', 'cancelled', 'budget_exceeded']),
      summary: z.string(),
      recorded: z.string(),
      failureClass: FailureClassSchema.nullable(),
      failure: FailureViewSchema.nullable(),
    })
    .nullable(),
  /** Model calls waiting to try again, by `role:stepId` (cleared by the call's next model_call). */
  waits: z.record(z.string(), WaitViewSchema),
  reverts: z.array(RevertViewSchema),
  /** The project's instruction files the mission read (used and not used), as recorded at its start. */
  instructions: InstructionSetSchema.nullable(),
  /** The MCP servers and tools the mission could grant, as recorded at its start. */
  mcp: McpCatalogueSchema.nullable(),
  /** The hooks the mission runs (and the project ones it skipped), and the runs before any step (SessionStart, UserPromptSubmit). */
  hooks: z.object({ set: HookSetSchema.nullable(), runs: z.array(HookRunViewSchema) }),
  /** What the latest estimated plan version is expected to cost (plan_estimate), shown beside Approve. */
  estimate: z.object({ version: z.number().int(), estimate: PlanEstimateSchema }).nullable(),
  /** The estimate beside what was spent, once the mission ended (cost_summary). */
  cost: CostSummarySchema.nullable(),
  lastSeq: z.number().int(),
});

export type StepView = z.infer<typeof StepViewSchema>;
export type HookRunView = z.infer<typeof HookRunViewSchema>;
export type PlanVersionView = z.infer<typeof PlanVersionViewSchema>;
export type ReplanView = z.infer<typeof ReplanViewSchema>;
export type WaitView = z.infer<typeof WaitViewSchema>;
export type RevertView = z.infer<typeof RevertViewSchema>;
export type ApprovalView = z.infer<typeof ApprovalViewSchema>;
export type RoleUsage = z.infer<typeof RoleUsageSchema>;
export type FailureView = z.infer<typeof FailureViewSchema>;
export type MissionView = z.infer<typeof MissionViewSchema>;
