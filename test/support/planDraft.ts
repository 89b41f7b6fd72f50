/**
 * A plan step as a scripted planner sends it: every field present, as the strict structured-output schema
 * demands. Tests override what they care about; `title` and `kind` default so short scripts stay short.
 */
export function draftStep(id: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    id,
    title: `step ${id}`,
    why: '',
    required: true,
    dependsOn: [],
    kind: 'edit',
    instructions: '',
    binding: { prerequisite: '', fallback: '', consequence: '' },
    expectedOutput: '',
    risk: 'low',
    effort: 'small',
    modelTier: 'light',
    ...extra,
  };
}
