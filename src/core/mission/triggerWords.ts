/**
 * Replan triggers: their kinds, and how everything a person reads (plan-version reasons, the timeline, the
 * phase line) says them. The trace keeps the raw kind; no surface shows it. No imports: the projections
 * use this too.
 */
export const TRIGGER_KINDS = ['step_failed', 'step_blocked', 'verification_failed', 'escalation', 'user_correction', 'observation'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

const WORDS: Record<TriggerKind, string> = {
  step_failed: 'a step failed',
  step_blocked: 'a step was blocked',
  verification_failed: "a step's verification failed",
  escalation: 'the executor asked for a new plan',
  user_correction: 'your correction',
  observation: 'an observation changed what was known',
};

export function isTriggerKind(kind: string): kind is TriggerKind {
  return Object.hasOwn(WORDS, kind);
}

/** The trigger in words; an unknown kind (a newer trace) is shown with its underscores made spaces. */
export function describeTrigger(kind: string, stepId?: string | null): string {
  const words = isTriggerKind(kind) ? WORDS[kind] : kind.replace(/_/g, ' ');
  if (!stepId) return words;
  switch (kind) {
    case 'step_failed':
      return `step ${stepId} failed`;
    case 'step_blocked':
      return `step ${stepId} was blocked`;
    case 'verification_failed':
      return `the verification of step ${stepId} failed`;
    case 'escalation':
      return `the executor of step ${stepId} asked for a new plan`;
    case 'user_correction':
      return `your correction on step ${stepId}`;
    case 'observation':
      return `step ${stepId} found something the plan did not expect`;
    default:
      return `${words} (step ${stepId})`;
  }
}
