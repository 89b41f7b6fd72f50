/**
 * Replan triggers: their kinds, and how a front end says them to the user ("s2 failed", "your correction on
 * s3") instead of the raw kind. Light on purpose (no imports): the projections use it too.
 */
export const TRIGGER_KINDS = ['step_failed', 'step_blocked', 'verification_failed', 'escalation', 'user_correction', 'observation'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export function isTriggerKind(value: string): value is TriggerKind {
  return (TRIGGER_KINDS as readonly string[]).includes(value);
}

/** The trigger in words for the user: "s2 failed", "your correction on s3". */
export function describeTrigger(trigger: { kind: TriggerKind; stepId: string | null }): string {
  const step = trigger.stepId ?? 'a step';
  switch (trigger.kind) {
    case 'step_failed':
      return `${step} failed`;
    case 'step_blocked':
      return `${step} was blocked`;
    case 'verification_failed':
      return `the evidence of ${step} did not hold`;
    case 'escalation':
      return `${step} asked for a new plan`;
    case 'user_correction':
      return trigger.stepId ? `your correction on ${trigger.stepId}` : 'your correction';
    case 'observation':
      return `${step} found something the plan did not expect`;
  }
}

