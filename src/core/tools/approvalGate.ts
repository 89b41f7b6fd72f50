/**
 * The approval gate: the only path from an executor's wish to an effect. In order:
 *   1. policy      — `resolveAction`; a refusal records `policy_denied` and stops (no approval is asked);
 *   2. request     — `approval_requested` is recorded, then the Approver (user, or one of the user's rules)
 *                    decides; an identical action already approved in this scope (same action hash) is
 *                    re-approved by rule, and still recorded — except an action only the user decides;
 *   3. consent     — `consent.ts` has the last word: an unsandboxed command approved by anything but the
 *                    user's own answer to this request is refused here, whatever the approver returned;
 *   4. decision    — `approval_decided` is recorded BEFORE anything happens; a rejection stops here;
 *   5. precondition — the caller re-checks that the world still matches what was approved (e.g. the file
 *                    still has the content the diff was computed from);
 *   6. effect.
 * Nothing writes or runs without a recorded decision bound to the action's hash.
 */
import { z } from 'zod';
import type { Failure } from '../contracts/results';
import type { ApprovalAction, ApprovalDecision, ApprovalRequest, Approver } from '../ports';
import type { TraceEventBody } from '../contracts/traceEvents';
import { err, ok, type Result } from '../contracts/result';
import { commandActionHash, mcpActionHash, writeActionHash } from './actionHash';
import { cancelled, permissionDenied, rejectedByUser, toolError } from './failures';
import { resolveAction, type Policy, type PolicyAction, type ResolvedAction } from '../policy/policy';
import { errorText } from '../primitives/errorText';
import { consentRefusal, onlyTheUserDecides } from './consent';

export interface GateContext {
  missionId: string;
  stepId: string | null;
  approver: Approver;
  record(event: TraceEventBody): Promise<void>;
  signal: AbortSignal;
  newId(): string;
  /** Action hashes approved earlier in this scope → the request that approved them. */
  ledger: Map<string, string>;
  /** Who asks: the step's executor, or the verifier running its evidence checks (absent: the executor). */
  role?: 'executor' | 'verifier';
}

/** The action an executor (or the verifier) wants, with its reason in its own words. */
export type GateAction = ApprovalAction & { why?: string };

/** The effect's value, or why it did not run (denied, rejected, cancelled, stale). */
export type GateOutcome<T> = Result<T, Failure>;

const DecisionSchema = z.union([
  z.object({ decision: z.literal('approved'), by: z.literal('user') }),
  z.object({ decision: z.literal('approved'), by: z.literal('rule'), rule: z.string() }),
  z.object({ decision: z.literal('rejected'), reason: z.string() }),
]);

export function actionHashOf(action: GateAction): string {
  switch (action.kind) {
    case 'write':
      return writeActionHash(action.path, action.change, action.afterHash);
    case 'command':
      return commandActionHash(action.argv, action.cwd);
    case 'mcp':
      return mcpActionHash(action.server, action.tool, action.arguments);
  }
}

function summaryOf(action: GateAction): string {
  switch (action.kind) {
    case 'write':
      return `${action.change} ${action.path}`;
    case 'command':
      return `run \`${action.command}\`${action.program ? ` (program ${action.program})` : ''} in ${action.cwd}${action.confinement === 'sandboxed' ? '' : action.confinement === 'unsandboxed' ? ' (UNSANDBOXED: no OS sandbox here)' : ' (sandbox off)'}${action.network ? (action.hostLoopback ? " with the host's network (its loopback services too)" : ' with network') : ''}${action.staged === false ? ' (writes the workspace directly: no staging layer here)' : ''}`;
    case 'mcp':
      return `call MCP tool ${action.server}/${action.tool}${action.readOnly ? ' (read-only hint)' : ''} — server ${action.confinement === 'sandboxed' ? `in the step's sandbox${action.network ? ' with network' : ', no network'}` : action.confinement === 'unsandboxed' ? 'UNSANDBOXED (sandbox off)' : action.confinement === 'remote' ? 'remote, not confined by us' : 'run by VS Code, not confined by us'}`;
  }
}

/** The request an approver sees: the action's own fields (one declaration, `ApprovalAction`) and the request's identity. */
function requestOf(action: GateAction, base: Omit<ApprovalRequest, 'kind'>): ApprovalRequest {
  return { ...action, ...base };
}

