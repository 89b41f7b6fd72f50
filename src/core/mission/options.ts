/**
 * What a front end passes to `runMission` / `startMission`, and what it gets back. Roles and the tools
 * factory are injected, so the engine is tested with fakes and the front ends choose the real ones.
 */
import type {
  Approver,
  Clock,
  Diagnostics,
  EventSink,
  ExecutorRole,
  PlannerRole,
  StepToolsFactory,
  Store,
  Terminal,
  ToolSettings,
  VerifierRole,
  Workspace,
} from '../ports';
import type { Plan, PlanInput } from '../contracts/plan';
import type { CostSummary, PlanEstimate } from '../contracts/estimate';
import type { Failure } from '../contracts/results';
import type { ContextBudget } from '../handoff/contextBudget';
import type { ValidatePlanOptions } from '../plan/validate';
import type { UserSetup } from './userSetup';
import { offeredTools } from '../mcp/names';

/**
 * 'ask': the plan and every write/command go to the Approver. 'plan': the plan goes to the Approver;
 * writes and commands still reach it too, and the front end's rules decide (the engine passes the mode in
 * the mission_started settings). 'all': the plan and every action are approved by rule, never asked.
 * A replanned version is re-submitted for approval only in 'ask' — unless `planApproval` is 'user'.
 */
export type ApproveMode = 'ask' | 'plan' | 'all';

export interface MissionBudgets {
  /** Replans (accepted or refused) before the mission stops — the guard against decomposition spirals. */
  maxReplans: number;
  /** Model tokens (input incl. cache + output) across all roles. */
  maxTokens: number;
  maxCostUsd: number;
  /** Wall time from the start of execution (plan review excluded). */
  maxWallMs: number;
  /** Step attempts started (retries included). */
  maxSteps: number;
}

export const DEFAULT_BUDGETS: MissionBudgets = {
  maxReplans: 3,
  maxTokens: 2_000_000,
  maxCostUsd: 5,
  maxWallMs: 60 * 60 * 1000,
  maxSteps: 100,
};

export const DEFAULT_TOOL_SETTINGS: ToolSettings = {
  commandTimeoutMs: 120_000,
  maxOutputBytes: 64_000,
  maxFileBytes: 1_000_000,
  allowSensitive: [],
  sandbox: 'required',
};

export interface MissionPorts extends UserSetup {
  workspace: Workspace;
  terminal: Terminal;
  approver: Approver;
  store: Store;
  clock: Clock;
  events?: EventSink;
  /** Where a failure goes that the trace cannot hold (default: the process's stderr via `console.error`). */
  diagnostics?: Diagnostics;
  planner: PlannerRole;
  executor: ExecutorRole;
  verifier: VerifierRole;
  /**
   * Asks, once, before the first command, whether the mission may go on although git tracks secrets its
   * commands can print through git (mission/trackedSecrets.ts). Absent: such a mission runs no command.
   */
  trackedSecrets?: TrackedSecretsConsent;
  /** Builds a step's sandboxed tools. Default: the sandbox's `createStepTools` (src/core/tools/stepTools.ts). */
  createStepTools?: StepToolsFactory;
}

/** A front end's answer about tracked secrets: go on or not, who decided, and how the user would allow it (said in a refusal). */
export interface TrackedSecretsDecision {
  allowed: boolean;
  by: 'user' | 'flag';
  howToAllow: string;
}

/** How a front end asks about secrets git tracks (VS Code: a confirmation; the CLI: its flag). */
export interface TrackedSecretsConsent {
  confirm(files: readonly string[], message: string, signal: AbortSignal): Promise<TrackedSecretsDecision>;
}

