/**
 * The mission state snapshot saved through `Store.saveState` after every transition, and validated with
 * zod when read back (resume). The trace stays the source of truth; the snapshot is the fast way back in.
 */
import { z } from 'zod';
import { PlanSchema } from '../contracts/plan';
import { StepResultSchema, VerificationSchema } from '../contracts/results';
import { MissionPhaseSchema, StepRunStatusSchema, type TraceEvent } from '../contracts/traceEvents';

export const StepStateSchema = z.object({
  status: StepRunStatusSchema,
  attempt: z.number().int().nonnegative(),
  result: StepResultSchema.optional(),
  verification: VerificationSchema.optional(),
});

export const MissionStateSchema = z.object({
  schema: z.literal(1),
  /** The last trace event numbered when the snapshot was taken; later events are replayed on resume. */
  seq: z.number().int(),
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

/**
 * Brings a snapshot up to date with trace events it has not seen (seq above the snapshot's): the trace is
 * the source of truth, the snapshot may lag it by the transitions of a crash window. Returns a new state.
 */
export function catchUp(state: MissionState, events: readonly TraceEvent[]): MissionState {
  const next: MissionState = { ...state, steps: { ...state.steps }, versions: [...state.versions], usage: { ...state.usage } };
  for (const event of events) {
    if (event.seq <= state.seq) continue;
    next.seq = Math.max(next.seq, event.seq);
    switch (event.type) {
      case 'step_status': {
        const old = next.steps[event.stepId];
        next.steps[event.stepId] = { ...old, status: event.status, attempt: event.attempt };
        break;
      }
      case 'step_result': {
        const old = next.steps[event.result.stepId];
        if (old) next.steps[event.result.stepId] = { ...old, result: event.result, verification: undefined };
        break;
      }
      case 'verification': {
        const old = next.steps[event.verification.stepId];
        if (old) next.steps[event.verification.stepId] = { ...old, verification: event.verification };
        break;
      }
      case 'plan_version':
        if (!next.versions.some((v) => v.plan.version === event.plan.version)) next.versions.push({ plan: event.plan, author: event.author });
        break;
      case 'plan_approved':
        next.approvedVersion = event.version;
        break;
      case 'replan':
        next.usage.replans += 1;
        break;
      case 'model_call':
        next.usage.inputTokens += event.usage.inputTokens + event.usage.cacheReadTokens + event.usage.cacheWriteTokens;
        next.usage.outputTokens += event.usage.outputTokens;
        next.usage.costUsd += event.costUsd;
        break;
      case 'mission_phase':
        next.phase = event.phase;
        break;
      case 'mission_finished':
        next.finished = event.outcome !== 'budget_exceeded';
        break;
      case 'mission_continued':
        next.finished = false;
        if (event.reset.includes('replans')) next.usage.replans = 0;
        if (event.reset.includes('steps')) next.usage.stepAttempts = 0;
        if (event.reset.includes('wall_time')) next.usage.elapsedMs = 0;
        break;
      default:
        break;
    }
  }
  return next;
}
