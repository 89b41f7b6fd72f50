/**
 * Plan approval: through the Approver port with `kind: 'plan'` (no separate callback), so every front end
 * shows plan and action approvals in one place and the same rules can apply. The request binds to a hash
 * of the exact plan version. If the user edits the plan while a request is open, the engine aborts that
 * request (the Approver resolves it as rejected) and asks again for the new version — an approval never
 * applies to a version the user did not see. In approve mode 'all' the plan is approved by rule, unless
 * the front end has every version approved by the user (`planApproval: 'user'`, VS Code).
 */
import type { ApprovalDecision } from '../ports';
import type { Failure } from '../contracts/results';
import { planNeedsApprover, type MissionOutcome } from './options';
import type { MissionContext } from './missionContext';
import { sha256Hex } from '../primitives/hash';
import { err, ok, type Result } from '../contracts/result';

/** How the mission ends when its plan is not approved. */
type PlanNotApproved = { outcome: MissionOutcome; message: string; failure?: Failure };
export type ApprovalOutcome = Result<void, PlanNotApproved>;

export async function requestPlanApproval(run: MissionContext): Promise<ApprovalOutcome> {
  await run.setPhase('awaiting_approval');
  let requestNo = 0;
  for (;;) {
    if (run.abort.signal.aborted) return err({ outcome: 'cancelled', message: 'the mission was cancelled before the plan was approved' });
    const plan = run.plan;
    const actionHash = sha256Hex(JSON.stringify(plan));
    const requestId = `${run.missionId}:plan:${plan.version}:${++requestNo}`;
    const summary = `plan v${plan.version}: ${plan.steps.length} steps — ${plan.goal}`;
    const estimate = run.options.estimatePlan?.(plan);
    if (estimate) await run.record({ type: 'plan_estimate', version: plan.version, estimate });
    await run.record({ type: 'approval_requested', requestId, stepId: null, kind: 'plan', actionHash, summary });
    let decision: ApprovalDecision;
    if (!planNeedsApprover(run.options)) {
      decision = { decision: 'approved', by: 'rule', rule: 'approve=all' };
    } else {
      const controller = new AbortController();
      run.approvalAbort = controller;
      // The mission may have been stopped (a budget, a cancel), or the user may have edited the plan, while the
      // estimate and the request were being recorded: before this controller existed, nothing could abort it.
      if (run.abort.signal.aborted || run.plan.version !== plan.version) controller.abort();
      decision = await run.options.approver.request(
        { kind: 'plan', id: requestId, missionId: run.missionId, stepId: null, actionHash, why: plan.reason, plan, ...(estimate ? { estimate } : {}) },
        controller.signal,
      );
      run.approvalAbort = null;
    }
    const stale = run.plan.version !== plan.version;
    await run.record({
      type: 'approval_decided',
      requestId,
      actionHash,
      decision: stale ? { decision: 'rejected', reason: `superseded by plan v${run.plan.version}` } : decision,
    });
    if (run.abort.signal.aborted) return err({ outcome: 'cancelled', message: 'the mission was cancelled before the plan was approved' });
    if (stale) continue;
    if (decision.decision === 'rejected') {
      return err({
        outcome: 'cancelled',
        message: `the plan was rejected: ${decision.reason}`,
        failure: {
          class: 'rejected_by_user',
          message: 'the plan was rejected',
          detail: decision.reason,
          partialSideEffects: { files: [], commands: [] },
          recoverable: true,
          suggestion: 'edit the plan or the task and run again',
        },
      });
    }
    run.approvedVersion = plan.version;
    await run.record({ type: 'plan_approved', version: plan.version, by: decision.by });
    void run.save();
    return ok();
  }
}
