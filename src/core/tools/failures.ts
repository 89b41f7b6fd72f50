/** Structured failures the tools hand back, so the planner can react to a class rather than parse prose. */
import type { Failure, SideEffects } from '../contracts/results';

const NONE: SideEffects = { files: [], commands: [] };

export function permissionDenied(rule: string, reason: string): Failure {
  return {
    class: 'permission_denied',
    message: reason,
    detail: rule,
    recoverable: true,
    suggestion: "stay inside the step's authority, or escalate so the planner can ask the user for exactly this rule",
    partialSideEffects: NONE,
  };
}

export function rejectedByUser(reason: string): Failure {
  return {
    class: 'rejected_by_user',
    message: `the user rejected this action: ${reason}`,
    detail: reason,
    recoverable: true,
    suggestion: "take the user's reason into account; do not retry the same action",
    partialSideEffects: NONE,
  };
}

export function toolError(message: string, suggestion = ''): Failure {
  return { class: 'tool_error', message, recoverable: true, suggestion, partialSideEffects: NONE };
}

export function timedOut(message: string): Failure {
  return {
    class: 'timeout',
    message,
    recoverable: true,
    suggestion: 'narrow the command (fewer tests, a smaller target) or ask for a longer timeout',
    partialSideEffects: NONE,
  };
}

export function cancelled(message = 'cancelled'): Failure {
  return { class: 'cancelled', message, recoverable: false, suggestion: '', partialSideEffects: NONE };
}

/** The user's hook refused the call, or blocked it and its change was taken back: `message` names the hook and its reason. */
export function blockedByHook(message: string): Failure {
  return {
    class: 'rejected_by_user',
    message,
    detail: 'hook',
    recoverable: true,
    suggestion: "one of the user's hooks said no, with its reason: address that reason, then try again",
    partialSideEffects: NONE,
  };
}
