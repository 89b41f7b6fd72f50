/**
 * What the VS Code front end needs from the mission engine, in one narrow interface. The implementation
 * that calls src/core's startMission/resumeMission lives in ./coreEngine.ts; keeping the seam here means
 * the controller and its tests never depend on the engine's internals.
 */
import type { PlanEditInput } from '../../core/plan/edits';
import type { PlanInput } from '../../core/contracts/plan';
import type { Approver, EventSink, Store } from '../../core/ports';
import type { CapNames, MissionBudgets } from '../../core/mission/options';
import type { ContinueMode } from '../../core/mission/resume';
import type { RevertPlan, RevertTarget } from '../../core/mission/revert';
import type { ModelSetup } from '../models/modelSetup';
import type { Result } from '../../core/contracts/result';

/** Why the engine refused an action: a machine-readable reason and a message for the user. */
export type Refusal = { reason: string; message: string };
export type Outcome<T = void> = Result<T, Refusal>;

/** A mission this window is running. */
export interface MissionRun {
  readonly missionId: string;
  /** Makes a new plan version from a user edit (before approval, or for steps not yet started). */
  editPlan(edit: PlanEditInput): Promise<Outcome>;
  /** A user correction (a rejection reason) for the planner. */
  correct(stepId: string | null, message: string): Promise<Outcome>;
  cancel(reason: string): void;
  /** Stops the run without ending the mission (the window is closing): resumable as it was. */
  interrupt(reason: string): void;
  /** Settles when the mission ends (any outcome) or is interrupted; never rejects. */
  readonly done: Promise<void>;
}

export interface StartOptions {
  task: string;
  workspaceRoot: string;
  /** Providers, models and keys (see ../models/modelSetup.ts). */
  model: ModelSetup;
  approver: Approver;
  store: Store;
  sink: EventSink;
  /** The caps from settings, and their names for the messages that hit them. */
  limits: { maxPlanSteps: number; budgets: MissionBudgets; capNames: CapNames };
  /** Run this plan (a saved plan document) instead of asking the planner; it still waits for approval. */
  plan?: PlanInput;
}

interface RevertOptions {
  store: Store;
  workspaceRoot: string;
  /** Hears the revert's trace events (the window's live view). */
  sink: EventSink;
  /** Only plan the revert (for the confirmation). */
  dryRun: boolean;
  /** What the user confirmed (steps and changed-since files); a revert that grew since is refused. */
  confirmed?: { stepIds: string[]; changedSince: string[] };
}

export interface MissionEngine {
  start(options: StartOptions): Promise<Outcome<MissionRun>>;
  /**
   * Goes on with a stopped mission: resume (interrupted), retry (failed), continue (cancelled, budget-stopped,
   * or what a revert undid). `rerunInterrupted`: whether steps an interruption cut off run again (the caller
   * asked the user, or it is the window's own mission picked up after a reload).
   */
  resume(missionId: string, options: Omit<StartOptions, 'task'> & { mode: ContinueMode; rerunInterrupted: boolean }): Promise<Outcome<MissionRun>>;
  /** Reverts steps (or the whole mission) of a mission that is not running, from its trace. */
  revert(missionId: string, target: RevertTarget, options: RevertOptions): Promise<Outcome<RevertPlan>>;
}

/**
 * An engine loaded on first use: the mission loop, the model SDK and the tools are most of the bundle, and
 * evaluating them at activation would make every window pay for a mission it may never run.
 */
export function lazyEngine(load: () => Promise<MissionEngine>): MissionEngine {
  let engine: Promise<MissionEngine> | undefined;
  const get = (): Promise<MissionEngine> => (engine ??= load());
  return {
    start: async (options) => (await get()).start(options),
    resume: async (missionId, options) => (await get()).resume(missionId, options),
    revert: async (missionId, target, options) => (await get()).revert(missionId, target, options),
  };
}
