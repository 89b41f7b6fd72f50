import assert from 'node:assert/strict';
import { validatePlan } from '../../../src/core/plan/validate';
import { diffPlans } from '../../../src/core/plan/diff';
import { PlanHistory } from '../../../src/core/plan/history';
import { applyPlanEdit } from '../../../src/core/plan/edits';
import type { Plan } from '../../../src/core/contracts/plan';
import { plan, step } from '../../support/fixtures';

function valid(input: unknown): Plan {
  const result = validatePlan(input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.plan;
}

const base = (): Plan => valid(plan([step('s1'), step('s2', { dependsOn: ['s1'], required: false }), step('s3', { dependsOn: ['s1'] })]));

describe('plan versions', () => {
  it('diffs added, removed and changed steps field by field', () => {
    const a = base();
    const b = valid(
      plan([step('s1', { title: 'renamed', instructions: 'do it differently' }), step('s3', { dependsOn: ['s1'] }), step('s4', { dependsOn: ['s3'] })], {
        constraints: ['never touch package.json'],
      }),
    );
    const diff = diffPlans(a, b);
    assert.deepEqual(diff.added, ['s4']);
    assert.deepEqual(diff.removed, ['s2']);
    assert.deepEqual(diff.changed, [{ stepId: 's1', fields: ['title', 'instructions'] }]);
    assert.deepEqual(diff.planFields, ['constraints']);
  });

  it('keeps every version, each with its parent, reason, author and diff', () => {
    const history = new PlanHistory();
    const v1 = base();
    history.append(v1, 'planner');
    const edited = applyPlanEdit(v1, { kind: 'add_constraint', text: 'only touch src/' }, history.nextVersion);
    assert.ok(edited.ok);
    history.append(edited.value, 'user');
    assert.equal(history.versions.length, 2);
    const v2 = history.latest!;
    assert.equal(v2.version, 2);
    assert.equal(v2.parentVersion, 1);
    assert.equal(v2.author, 'user');
    assert.match(v2.reason, /only touch src/);
    assert.deepEqual(v2.diff?.planFields, ['constraints']);
    assert.equal(history.get(1)!.plan.constraints.length, 0, 'version 1 is unchanged');
  });

  it('refuses to append a version that does not follow the latest', () => {
    const history = new PlanHistory();
    history.append(base(), 'planner');
    assert.throws(() => history.append(base(), 'user'), /cannot follow/);
  });
});

describe('applyPlanEdit', () => {
  it("edits a step's instructions as a new version", () => {
    const v1 = base();
    const out = applyPlanEdit(v1, { kind: 'instructions', stepId: 's3', instructions: 'use the new API' }, 2);
    assert.ok(out.ok);
    assert.equal(out.value.steps.find((s) => s.id === 's3')!.instructions, 'use the new API');
    assert.equal(out.value.parentVersion, 1);
    assert.equal(v1.steps.find((s) => s.id === 's3')!.instructions, '', 'the old version is untouched');
  });

  it('drops an optional step but not a required one unless the user confirms', () => {
    const v1 = base();
    assert.ok(applyPlanEdit(v1, { kind: 'drop_step', stepId: 's2' }, 2).ok);
    const refused = applyPlanEdit(v1, { kind: 'drop_step', stepId: 's3' }, 2);
    assert.equal(refused.ok, false);
    assert.equal(!refused.ok && refused.error.reason, 'required_step');
    const confirmed = applyPlanEdit(v1, { kind: 'drop_step', stepId: 's3', confirmRequired: true }, 2);
    assert.ok(confirmed.ok);
    assert.match(confirmed.value.reason, /required step \(confirmed\) s3/);
  });

  it('refuses to drop a step others depend on', () => {
    const out = applyPlanEdit(base(), { kind: 'drop_step', stepId: 's1', confirmRequired: true }, 2);
    assert.equal(!out.ok && out.error.reason, 'has_dependents');
  });

  it('accepts a tightening of authority and refuses a widening', () => {
    const v1 = base();
    const tighter = applyPlanEdit(v1, { kind: 'tighten_authority', stepId: 's1', authority: { edit: ['src/s1/a.ts'] } }, 2);
    assert.ok(tighter.ok);
    const wider = applyPlanEdit(v1, { kind: 'tighten_authority', stepId: 's1', authority: { edit: ['src/**'] } }, 2);
    assert.equal(!wider.ok && wider.error.reason, 'widening');
    const moreCommands = applyPlanEdit(v1, { kind: 'tighten_authority', stepId: 's1', authority: { commands: ['npm test', 'rm -rf dist'] } }, 2);
    assert.equal(!moreCommands.ok && moreCommands.error.reason, 'widening');
  });

  it('refuses edits that would make the plan invalid, with the validation errors', () => {
    const out = applyPlanEdit(base(), { kind: 'tighten_authority', stepId: 's1', authority: { edit: [] } }, 2);
    assert.equal(!out.ok && out.error.reason, 'invalid_plan');
    assert.ok(!out.ok && out.error.errors?.some((e) => e.path === 'steps[0].authority.edit'));
  });

  it('refuses malformed edits from a front end', () => {
    const out = applyPlanEdit(base(), { kind: 'rename_everything' }, 2);
    assert.equal(!out.ok && out.error.reason, 'invalid_edit');
  });
});
