/**
 * The one set of plan fixtures for every test tier: builders for steps, plans and their parts, typed against
 * the real contracts (src/core/contracts/plan.ts), so a misspelt or misplaced field is a compile error.
 *
 * Overrides have the schema's *input* shape: nested fields the schema defaults may be left out (an
 * `authority: { edit: ['src/**'] }` reads everything, runs nothing). An override replaces the whole field
 * it names; it is never merged into the builder's default — what a test passes is what the step holds.
 *
 * Each builder's default output parses with the plan schema and passes the plan validator
 * (test/unit/plan/fixtures.test.ts). A plan a scripted model sends as JSON text comes from `wirePlan` and
 * `wireStep` via JSON.stringify, unless the test is about the wire format itself.
 */
import { AuthoritySchema, PlanSchema, StepSchema, type Authority, type Plan, type PlanInput, type Step, type StepInput } from '../../src/core/contracts/plan';
import type { PlanDraftSchema } from '../../src/core/roles/planDraft';
import type { z } from 'zod';

/** What a test may set on a step: any field but the id, in the schema's input shape. */
export type StepOverrides = Partial<Omit<StepInput, 'id'>>;
/** What a test may set on a plan besides its steps. */
export type PlanOverrides = Partial<Omit<PlanInput, 'steps'>>;
/** A plan as the planner model sends it (src/core/roles/planDraft.ts): every field explicit, `null` for an absent substring. */
export type WirePlan = z.input<typeof PlanDraftSchema>;
export type WireStep = WirePlan['steps'][number];
export type WireCheck = WireStep['evidence']['checks'][number];
export type WireStepOverrides = Partial<Omit<WireStep, 'id'>>;
export type WirePlanOverrides = Partial<Omit<WirePlan, 'steps'>>;
/** One evidence check in the schema's input shape (`expectExitCode` defaults to 0). */
export type EvidenceCheckInput = NonNullable<NonNullable<StepInput['evidence']>['checks']>[number];
/** An authority in the schema's input shape: every field optional, defaulted as the schema defaults it. */
export type AuthorityInput = NonNullable<StepInput['authority']>;

/** An edit step proven by the tests: it may edit `src/<id>/**` and run `npm test`, and `npm test` must pass. */
export function step(id: string, overrides: StepOverrides = {}): StepInput {
  return {
    id,
    title: `step ${id}`,
    kind: 'edit',
    authority: { read: ['**'], edit: [`src/${id}/**`], commands: ['npm test'] },
    evidence: { checks: [{ kind: 'command', command: 'npm test', expectExitCode: 0 }] },
    ...overrides,
  };
}

/** A step proven by its own output file, `out/<id>.txt` (what the mission tests' FakeExecutor writes). */
export function fileStep(id: string, overrides: StepOverrides = {}): StepInput {
  return {
    id,
    title: `step ${id}`,
    kind: 'edit',
    authority: { read: ['**'], edit: [`out/${id}.txt`], commands: [] },
    evidence: { checks: [{ kind: 'files_exist', paths: [`out/${id}.txt`] }] },
    ...overrides,
  };
}

/**
 * A step as a scripted planner sends it, typed against the planner's draft schema: every field the strict
 * structured-output schema demands is present. By default, like `step`, it may edit `src/<id>/**` and is
 * proven by `npm test`.
 */
export function wireStep(id: string, overrides: WireStepOverrides = {}): WireStep {
  return {
    id,
    title: `step ${id}`,
    why: '',
    required: true,
    dependsOn: [],
    kind: 'edit',
    instructions: '',
    authority: { read: ['**'], edit: [`src/${id}/**`], commands: ['npm test'], network: false, mcp: [] },
    binding: { prerequisite: '', fallback: '', consequence: '' },
    expectedOutput: '',
    evidence: { checks: [{ kind: 'command', command: 'npm test', expectExitCode: 0, expectOutputIncludes: null }], description: '' },
    risk: 'low',
    effort: 'small',
    modelTier: 'light',
    ...overrides,
  };
}

/** A plan around the given steps, in the input shape (the engine and the validator fill the defaults). */
export function plan(steps: StepInput[], overrides: PlanOverrides = {}): PlanInput {
  return { goal: 'make the tests pass', steps, ...overrides };
}

/** A plan as a scripted planner sends it: every top-level field the draft schema demands is present. */
export function wirePlan(steps: WireStep[], overrides: WirePlanOverrides = {}): WirePlan {
  return { goal: 'make the tests pass', assumptions: [], constraints: [], direct: false, reason: 'initial plan', steps, ...overrides };
}

/** A whole authority, every default filled (read everything; edit, run and reach nothing). */
export function authority(overrides: AuthorityInput = {}): Authority {
  return AuthoritySchema.parse(overrides);
}

/** A step in the contract's output shape (what the engine hands the roles): `step`'s input, parsed. */
export function parsedStep(id: string, overrides: StepOverrides = {}): Step {
  return StepSchema.parse(step(id, overrides));
}

/** A plan in the contract's output shape, parsed from `plan`'s input. */
export function parsedPlan(steps: StepInput[], overrides: PlanOverrides = {}): Plan {
  return PlanSchema.parse(plan(steps, overrides));
}