export interface MissionSettings {
  approve?: ApproveMode;
  /**
   * Who approves plan versions. 'mode' (the default, the CLI's): `approve` decides — 'all' approves every
   * version by rule, and a replanned version is asked again only in 'ask'. 'user' (VS Code): every
   * version, the first and each replanned one, goes to the Approver whatever `approve` says, so a plan
   * nobody approved never runs; `approve` then only decides the prompts inside an approved plan.
   */
  planApproval?: 'mode' | 'user';
  /** Steps running at once (default 2). */
  maxParallel?: number;
  /**
   * Every command of this mission runs inside the OS sandbox cut to its step's write scope (the front end
   * knows: sandbox mode and availability). Lets command steps with disjoint write scopes run side by side.
   * Default false: a command may write anywhere, so command steps run alone among writers.
   */
  commandsConfined?: boolean;
  /** validatePlan's size cap (default 40). */
  maxPlanSteps?: number;
  budgets?: Partial<MissionBudgets>;
  /** Retries of a failed step before a replan is triggered (default 1). */
  retriesPerStep?: number;
  /**
   * Whether a step's claimed success passes the verification gate (default true). false: the executor's
   * report stands, recorded as a verification saying nothing was checked, and a step needs no evidence
   * checks — only for the single-loop baseline that `eval --mode direct` measures (see direct.ts); the
   * front ends never set it.
   */
  verify?: boolean;
  toolSettings?: Partial<ToolSettings>;
  contextBudget?: Partial<ContextBudget>;
  /** Scrubbed environment for commands. */
  env?: Record<string, string>;
  /** Commands the verifier may run for evidence besides each step's allowlist. */
  verifierCommands?: string[];
  /** Minimum time between two state snapshot writes (default 50 ms; the final one is immediate). */
  snapshotIntervalMs?: number;
  /** How long running steps get to stop after cancellation before they are reported interrupted anyway. */
  cancelGraceMs?: number;
  /**
   * The model settings the roles were built with (providers and models per role and tier; never keys or
   * URLs). Recorded in mission_started, so a replay rebuilds roles that ask exactly what was asked.
   */
  models?: Record<string, unknown>;
  /**
   * How the front end names each cap (a setting, a CLI flag), so the message that hits one says what to
   * raise: e.g. `{ cost: 'planExecute.limits.maxCostUsd' }`. Absent: the message names the cap only.
   */
  capNames?: CapNames;
  /**
   * What a plan version is expected to cost (`estimatePlan` of src/core/roles/costEstimate.ts, bound to the
   * roles' model settings). Recorded as `plan_estimate` before each plan approval and sent with it; at the
   * end the trace's `cost_summary` and the report set it beside what was spent. Absent: nothing estimated.
   */
  estimatePlan?: (plan: Plan) => PlanEstimate;
}

/**
 * The settings a trace records (in `mission_started`, and again in `mission_continued`: a user may have
 * raised a cap or changed a model before going on), so a replay runs with what the recorded run ran with.
 */
export function recordedSettings(options: MissionSettings): Record<string, unknown> {
  return {
    approve: options.approve ?? 'ask',
    ...(options.planApproval === 'user' ? { planApproval: 'user' } : {}),
    maxParallel: options.maxParallel ?? 2,
    retriesPerStep: options.retriesPerStep ?? 1,
    maxPlanSteps: options.maxPlanSteps ?? null,
    budgets: options.budgets ?? {},
    ...(options.models ? { models: options.models } : {}),
    ...(options.verify === false ? { verify: false } : {}),
  };
}

/** True when this plan version waits for the Approver (else it is approved by rule: 'all' without planApproval 'user'). */
export function planNeedsApprover(options: MissionSettings): boolean {
  return options.planApproval === 'user' || options.approve !== 'all';
}

/** True when a replanned version goes back to the Approver ('ask', or every version by the user's choice). */
export function replanNeedsApproval(options: MissionSettings): boolean {
  return options.planApproval === 'user' || (options.approve ?? 'ask') === 'ask';
}

/** The validation options every plan version of the mission is checked with (size cap and its name). */
export function planLimits(options: MissionSettings & UserSetup): ValidatePlanOptions {
  return {
    ...(options.maxPlanSteps !== undefined ? { maxSteps: options.maxPlanSteps } : {}),
    ...(options.capNames?.planSteps ? { maxStepsName: options.capNames.planSteps } : {}),
    ...(options.verifierCommands ? { verifierCommands: options.verifierCommands } : {}),
    ...(options.mcp ? { mcpTools: offeredTools(options.mcp.catalogue) } : {}),
    ...(options.verify === false ? { requireEvidence: false } : {}),
  };
}

/** The caps a user can raise: the plan-size cap and the mission budgets. */
export type CapKind = 'planSteps' | 'replans' | 'tokens' | 'cost' | 'wall_time' | 'steps';
export type CapNames = Partial<Record<CapKind, string>>;

export interface MissionOptions extends MissionPorts, MissionSettings {
  task: string;
  constraints?: string[];
  /** Compact workspace summary for the planner. */
  workspaceSummary?: string;
  missionId?: string;
  /** Skip the planner: run this plan (still validated and still approved). */
  plan?: PlanInput;
  /** The kill switch; `handle.cancel()` does the same. */
  signal?: AbortSignal;
}

export type MissionOutcome = 'succeeded' | 'failed' | 'cancelled' | 'budget_exceeded';

export interface MissionReport {
  missionId: string;
  outcome: MissionOutcome;
  summary: string;
  failure?: Failure;
  /** The budget that ran out, when outcome is budget_exceeded. */
  budget?: { kind: 'replans' | 'tokens' | 'cost' | 'wall_time' | 'steps'; used: number; limit: number };
  planVersion: number | null;
  succeeded: string[];
  failed: string[];
  /** Running when the mission stopped. */
  interrupted: string[];
  /** Never started (blocked, skipped or cancelled). */
  neverStarted: string[];
  replans: number;
  direct: boolean;
  usage: { inputTokens: number; outputTokens: number; costUsd: number };
  /** The estimate beside the actual figures, when the plan was estimated (see MissionSettings.estimatePlan). */
  cost?: CostSummary;
}
