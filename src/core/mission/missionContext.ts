/**
 * The part of a running mission that its helpers (plan approval, replanning, the replanner's lookups)
 * may use. The engine's MissionRun implements it; the helpers import this type, never the class, so the
 * dependency points one way: engine.ts → helpers → missionContext.ts.
 */
import type { Approver } from '../ports';
import type { Plan, Step } from '../contracts/plan';
import type { StepResult } from '../contracts/results';
import type { MissionPhase, StepRunStatus, TraceEventBody } from '../contracts/traceEvents';
import type { PlanHistory } from '../plan/history';
import type { ToolCallStore } from '../handoff/toolCallStore';
import type { ContextBudget } from '../handoff/contextBudget';
import type { BudgetExceeded, BudgetTracker } from './budgets';
import type { MissionOptions } from './options';
import type { StepState } from './state';
import type { ReplanTrigger } from './replan';
import type { Scheduler } from './scheduler';
import type { HookContext } from './userSetup';

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
  /** What the user's SessionStart and UserPromptSubmit hooks added to the planner's context. */
  hookContext: HookContext;
  record(body: TraceEventBody): Promise<void>;
  /** A failure that must not stop the run, put in the trace (or the host's log when the trace fails). Never rejects. */
  noteFailure(what: string, error: unknown, level?: 'warn' | 'error'): Promise<void>;
  setPhase(phase: MissionPhase, reason?: string): Promise<void>;
  setStatus(stepId: string, status: StepRunStatus, attempt: number, reason?: string): Promise<void>;
  save(finished?: boolean): Promise<void>;
  exceed(over: BudgetExceeded): Promise<void>;
  fail(message: string, failure?: StepResult['failure']): void;
  /** Rebuilds the scheduler from the latest plan and the steps' states. */
  rebuildScheduler(): void;
}

/** What running one step needs besides the MissionContext (see stepFlow.ts). */
export interface StepFlowContext extends MissionContext {
  readonly scheduler: Scheduler | null;
  /** Cancelled, failed or out of budget: nothing new starts. */
  readonly stopping: boolean;
  readonly direct: boolean;
  readonly hashOf: (path: string) => Promise<string | null>;
  stepById(id: string): Step | undefined;
  /** Final results of the given steps that succeeded (what a dependent's handoff carries). */
  results(ids: readonly string[]): Map<string, StepResult>;
  addTrigger(trigger: ReplanTrigger): void;
  /** The reasons the user gave when rejecting this step's actions in its current run. */
  rejectionsOf(stepId: string): string[];
}
