/**
 * One step from start to its end state: attempts with retries, the verification gate, and — when it is
 * out of retries — blocking its dependents and raising the replan trigger (or ending the mission in
 * direct mode). The engine's loop starts these; they report back through the scheduler and triggers.
 *
 * A rejection the user gave with a reason reaches the executor first, as the refused tool call's result:
 * it may redo the edit within the step. Only when the step then fails or escalates does a replan happen,
 * and the user's reasons travel in the trigger's evidence.
 */
import type { Step } from '../contracts/plan';
import { MISSION_STOPPING_CAUSES, type StepResult } from '../contracts/results';
import { DEFAULT_TOOL_SETTINGS } from './options';
import { runStepAttempt, verificationFailure } from './stepRunner';
import type { StepFlowContext } from './missionContext';
import { errorDetail, errorText } from '../primitives/errorText';

/** Failure classes a plain retry cannot fix: they go straight to a replan (or end the mission). */
const NOT_RETRYABLE = new Set(['permission_denied', 'rejected_by_user', 'budget_exceeded', 'cancelled', 'precondition_failed']);

/** The provider failed in a way no retry or replan fixes (key, quota, endpoint, model, waits exhausted). */
const stopsMission = (failure: { cause?: string }): boolean => failure.cause !== undefined && MISSION_STOPPING_CAUSES.has(failure.cause);

/** runStep, with an unexpected exception turned into the step's failure (recorded, never swallowed). */
export async function runStepSafely(run: StepFlowContext, stepId: string): Promise<void> {
  try {
    await runStep(run, stepId);
  } catch (error) {
    const message = errorText(error);
    await run.record({
      type: 'log',
      level: 'error',
      message: `step ${stepId} crashed the engine: ${errorDetail(error)}`,
    });
    const step = run.stepById(stepId)!;
    const failure = {
      class: 'tool_error' as const,
      message: `internal error: ${message}`,
      partialSideEffects: { files: [], commands: [] },
      recoverable: false,
      suggestion: 'see the trace log',
    };
    const result: StepResult = {
      stepId,
      status: 'failed',
      output: failure.message,
      evidence: [],
      sideEffects: { files: [], commands: [] },
      toolCallIds: [],
      failure,
    };
    if (run.scheduler?.state(stepId) === 'running') await stepGaveUp(run, step, result, failure, run.steps.get(stepId)?.attempt ?? 1, false);
  }
}

/** One step with its retries. Outcomes go to the scheduler; problems become replan triggers. */
async function runStep(run: StepFlowContext, stepId: string): Promise<void> {
  const step = run.stepById(stepId)!;
  // Always the current scheduler: a plan edit may rebuild it while this step runs.
  const scheduler = () => run.scheduler!;
  const retries = run.options.retriesPerStep ?? 1;
  let previousFailure: StepResult['failure'];
  for (let tries = 0; ; tries++) {
    const over = run.budget.canStartStep();
    if (over || run.stopping) {
      if (over) await run.exceed(over);
      // A retry that never happens leaves the step failed; a first attempt that never starts is
      // reported as never started by finish().
      if (tries > 0)
        await run.setStatus(
          stepId,
          'failed',
          run.steps.get(stepId)?.attempt ?? 1,
          `the mission stopped before its retry; last failure: ${previousFailure?.message ?? ''}`,
        );
      scheduler().finish(stepId, tries > 0 ? 'failed' : 'skipped');
      return;
    }
    const attempt = (run.steps.get(stepId)?.attempt ?? 0) + 1;
    run.budget.usage.stepAttempts += 1;
    await run.setStatus(stepId, 'running', attempt, tries > 0 ? `retry after: ${previousFailure?.message ?? ''}` : undefined);
    const out = await runStepAttempt({
      missionId: run.missionId,
      plan: run.plan,
      step,
      attempt,
      previousFailure,
      results: run.results(step.dependsOn),
      toolCalls: run.toolCalls,
      ports: run.options,
      approver: run.stepApprover,
      ...(run.options.approve ? { approveMode: run.options.approve } : {}),
      toolSettings: { ...DEFAULT_TOOL_SETTINGS, ...run.options.toolSettings },
      contextBudget: run.contextBudget,
      env: run.options.env ?? {},
      verifierCommands: run.options.verifierCommands ?? [],
      verify: run.options.verify !== false,
      signal: run.abort.signal,
      remainingMs: () => run.budget.remainingWallMs(),
      hashOf: run.hashOf,
      record: (body) => run.record(body),
      noteFailure: (what, error) => run.noteFailure(what, error),
      onVerifying: () => run.setStatus(stepId, 'verifying', attempt),
    });
    const state = run.steps.get(stepId)!;
    state.result = out.result;
    state.verification = out.verification ?? undefined;
    if (out.interrupted) {
      await run.setStatus(stepId, 'interrupted', attempt, 'the mission stopped while this step ran');
      scheduler().finish(stepId, 'failed');
      return;
    }
    if (out.verification?.passed) {
      await run.setStatus(stepId, 'succeeded', attempt);
      scheduler().finish(stepId, 'succeeded');
      if (out.result.observation && !run.direct) {
        run.addTrigger({ kind: 'observation', stepId, message: out.result.observation, evidence: `step ${stepId} observed: ${out.result.observation}` });
      }
      return;
    }
    const failure = out.verification ? verificationFailure(out.verification, out.result) : out.result.failure!;
    const retryable =
      (out.result.status === 'failed' || out.verification !== null) &&
      !NOT_RETRYABLE.has(failure.class) &&
      failure.recoverable !== false &&
      !stopsMission(failure);
    if (retryable && tries < retries) {
      previousFailure = failure;
      await run.record({ type: 'log', level: 'info', message: `step ${stepId} attempt ${attempt} failed (${failure.class}); retrying` });
      continue;
    }
    await stepGaveUp(run, step, out.result, failure, attempt, out.verification !== null);
    return;
  }
}

