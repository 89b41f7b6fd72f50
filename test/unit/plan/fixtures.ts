/** Small plan builders shared by the engine's unit tests (plain data, no fakes of vscode). */
import type { PlanInput, StepInput } from '../../../src/core/contracts/plan';

export function step(id: string, overrides: Partial<StepInput> = {}): StepInput {
  return {
    id,
    title: `step ${id}`,
    kind: 'edit',
    authority: { read: ['**'], edit: [`src/${id}/**`], commands: ['npm test'] },
    evidence: { checks: [{ kind: 'command', command: 'npm test', expectExitCode: 0 }] },
    ...overrides,
  };
}

export function plan(steps: StepInput[], overrides: Partial<PlanInput> = {}): PlanInput {
  return { goal: 'make the tests pass', steps, ...overrides };
}