function describe(action: PolicyAction): string {
  return action.kind === 'run' ? `run \`${action.command}\` in ${action.cwd || '.'}` : `${action.kind} ${action.path}`;
}

/** Step 1 on its own, for callers that must know the resolution before they can build the action. */
export async function checkPolicy(
  ctx: GateContext,
  policy: Policy,
  action: PolicyAction,
): Promise<Result<Exclude<ResolvedAction, { allowed: false }>, Failure>> {
  const resolved = resolveAction(policy, action);
  if (resolved.allowed) return ok(resolved);
  await ctx.record({ type: 'policy_denied', stepId: ctx.stepId, action: describe(action), rule: resolved.rule, reason: resolved.reason });
  return err(permissionDenied(resolved.rule, resolved.reason));
}

/**
 * Steps 1–6. `precondition` runs after the decision and before the effect; a string it returns is the
 * reason the approved action no longer matches the world (the effect is then skipped).
 */
export async function runGated<T>(
  ctx: GateContext,
  policy: Policy,
  policyAction: PolicyAction,
  action: GateAction,
  effect: () => Promise<T>,
  precondition: () => Promise<string | undefined> = async () => undefined,
): Promise<GateOutcome<T>> {
  const allowed = await checkPolicy(ctx, policy, policyAction);
  if (!allowed.ok) return allowed;
  return runApproved(ctx, action, effect, precondition);
}

/**
 * Step 2's decision, before the consent rule: an identical action approved earlier in this scope (never for
 * an action only the user decides), a cancellation, or the approver's answer (malformed or thrown: rejected).
 */
async function decisionFor(ctx: GateContext, action: GateAction, requestId: string, actionHash: string): Promise<ApprovalDecision> {
  const earlier = onlyTheUserDecides(action) ? undefined : ctx.ledger.get(actionHash);
  if (earlier !== undefined) return { decision: 'approved', by: 'rule', rule: `same action approved earlier (request ${earlier})` };
  if (ctx.signal.aborted) return { decision: 'rejected', reason: 'cancelled before approval' };
  const base = { id: requestId, missionId: ctx.missionId, stepId: ctx.stepId, actionHash, why: action.why ?? '', ...(ctx.role ? { role: ctx.role } : {}) };
  try {
    const raw: unknown = await ctx.approver.request(requestOf(action, base), ctx.signal);
    const parsed = DecisionSchema.safeParse(raw);
    return parsed.success ? parsed.data : { decision: 'rejected', reason: 'the approver returned a malformed decision' };
  } catch (error) {
    return { decision: 'rejected', reason: `the approval could not be obtained: ${errorText(error)}` };
  }
}

/**
 * Steps 2–6, for an action whose policy the caller checked itself (an MCP call: src/core/tools/mcpCall.ts,
 * whose rules are about grants, not paths).
 */
export async function runApproved<T>(
  ctx: GateContext,
  action: GateAction,
  effect: () => Promise<T>,
  precondition: () => Promise<string | undefined> = async () => undefined,
): Promise<GateOutcome<T>> {
  const actionHash = actionHashOf(action);
  const requestId = ctx.newId();
  await ctx.record({ type: 'approval_requested', requestId, stepId: ctx.stepId, kind: action.kind, actionHash, summary: summaryOf(action) });

  const asked = await decisionFor(ctx, action, requestId, actionHash);
  // The consent rule (consent.ts) has the last word over whatever the approver or the ledger said.
  const refusal = consentRefusal(action, asked);
  const decision: ApprovalDecision = refusal === undefined ? asked : { decision: 'rejected', reason: `refused by the approval gate: ${refusal}` };
  await ctx.record({ type: 'approval_decided', requestId, actionHash, decision });

  if (refusal !== undefined) return err(permissionDenied('user_consent', refusal));
  if (decision.decision === 'rejected') {
    return err(ctx.signal.aborted ? cancelled('cancelled while waiting for approval') : rejectedByUser(decision.reason));
  }
  ctx.ledger.set(actionHash, requestId);
  if (ctx.signal.aborted) return err(cancelled('cancelled before the effect'));
  const stale = await precondition();
  if (stale !== undefined) return err(toolError(`not applied: ${stale}`, 'view the file again and redo the edit'));
  return ok(await effect());
}