/** A step is out of retries: block what depends on it, then replan (or end the mission) if it matters. */
async function stepGaveUp(
  run: StepFlowContext,
  step: Step,
  result: StepResult,
  failure: NonNullable<StepResult['failure']>,
  attempt: number,
  verificationFailed: boolean,
): Promise<void> {
  const status = result.status === 'blocked' ? 'blocked' : 'failed';
  await run.setStatus(step.id, status, attempt, `${failure.class}: ${failure.message}`);
  const blocked = run.scheduler!.finish(step.id, 'failed');
  for (const id of blocked)
    await run.setStatus(id, 'blocked', run.steps.get(id)?.attempt ?? 0, `depends on ${step.id}, which ${status === 'blocked' ? 'is blocked' : 'failed'}`);
  if (stopsMission(failure)) {
    // The provider failed (key, quota, endpoint, model): a replan cannot fix that, and every other step
    // would meet the same wall. Stop, and let the user act on the cause; finished steps stay finished.
    run.fail(`step ${step.id} could not run: ${failure.message}`, failure);
    return;
  }
  const requiredHit = step.required || blocked.some((id) => run.stepById(id)?.required);
  if (!requiredHit) {
    await run.record({
      type: 'log',
      level: 'info',
      message: `optional step ${step.id} ${status}; only its dependents (${blocked.join(', ') || 'none'}) are affected`,
    });
    return;
  }
  if (run.direct) {
    run.fail(`step ${step.id} ${status}: ${failure.message} (direct mode: a short plan is not replanned)`, failure);
    return;
  }
  const kind =
    result.status === 'needs_replan' ? 'escalation' : result.status === 'blocked' ? 'step_blocked' : verificationFailed ? 'verification_failed' : 'step_failed';
  // The failed attempt's raw tool output travels by reference: the replanner can fetch_tool_result these ids.
  const checkCalls = verificationFailed ? (run.steps.get(step.id)?.verification?.checks ?? []).flatMap((c) => (c.toolCallId ? [c.toolCallId] : [])) : [];
  const ids = [...result.toolCallIds, ...checkCalls];
  const calls = ids.length > 0 ? `\n[tool_call_ids of the failed attempt: ${ids.join(', ')}]` : '';
  const rejected = run.rejectionsOf(step.id);
  const words = rejected.length > 0 ? `\nthe user rejected actions of this step, saying: ${rejected.map((r) => JSON.stringify(r)).join('; ')}` : '';
  run.addTrigger({
    kind,
    stepId: step.id,
    message: failure.message,
    evidence: `${failure.class}: ${failure.message}${failure.detail ? ` (${failure.detail})` : ''}${failure.suggestion ? `; suggestion: ${failure.suggestion}` : ''}${words}${calls}`,
  });
}
