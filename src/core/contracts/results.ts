/**
 * What an executor hands back, and what the verifier records. Typed, so the planner and the engine never
 * have to read prose to learn what happened.
 */
import { z } from 'zod';
import { StepIdSchema } from './plan';
import { ConfinementSchema } from './sandbox';

export const FailureClassSchema = z.enum([
  'tool_error',
  'permission_denied',
  'precondition_failed',
  'verification_failed',
  'invalid_output',
  'timeout',
  'cancelled',
  'budget_exceeded',
  'rejected_by_user',
]);

/** A file the step changed (or tried to), with content hashes into the blob store. */
export const FileChangeSchema = z.object({
  path: z.string(),
  change: z.enum(['created', 'modified', 'deleted']),
  /** Blob hash of the content before the step (null: did not exist). */
  beforeHash: z.string().nullable(),
  /** Blob hash of the content after (null: deleted). */
  afterHash: z.string().nullable(),
});

export const CommandRunSchema = z.object({
  command: z.string(),
  cwd: z.string(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable().default(null),
  durationMs: z.number().nonnegative(),
  /** Captured output, capped (head and tail kept). */
  output: z.string(),
  truncated: z.boolean().default(false),
  /** How the command was confined (see contracts/sandbox.ts). Additive; absent in older traces. */
  confinement: ConfinementSchema.optional(),
});

export const SideEffectsSchema = z.object({
  files: z.array(FileChangeSchema).default([]),
  commands: z.array(CommandRunSchema).default([]),
});

/** What went wrong outside a step, when it was the model provider or the machine (see `Failure.cause`). */
export const FailureCauseSchema = z.enum([
  'auth',
  'rate_limit',
  'overloaded',
  'spend_limit',
  'connection',
  'model_unavailable',
  'no_tool_support',
  'context_too_long',
  'sandbox_unavailable',
]);

export const FailureSchema = z.object({
  class: FailureClassSchema,
  message: z.string(),
  /** Effects that already happened before the failure (they are not rolled back silently). */
  partialSideEffects: SideEffectsSchema.default({ files: [], commands: [] }),
  recoverable: z.boolean(),
  suggestion: z.string().default(''),
  /** For permission_denied: the rule that refused. For rejected_by_user: the user's reason. */
  detail: z.string().optional(),
  /**
   * What went wrong outside the step, when it was the model provider or the machine: front ends offer the
   * matching action (auth → set the key; connection/model_unavailable → open settings; the rest → retry).
   * Additive; absent = the step's own failure.
   */
  cause: FailureCauseSchema.optional(),
  /** The provider (anthropic, openai, vscode-lm, …) the cause comes from. */
  provider: z.string().optional(),
});

/** A piece of evidence the executor offers; the verifier decides whether it proves anything. */
export const EvidenceItemSchema = z.object({
  description: z.string(),
  /** Reference into the tool-call store (the raw output that backs the claim). */
  toolCallId: z.string().optional(),
});

export const StepStatusSchema = z.enum(['succeeded', 'failed', 'blocked', 'needs_replan']);

export const StepResultSchema = z.object({
  stepId: StepIdSchema,
  status: StepStatusSchema,
  /** Short summary for the user and for dependents (raw data lives in the tool-call store). */
  output: z.string(),
  evidence: z.array(EvidenceItemSchema).default([]),
  sideEffects: SideEffectsSchema.default({ files: [], commands: [] }),
  failure: FailureSchema.optional(),
  /** Something materially different from what the plan assumed (triggers a replan when set). */
  observation: z.string().optional(),
  /** Tool calls made during the step (ids into the tool-call store). */
  toolCallIds: z.array(z.string()).default([]),
});

/** The outcome of one evidence check. */
export const CheckOutcomeSchema = z.object({
  check: z.string(),
  passed: z.boolean(),
  detail: z.string(),
  toolCallId: z.string().optional(),
  /** A review that could not run because the model provider failed (auth, connection, …). Additive. */
  failure: FailureSchema.optional(),
});

/** Provider causes that no retry or replan can fix: the mission stops and the user acts (key, settings, later). */
export const MISSION_STOPPING_CAUSES: ReadonlySet<string> = new Set([
  'auth',
  'spend_limit',
  'connection',
  'model_unavailable',
  'no_tool_support',
  'rate_limit',
  'overloaded',
]);

/** The verifier's record. The engine never marks a step succeeded without one whose `passed` is true. */
export const VerificationSchema = z.object({
  stepId: StepIdSchema,
  passed: z.boolean(),
  checks: z.array(CheckOutcomeSchema),
  at: z.string(),
});

export type FailureClass = z.infer<typeof FailureClassSchema>;
export type FailureCause = z.infer<typeof FailureCauseSchema>;
export type FileChange = z.infer<typeof FileChangeSchema>;
export type CommandRun = z.infer<typeof CommandRunSchema>;
export type SideEffects = z.infer<typeof SideEffectsSchema>;
export type Failure = z.infer<typeof FailureSchema>;
export type EvidenceItem = z.infer<typeof EvidenceItemSchema>;
export type StepStatus = z.infer<typeof StepStatusSchema>;
export type StepResult = z.infer<typeof StepResultSchema>;
export type CheckOutcome = z.infer<typeof CheckOutcomeSchema>;
export type Verification = z.infer<typeof VerificationSchema>;
