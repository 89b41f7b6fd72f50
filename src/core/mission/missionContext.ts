/**
 * The part of a running mission that its helpers (plan approval, replanning, the replanner's lookups)
 * may use. The engine's MissionRun implements it; the helpers import this type, never the class, so the
 * dependency points one way: engine.ts → helpers → missionContext.ts.
 */
import type { Approver } from '../ports';
import type { Plan } from '../contracts/plan';
import type { StepResult } from '../contracts/results';
import type { MissionPhase, StepRunStatus, TraceEventBody } from '../contracts/traceEvents';
import type { PlanHistory } from '../plan/history';
import type { ToolCallStore } from '../handoff/toolCallStore';
import type { ContextBudget } from '../handoff/contextBudget';
import type { BudgetExceeded, BudgetTracker } from './budgets';
import type { MissionOptions } from './options';
import type { StepState } from './state';
import type { ReplanTrigger } from './replan';

export interface MissionContext {
  readonly missionId: string;
  readonly options: MissionOptions;
  readonly abort: AbortController;
  readonly history: PlanHistory;
  readonly toolCalls: ToolCallStore;
  readonly budget: BudgetTracker;
  readonly steps: Map<string, StepState>;
  readonly contextBudget: ContextBudget;
  /** The approver for step actions (the user's, or an approve-everything rule in `all` mode). */
  readonly stepApprover: Approver;
  /** The latest plan version. */
  readonly plan: Plan;
  approvedVersion: number | null;
  /** The plan-review request in flight, so a cancel can withdraw it. */
  approvalAbort: AbortController | null;
  /** Replan triggers waiting for the loop to drain. */
  triggers: ReplanTrigger[];
  record(body: TraceEventBody): Promise<void>;
  setPhase(phase: MissionPhase, reason?: string): Promise<void>;
  setStatus(stepId: string, status: StepRunStatus, attempt: number, reason?: string): Promise<void>;
  save(finished?: boolean): Promise<void>;
  exceed(over: BudgetExceeded): Promise<void>;
  fail(message: string, failure?: StepResult['failure']): void;
  /** Rebuilds the scheduler from the latest plan and the steps' states. */
  rebuildScheduler(): void;
}
