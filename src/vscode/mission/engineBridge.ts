/**
 * What the VS Code front end needs from the mission engine, in one narrow interface. The implementation
 * that calls src/core's startMission/resumeMission lives in ./coreEngine.ts; keeping the seam here means
 * the controller and its tests never depend on the engine's internals.
 */
import type { PlanEditInput } from '../../core/plan/edits';
import type { Approver, EventSink, Store } from '../../core/ports';
import type { ModelSetup } from '../models/modelSetup';

export type Outcome<T = void> = { ok: true; value: T } | { ok: false; reason: string; message: string };

/** A mission this window is running. */
export interface MissionRun {
  readonly missionId: string;
  /** Makes a new plan version from a user edit (before approval, or for steps not yet started). */
  editPlan(edit: PlanEditInput): Promise<Outcome>;
  /** A user correction (a rejection reason) for the planner. */
  correct(stepId: string | null, message: string): Promise<Outcome>;
  cancel(reason: string): void;
  /** Settles when the mission ends (any outcome); never rejects. */
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
}

export interface MissionEngine {
  start(options: StartOptions): Promise<Outcome<MissionRun>>;
  resume(missionId: string, options: Omit<StartOptions, 'task'>): Promise<Outcome<MissionRun>>;
  /** Restores a finished step's checkpoint; lists later steps that touched the same files. */
  revertStep(missionId: string, stepId: string, options: { store: Store; workspaceRoot: string; dryRun: boolean }): Promise<Outcome<{ conflicts: string[] }>>;
}

/** The engine before the core's mission loop is wired in: every action says so plainly. */
export const unavailableEngine: MissionEngine = {
  start: () => Promise.resolve({ ok: false, reason: 'unavailable', message: 'The mission engine is not available in this build.' }),
  resume: () => Promise.resolve({ ok: false, reason: 'unavailable', message: 'The mission engine is not available in this build.' }),
  revertStep: () => Promise.resolve({ ok: false, reason: 'unavailable', message: 'Reverting is not available in this build.' }),
};

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
    revertStep: async (missionId, stepId, options) => (await get()).revertStep(missionId, stepId, options),
  };
}
