/**
 * One attempt at one step: build the handoff, give the executor its sandboxed tools, take its typed result
 * (validated: the executor is a model behind a role, its output is a trust boundary), then put any claimed
 * success through the verification gate. The side effects recorded are the tools' own account of what
 * happened, not the executor's.
 */
import { StepResultSchema, type Failure, type StepResult, type Verification } from '../contracts/results';
import type { Handoff } from '../contracts/handoff';
import type { Plan, Step } from '../contracts/plan';
import type { Approver, RoleContext, StepTools, StepToolsContext, ToolSettings } from '../ports';
import type { TraceEventBody } from '../contracts/traceEvents';
import { buildHandoff } from '../handoff/builder';
import type { ContextBudget } from '../handoff/contextBudget';
import type { ToolCallStore } from '../handoff/toolCallStore';
import type { MissionPorts } from './options';
import { verifyStep } from './gate';
import { createStepTools } from '../tools/stepTools';
import { instructionsForStep } from '../instructions/applies';
import { constraintChecksFor, forbiddenPaths, stepHooks, stepMcp } from './userSetup';
import { errorText } from '../primitives/errorText';

export interface StepAttemptInput {
  missionId: string;
  plan: Plan;
  step: Step;
  attempt: number;
  previousFailure?: Failure;
  results: ReadonlyMap<string, StepResult>;
  toolCalls: ToolCallStore;
  ports: MissionPorts;
  /** The approver the step's tools use (the mission's, or an approve-by-rule wrapper in 'all' mode). */
  approver: Approver;
  /** The mission's approval mode (what the hooks' `permission_mode` says). */
  approveMode?: 'ask' | 'plan' | 'all';
  toolSettings: ToolSettings;
  contextBudget: ContextBudget;
  env: Record<string, string>;
  /** Commands the verifier may run for evidence besides the step's allowlist. */
  verifierCommands: string[];
  /** false: no verification gate; the executor's report stands (MissionSettings.verify). */
  verify: boolean;
  signal: AbortSignal;
  /** Milliseconds left of the mission's wall budget (bounds a model's wait for a rate limit). */
  remainingMs?: () => number;
  hashOf: (path: string) => Promise<string | null>;
  record(body: TraceEventBody): Promise<void>;
  /** A cleanup that failed: noted in the trace (or the host's log), never thrown over the step's own outcome. */
  noteFailure(what: string, error: unknown): Promise<void>;
  /** The engine records the 'verifying' transition. */
  onVerifying(): Promise<void>;
}

export interface StepAttemptOutcome {
  handoff: Handoff;
  result: StepResult;
  /** null when the executor did not claim success (nothing to verify). */
  verification: Verification | null;
  /** The executor stopped because the mission was cancelled. */
  interrupted: boolean;
}

export async function runStepAttempt(input: StepAttemptInput): Promise<StepAttemptOutcome> {
  const handoff = await buildHandoff({
    missionId: input.missionId,
    plan: input.plan,
    step: input.step,
    results: input.results,
    toolCalls: input.toolCalls,
    attempt: input.attempt,
    previousFailure: input.previousFailure,
    hashOf: input.hashOf,
    budget: input.contextBudget,
    instructions: instructionsForStep(input.ports.instructions, input.step),
  });
  await input.record({ type: 'handoff', handoff });
  const ctx: RoleContext = {
    missionId: input.missionId,
    stepId: input.step.id,
    signal: input.signal,
    record: input.record,
    ...(input.remainingMs ? { remainingMs: input.remainingMs } : {}),
  };
  const factory = input.ports.createStepTools ?? ((c: StepToolsContext) => createStepTools(c));
  try {
    return await attemptWithTools(input, handoff, ctx, factory);
  } finally {
    // The attempt's staging layer (what its commands kept for the step: build outputs, caches) goes with it.
    await input.ports.terminal.staging
      ?.drop(layerOf(input), input.ports.workspace.root)
      .catch((error: unknown) =>
        input.noteFailure(`step ${input.step.id}: dropping its staging layer failed (its files stay on disk until a later start sweeps it as stale)`, error),
      );
  }
}

/** The staging layer of one step attempt (a retry starts from the workspace, not from a failed attempt's layer). */
function layerOf(input: StepAttemptInput): string {
  return `${input.missionId}\u0000${input.step.id}\u0000${input.attempt}`;
}

async function attemptWithTools(
  input: StepAttemptInput,
  handoff: Handoff,
  ctx: RoleContext,
  factory: (c: StepToolsContext) => StepTools,
): Promise<StepAttemptOutcome> {
  const tools = factory(toolsContext(input, 'executor'));
  try {
    return await attemptWith(input, handoff, ctx, factory, tools);
  } finally {
    // The servers started for this step (in its sandbox) end with it.
    await input.ports.mcp?.servers
      .endStep(input.step.id)
      .catch((error: unknown) => input.noteFailure(`step ${input.step.id}: stopping its MCP servers failed`, error));
  }
}

