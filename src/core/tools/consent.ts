/**
 * Who may approve an action: the one place the product's consent promise lives.
 *
 * An unsandboxed command — one that would run without the OS sandbox because this machine has none
 * (`sandbox: prefer`) — runs only on the user's own decision for that very request. Nothing else stands in
 * for it: not one of the user's rules, not an approval mode (approve-all, approve-with-the-plan), not an
 * identical action approved earlier in the step, not a hook's `allow`. The approval gate
 * (`approvalGate.ts`) enforces this on the decision it receives, whatever the approver returns; an approver
 * reads `onlyTheUserDecides` only to route such a request to the user rather than answer it by rule (an
 * approver that forgets gets its answer refused by the gate, and the command does not run).
 *
 * A command run with the sandbox switched off (`sandbox_off`) is the user's setting, not the machine's
 * lack: it is approved like any other action.
 */
import type { ApprovalDecision } from '../ports';

/** What the rule looks at: a gate action or an approval request (both carry these fields). */
export interface ConsentSubject {
  kind: string;
  confinement?: string;
}

/** Whether only the user's own answer to this very request can approve it. */
export function onlyTheUserDecides(subject: ConsentSubject): boolean {
  return subject.kind === 'command' && subject.confinement === 'unsandboxed';
}

/** Who decided, in words for the trace (`by` is the explicit "who decided" input of every decision). */
function decider(decision: Extract<ApprovalDecision, { decision: 'approved' }>): string {
  return decision.by === 'rule' ? `by the rule "${decision.rule}"` : `by ${decision.by}`;
}

/**
 * Why the gate refuses this approval, or undefined when it stands. Only an approval can be refused: a
 * rejection always stands. `by: 'user'` means the user answered this request; anything else — a rule, a
 * mode, an earlier approval, any decider added later — is refused for an action only the user decides.
 */
export function consentRefusal(subject: ConsentSubject, decision: ApprovalDecision): string | undefined {
  if (decision.decision !== 'approved' || decision.by === 'user' || !onlyTheUserDecides(subject)) return undefined;
  return `a command without the OS sandbox runs only on the user's own decision for this request, and this one was approved ${decider(decision)}`;
}
