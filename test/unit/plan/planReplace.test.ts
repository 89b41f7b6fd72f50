import assert from 'node:assert/strict';
import { applyPlanEdit } from '../../../src/core/plan/edits';
import { PlanSchema, type Plan } from '../../../src/core/contracts/plan';
import { plan, step } from '../../support/fixtures';

const v1 = (): Plan =>
  PlanSchema.parse(
    plan([step('s1', { instructions: 'do one' }), step('s2', { dependsOn: ['s1'], required: false }), step('s3', { dependsOn: ['s1'] })], {
      constraints: ['keep the API'],
    }),
  );

/** v1 with one step changed by `change`. */
function withStep(p: Plan, id: string, change: (s: Plan['steps'][number]) => Plan['steps'][number]): Plan {
  return { ...p, steps: p.steps.map((s) => (s.id === id ? change(s) : s)) };
}

describe('a whole edited plan as the next version (replace_plan)', () => {
  it('before approval: any valid plan becomes the next version, with its parent, its reason and its diff', () => {
    const current = v1();
    const edited = {
      ...withStep(current, 's1', (s) => ({ ...s, instructions: 'do one, carefully', authority: { ...s.authority, edit: ['src/**'] } })),
      version: 7,
      reason: 'ignored',
    };
    const out = applyPlanEdit(current, { kind: 'replace_plan', plan: { ...edited, steps: [...edited.steps, step('s4')] } }, 2);
    assert.ok(out.ok, !out.ok ? out.error.message : '');
    assert.equal(out.value.version, 2, 'the engine numbers the version');
    assert.equal(out.value.parentVersion, 1);
    assert.equal(out.value.reason, 'edited by you');
    assert.equal(out.value.steps[0]!.instructions, 'do one, carefully');
    assert.deepEqual(
      out.value.steps.map((s) => s.id),
      ['s1', 's2', 's3', 's4'],
    );
  });

  it('refuses an invalid plan with every error, and an unchanged one', () => {
    const current = v1();
    const broken = applyPlanEdit(current, { kind: 'replace_plan', plan: withStep(current, 's3', (s) => ({ ...s, dependsOn: ['s9'] })) }, 2);
    assert.equal(broken.ok, false);
    assert.equal(!broken.ok && broken.error.reason, 'invalid_plan');
    assert.equal(!broken.ok && broken.error.errors?.[0]?.path, 'steps[2].dependsOn[0]');
    const same = applyPlanEdit(current, { kind: 'replace_plan', plan: current }, 2);
    assert.equal(!same.ok && same.error.reason, 'no_change');
  });

  it('keeps steps that started or finished exactly as they were', () => {
    const current = v1();
    const edited = withStep(current, 's1', (s) => ({ ...s, instructions: 'rewrite history' }));
    const out = applyPlanEdit(current, { kind: 'replace_plan', plan: edited }, 2, { locked: new Set(['s1']), approved: true });
    assert.equal(!out.ok && out.error.reason, 'invalid_edit');
    assert.match(!out.ok ? out.error.message : '', /step "s1" has already started or finished/);
  });

  it('while the approved plan runs: narrowing, rewording and dropping an optional step are fine; widening is refused', () => {
    const current = v1();
    const ctx = { locked: new Set(['s1']), approved: true };
    const narrowed = withStep(current, 's3', (s) => ({ ...s, instructions: 'only the one file', authority: { ...s.authority, edit: ['src/s3/one.ts'] } }));
    const ok = applyPlanEdit(current, { kind: 'replace_plan', plan: { ...narrowed, steps: narrowed.steps.filter((s) => s.id !== 's2') } }, 2, ctx);
    assert.ok(ok.ok, !ok.ok ? ok.error.message : '');
    assert.deepEqual(ok.value.steps[1]!.authority.edit, ['src/s3/one.ts']);

    const wider = withStep(current, 's3', (s) => ({ ...s, authority: { ...s.authority, edit: ['**'] } }));
    const refused = applyPlanEdit(current, { kind: 'replace_plan', plan: wider }, 2, ctx);
    assert.equal(!refused.ok && refused.error.reason, 'widening');
    assert.match(!refused.ok ? refused.error.message : '', /step "s3" cannot be given more authority/);
    const added = applyPlanEdit(
      current,
      { kind: 'replace_plan', plan: { ...current, steps: [...current.steps, PlanSchema.shape.steps.element.parse(step('s9'))] } },
      2,
      ctx,
    );
    assert.match(!added.ok ? added.error.message : '', /step "s9" cannot be added/);
    const unconstrained = applyPlanEdit(current, { kind: 'replace_plan', plan: { ...current, constraints: [] } }, 2, ctx);
    assert.match(!unconstrained.ok ? unconstrained.error.message : '', /constraint "keep the API" cannot be removed/);
    // Before approval the same widening is the user's to approve.
    assert.ok(applyPlanEdit(current, { kind: 'replace_plan', plan: wider }, 2).ok);
  });
});