async function attemptWith(
  input: StepAttemptInput,
  handoff: Handoff,
  ctx: RoleContext,
  factory: (c: StepToolsContext) => StepTools,
  tools: StepTools,
): Promise<StepAttemptOutcome> {
  let result: StepResult;
  try {
    const raw = await input.ports.executor.execute(handoff, tools, ctx);
    result = normalise(raw, input.step.id, tools);
  } catch (error) {
    result = input.signal.aborted ? cancelledResult(input.step.id, tools, errorText(error)) : failed(input.step.id, 'tool_error', errorText(error), tools);
  }
  const interrupted = input.signal.aborted;
  if (interrupted && result.status === 'succeeded') {
    // A success that raced the kill switch is not verified now; the step is reported interrupted.
    result = { ...result, status: 'failed', failure: cancelledResult(input.step.id, tools).failure };
  }
  await input.record({ type: 'step_result', result });
  if (result.status !== 'succeeded' || interrupted) return { handoff, result, verification: null, interrupted };

  if (!input.verify) {
    const verification = unverified(input.step.id, input.ports.clock.now());
    await input.record({ type: 'verification', verification });
    return { handoff, result, verification, interrupted };
  }
  await input.onVerifying();
  const verifierTools = factory(toolsContext(input, 'verifier'));
  const verification = await verifyStep({
    handoff,
    result,
    tools: verifierTools,
    verifier: input.ports.verifier,
    workspace: input.ports.workspace,
    ctx,
    now: () => input.ports.clock.now(),
    constraintChecks: constraintChecksFor(input.plan, input.step, result.sideEffects.files.length > 0),
  });
  await input.record({ type: 'verification', verification });
  return { handoff, result, verification, interrupted: input.signal.aborted };
}

function toolsContext(input: StepAttemptInput, role: 'executor' | 'verifier'): StepToolsContext {
  // The verifier may also run the mission's verifier commands (validatePlan accepted evidence using them),
  // and the commands of the plan's constraint checks that apply to this step (the approved plan names them).
  const checkCommands = constraintChecksFor(input.plan, input.step, true).flatMap((c) => (c.check.kind === 'command' ? [c.check.command] : []));
  const extra = role === 'verifier' ? [...input.verifierCommands, ...checkCommands] : [];
  const step =
    extra.length > 0 ? { ...input.step, authority: { ...input.step.authority, commands: [...input.step.authority.commands, ...extra] } } : input.step;
  const forbidden = forbiddenPaths(input.plan);
  const mcp = stepMcp(input.ports);
  const hooks = role === 'executor' ? stepHooks(input.ports, input.missionId, input.approveMode) : undefined;
  return {
    missionId: input.missionId,
    step,
    role,
    workspace: input.ports.workspace,
    terminal: input.ports.terminal,
    approver: input.approver,
    store: input.ports.store,
    clock: input.ports.clock,
    toolCalls: input.toolCalls,
    record: input.record,
    settings: input.toolSettings,
    env: input.env,
    signal: input.signal,
    layer: layerOf(input),
    ...(forbidden.length > 0 ? { forbidden } : {}),
    ...(mcp ? { mcp } : {}),
    ...(hooks ? { hooks } : {}),
  };
}

/** Validates the executor's result; the tools' record of side effects replaces the executor's claim. */
function normalise(raw: unknown, stepId: string, tools: StepTools): StepResult {
  const parsed = StepResultSchema.safeParse(raw);
  if (!parsed.success) {
    return failed(
      stepId,
      'invalid_output',
      `the executor returned a malformed result: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      tools,
    );
  }
  const result = { ...parsed.data, stepId, sideEffects: tools.sideEffects() };
  if (result.status !== 'succeeded' && !result.failure) {
    result.failure = {
      class: 'tool_error',
      message: result.output || `the executor reported ${result.status} without a failure`,
      partialSideEffects: tools.sideEffects(),
      recoverable: true,
      suggestion: '',
    };
  }
  return result;
}

function failed(stepId: string, cls: Failure['class'], message: string, tools: StepTools): StepResult {
  const effects = tools.sideEffects();
  return {
    stepId,
    status: 'failed',
    output: message,
    evidence: [],
    sideEffects: effects,
    failure: { class: cls, message, partialSideEffects: effects, recoverable: true, suggestion: '' },
    toolCallIds: [],
  };
}

/**
 * The one failure of a step the mission's stop cut short, whether the executor threw on the abort (its
 * error kept as `detail`) or finished first. Recoverable: the step did nothing wrong, and resuming the mission re-runs it (the
 * engine never retries a cancelled step by itself: stepFlow.ts refuses the class).
 */
function cancelledResult(stepId: string, tools: StepTools, thrown?: string): StepResult & { failure: Failure } {
  const message = 'the mission was cancelled while this step ran';
  const effects = tools.sideEffects();
  const failure: Failure = {
    class: 'cancelled',
    message,
    partialSideEffects: effects,
    recoverable: true,
    suggestion: 'resume the mission to re-run it',
    // What the executor threw as it stopped, kept for the log.
    ...(thrown ? { detail: thrown } : {}),
  };
  return { stepId, status: 'failed', output: message, evidence: [], sideEffects: effects, failure, toolCallIds: [] };
}

/** The record of a success nothing checked (verification off): says so, so no reader takes it for a verdict. */
function unverified(stepId: string, now: number): Verification {
  const detail = "verification is off for this mission (the single-loop baseline): the executor's report stands unchecked";
  return { stepId, passed: true, checks: [{ check: 'not verified', passed: true, detail }], at: new Date(now).toISOString() };
}

/** A verification failure expressed as the step's Failure (what a retry or replan is told). */
export function verificationFailure(verification: Verification, result: StepResult): Failure {
  // A review the provider kept from running is the provider's failure, not the step's.
  const provider = verification.checks.find((c) => !c.passed && c.failure?.cause)?.failure;
  if (provider) return { ...provider, partialSideEffects: result.sideEffects };
  const failedChecks = verification.checks.filter((c) => !c.passed).map((c) => `${c.check}: ${c.detail}`);
  return {
    class: 'verification_failed',
    message: `the step's evidence did not hold: ${failedChecks.join('; ')}`,
    partialSideEffects: result.sideEffects,
    recoverable: true,
    suggestion: 'fix what the failed checks show, then report again',
  };
}
