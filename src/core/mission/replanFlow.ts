/**
 * One replan, end to end: take the pending trigger(s), choose the mode, ask the planner, check the answer
 * (checkReplan), and either adopt the new version — finished steps stay finished, invalidated ones re-open,
 * replaced ones are marked so — or record the refusal and ask again while the replan budget lasts. Every
 * attempt, accepted or refused, is a `replan` event with its trigger and evidence.
 */
import { err } from '../contracts/result';
import type { Plan } from '../contracts/plan';
import type { ReplanRequest, RoleContext, RoleOutcome } from '../ports';
import { planningSetup } from './userSetup';
import { capText } from '../handoff/contextBudget';
import { checkReplan, replanModeFor, type ReplanTrigger } from './replan';
import { describeTrigger } from './triggerWords';
import { requestPlanApproval } from './planApproval';
import { replannerLookups } from './plannerTools';
import type { MissionContext } from './missionContext';
import { planLimits, replanNeedsApproval } from './options';
import { errorText } from '../primitives/errorText';

/** Returns false when the mission cannot go on (budget, planner failure, cancellation, rejection). */
export async function replanOnce(run: MissionContext): Promise<boolean> {
  const [first, ...others] = run.triggers;
  run.triggers = [];
  if (!first) return true;
  const trigger: ReplanTrigger =
    others.length === 0
      ? first
      : {
          ...first,
          evidence: `${first.evidence}\nAlso pending: ${others.map((t) => `${t.kind}${t.stepId ? ` (${t.stepId})` : ''}: ${t.message}`).join('; ')}`,
        };
  const mode = others.length > 0 ? 'rest' : replanModeFor(trigger);
  await run.setPhase('replanning', `${describeTrigger(trigger.kind, trigger.stepId)}: ${trigger.message}`);
  let feedback = '';
  // Read-only lookups, so the replanner can fetch raw results (of the failed step too) by tool-call id.
  const tools = replannerLookups(run);
  for (;;) {
    const over = run.budget.canReplan();
    if (over) {
      await run.exceed(over);
      return false;
    }
    run.budget.usage.replans += 1;
    await run.record({ type: 'budget', kind: 'replans', used: run.budget.usage.replans, limit: run.budget.limits.maxReplans, exceeded: false });
    const current = run.plan;
    const finished = new Set(current.steps.filter((s) => run.steps.get(s.id)?.status === 'succeeded').map((s) => s.id));
    const outcome = await askReplanner(run, replanRequest(run, { ...trigger, evidence: trigger.evidence + feedback }, mode, finished, tools));
    if (run.abort.signal.aborted) return false;
    const base = { type: 'replan' as const, trigger: trigger.kind, stepId: trigger.stepId, mode, fromVersion: current.version };
    if (!outcome.ok) {
      await run.record({ ...base, evidence: `${trigger.evidence}\nplanner failed: ${outcome.error.message}`, toVersion: null, invalidated: [] });
      run.fail(`replanning failed: ${outcome.error.message}`, outcome.error);
      return false;
    }
    const version = run.history.nextVersion;
    const reason = `replanned ${mode === 'step' ? `step ${trigger.stepId} and what depends on it` : 'the rest of the mission'} after ${describeTrigger(trigger.kind, trigger.stepId)}: ${trigger.message}`;
    const check = checkReplan({
      current,
      proposed: outcome.value,
      version,
      reason,
      mode,
      stepId: trigger.stepId,
      finished,
      validate: planLimits(run.options),
    });
    if (!check.ok) {
      const errors = check.error.errors.map((e) => `${e.path}: ${e.message}`).join('; ');
      await run.record({ ...base, evidence: `${trigger.evidence}\nrefused: ${errors}`, toVersion: null, invalidated: [], refusedBecause: check.error.reasons });
      feedback = `\nYour previous replan was refused: ${errors}`;
      continue;
    }
    const entry = run.history.append(check.value.plan, 'replanner');
    await run.record({ type: 'plan_version', plan: check.value.plan, author: 'replanner', diff: entry.diff });
    await run.record({ ...base, evidence: trigger.evidence, toVersion: check.value.plan.version, invalidated: check.value.invalidated });
    await adoptVersion(
      run,
      current,
      check.value.plan,
      check.value.invalidated.map((i) => i.stepId),
    );
    if (replanNeedsApproval(run.options)) {
      const approved = await requestPlanApproval(run);
      if (!approved.ok) {
        if (!run.abort.signal.aborted) run.fail(approved.error.message, approved.error.failure);
        return false;
      }
    }
    await run.setPhase('running', `continuing with plan v${check.value.plan.version}`);
    return true;
  }
}

/** What the replanner is told: the task, the plan as it stands, the trigger, and what finished steps did. */
function replanRequest(
  run: MissionContext,
  trigger: ReplanTrigger,
  mode: ReplanRequest['mode'],
  finished: ReadonlySet<string>,
  tools: ReplanRequest['tools'],
): ReplanRequest {
  const current = run.plan;
  return {
    task: run.options.task,
    constraints: current.constraints,
    workspaceSummary: run.options.workspaceSummary ?? '',
    ...planningSetup(run.options),
    mode,
    current,
    trigger,
    finished: [...finished].map((id) => {
      const result = run.steps.get(id)?.result;
      return {
        stepId: id,
        title: current.steps.find((s) => s.id === id)!.title,
        summary: capText(result?.output ?? '', run.contextBudget.summaryChars),
        toolCallIds: result?.toolCallIds ?? [],
      };
    }),
    history: run.history.summary(),
    tools,
  };
}

/** The replanner's answer; a planner that throws (a bug or an I/O fault in it) is a failed answer, not a crash. */
async function askReplanner(run: MissionContext, request: ReplanRequest): Promise<RoleOutcome<Plan>> {
  const ctx: RoleContext = {
    missionId: run.missionId,
    stepId: request.trigger.stepId,
    signal: run.abort.signal,
    record: (body) => run.record(body),
    remainingMs: () => run.budget.remainingWallMs(),
  };
  try {
    return await run.options.planner.replan(request, ctx);
  } catch (error) {
    return err({ class: 'tool_error', message: errorText(error), partialSideEffects: { files: [], commands: [] }, recoverable: false, suggestion: '' });
  }
}

/** Carries step states over to a new version and rebuilds the scheduler. */
async function adoptVersion(run: MissionContext, previous: Plan, next: Plan, invalidated: readonly string[]): Promise<void> {
  const kept = new Set(next.steps.map((s) => s.id));
  for (const step of previous.steps) {
    const state = run.steps.get(step.id);
    if (!kept.has(step.id) && state && state.status !== 'succeeded') {
      await run.setStatus(step.id, 'replaced', state.attempt, `not in plan v${next.version}`);
    }
  }
  for (const step of next.steps) {
    const state = run.steps.get(step.id);
    if (!state) {
      await run.setStatus(step.id, 'pending', 0, `added in plan v${next.version}`);
    } else if (invalidated.includes(step.id)) {
      delete state.result;
      delete state.verification;
      await run.setStatus(step.id, 'pending', state.attempt, `invalidated by plan v${next.version}`);
    } else if (['failed', 'blocked', 'interrupted', 'skipped', 'cancelled', 'replaced'].includes(state.status)) {
      await run.setStatus(step.id, 'pending', state.attempt, `re-opened by plan v${next.version}`);
    }
  }
  run.rebuildScheduler();
}
