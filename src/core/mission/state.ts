/**
 * The mission state snapshot saved through `Store.saveState` after every transition, and validated with
 * zod when read back (resume). The trace stays the source of truth; the snapshot is the fast way back in.
 */
import { z } from 'zod';
import { PlanSchema } from '../plan/schema';
import { StepResultSchema, VerificationSchema } from './results';
import { MissionPhaseSchema, StepRunStatusSchema } from '../trace/events';

export const StepStateSchema = z.object({
  status: StepRunStatusSchema,
  attempt: z.number().int().nonnegative(),
  result: StepResultSchema.optional(),
  verification: VerificationSchema.optional(),
});

export const MissionStateSchema = z.object({
  schema: z.literal(1),
  missionId: z.string(),
  task: z.string(),
  constraints: z.array(z.string()),
  workspaceSummary: z.string(),
  phase: MissionPhaseSchema,
  versions: z.array(z.object({ plan: PlanSchema, author: z.enum(['planner', 'user', 'replanner']) })),
  approvedVersion: z.number().int().nullable(),
  direct: z.boolean(),
  steps: z.record(z.string(), StepStateSchema),
  usage: z.object({
    inputTokens: z.number(),
    outputTokens: z.number(),
    costUsd: z.number(),
    replans: z.number().int(),
    stepAttempts: z.number().int(),
    elapsedMs: z.number(),
  }),
  /** Set once the mission ended for good (succeeded, failed, cancelled); budget stops stay resumable. */
  finished: z.boolean(),
});

export type StepState = z.infer<typeof StepStateSchema>;
export type MissionState = z.infer<typeof MissionStateSchema>;
