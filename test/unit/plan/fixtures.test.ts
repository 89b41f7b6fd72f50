/** The shared fixtures (test/support/fixtures.ts) build what the real contracts accept, before any override. */
import { strict as assert } from 'node:assert';
import { AuthoritySchema, PlanSchema, StepSchema, type StepInput } from '../../../src/core/contracts/plan';
import { validatePlan } from '../../../src/core/plan/validate';
import { draftToPlanInput, PlanDraftSchema } from '../../../src/core/roles/planDraft';
import { authority, fileStep, parsedPlan, parsedStep, plan, step, wirePlan, wireStep } from '../../support/fixtures';

const stepBuilders: Record<string, (id: string) => StepInput> = { step, fileStep };

describe('test fixtures', () => {
  for (const [name, build] of Object.entries(stepBuilders)) {
    it(`${name}'s default step parses and validates in the default plan`, () => {
      const s = build('s1');
      assert.equal(StepSchema.safeParse(s).success, true);
      assert.equal(PlanSchema.safeParse(plan([s])).success, true);
      const v = validatePlan(plan([s]));
      assert.deepEqual(v.ok ? [] : v.errors, []);
    });
  }

  it("wireStep's default step in the default wire plan parses as the planner's draft, and the plan it makes validates", () => {
    const draft = PlanDraftSchema.parse(wirePlan([wireStep('s1')]));
    const input = draftToPlanInput(draft, 1, null);
    assert.equal(PlanSchema.safeParse(input).success, true);
    const v = validatePlan(input);
    assert.deepEqual(v.ok ? [] : v.errors, []);
  });

  it('the parsed builders return what the schema makes of the input builders', () => {
    assert.deepEqual(parsedStep('s1'), StepSchema.parse(step('s1')));
    assert.deepEqual(parsedPlan([step('s1')]), PlanSchema.parse(plan([step('s1')])));
    const v = validatePlan(parsedPlan([step('a'), step('b', { dependsOn: ['a'] })]));
    assert.deepEqual(v.ok ? [] : v.errors, []);
  });

  it('authority fills every default and keeps what it is given', () => {
    assert.deepEqual(authority(), AuthoritySchema.parse({}));
    assert.deepEqual(authority({ edit: ['src/**'] }), { read: ['**'], edit: ['src/**'], commands: [], network: false, mcp: [] });
  });

  it('an override replaces the field it names, never merges into the default', () => {
    assert.deepEqual(step('s1', { authority: { edit: ['x'] } }).authority, { edit: ['x'] });
    assert.equal(wireStep('s1', { modelTier: 'heavy' }).modelTier, 'heavy');
  });

  it('a wrong field is a compile error', () => {
    // @ts-expect-error -- `authority.write` is not a field of the contract
    step('s1', { authority: { write: ['src/**'] } });
    // @ts-expect-error -- 'delete' is not a step kind
    step('s1', { kind: 'delete' });
    // @ts-expect-error -- `steps` is plan's first argument, not an override
    plan([], { steps: [] });
  });
});
