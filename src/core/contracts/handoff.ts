/**
 * The handoff: everything an executor gets for one step, as data. Dependency results travel raw (tool
 * outputs with timestamps and success flags), constraints travel as binding fields, and earlier tool
 * calls travel as references into the mission's tool-call store so they are reused, not redone.
 */
import { z } from 'zod';
import { AuthoritySchema, BindingSchema, StepSchema } from './plan';
import { StepResultSchema } from './results';
import { AppliedInstructionSchema } from './instructions';

/** One tool call as stored in the mission's tool-call store. */
export const ToolCallRecordSchema = z.object({
  id: z.string(),
  stepId: z.string(),
  role: z.enum(['planner', 'executor', 'verifier', 'replanner']),
  tool: z.string(),
  input: z.unknown(),
  /** The raw result text as the model saw it (capped; the full blob is in the store when larger). */
  output: z.string(),
  ok: z.boolean(),
  startedAt: z.string(),
  finishedAt: z.string(),
  /**
   * Hashes of the workspace files the result depended on (path → content hash at call time). A call may
   * be reused only while every listed file still has the same hash.
   */
  inputsFingerprint: z.record(z.string(), z.string().nullable()).default({}),
  /** Set when this call was answered from an earlier call's stored result (same input, files unchanged). */
  reusedFrom: z.string().optional(),
});

export const DependencyResultSchema = z.object({
  stepId: z.string(),
  title: z.string(),
  result: StepResultSchema,
  /** The raw tool calls behind the result (references plus capped raw output). */
  toolCalls: z.array(ToolCallRecordSchema),
});

export const HandoffSchema = z.object({
  missionId: z.string(),
  planVersion: z.number().int(),
  goal: z.string(),
  /** The user's constraints, verbatim: binding on this step. */
  constraints: z.array(z.string()),
  step: StepSchema,
  dependencies: z.array(DependencyResultSchema),
  binding: BindingSchema,
  authority: AuthoritySchema,
  /** Ids of earlier tool calls in the store that are still valid (inputs unchanged) and relevant. */
  reusableToolCalls: z.array(z.string()),
  /** Attempt number for this step (1-based); > 1 carries the previous failure. */
  attempt: z.number().int().min(1),
  previousFailure: StepResultSchema.shape.failure,
  /**
   * The project's instructions that apply to this step's files (repository text: they narrow how the step
   * works, they grant nothing). Additive; absent = none.
   */
  instructions: z.array(AppliedInstructionSchema).optional(),
});

export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;
export type DependencyResult = z.infer<typeof DependencyResultSchema>;
export type Handoff = z.infer<typeof HandoffSchema>;
