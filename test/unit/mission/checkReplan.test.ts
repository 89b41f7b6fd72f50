import assert from 'node:assert/strict';
import { checkReplan, replanModeFor } from '../../../src/core/mission/replan';
import { validatePlan } from '../../../src/core/plan/validate';
import type { Plan } from '../../../src/core/contracts/plan';
import { fileStep, plan } from '../../support/fixtures';

const current = ((): Plan => {
  const r = validatePlan(plan([fileStep('a'), fileStep('b', { dependsOn: ['a'] }), fileStep('c', { dependsOn: ['b'] }), fileStep('x')]));
  if (!r.ok) throw new Error('fixture');
  return r.plan;
})();

const base = { current, version: 2, reason: 'replan', finished: new Set(['a']) };

describe('checkReplan', () => {
  it('lets a step-level replan change only the failed step and its dependents', () => {
    const ok = checkReplan({
      ...base,
      mode: 'step',
      stepId: 'b',
      proposed: plan([fileStep('a'), fileStep('b2', { dependsOn: ['a'] }), fileStep('c', { dependsOn: ['b2'] }), fileStep('x')]),
    });
    assert.ok(ok.ok, JSON.stringify(!ok.ok && ok.error.errors));
    const wide = checkReplan({
      ...base,
      mode: 'step',
      stepId: 'b',
      proposed: plan([fileStep('a'), fileStep('b2', { dependsOn: ['a'] }), fileStep('c', { dependsOn: ['b2'] }), fileStep('x', { instructions: 'changed' })]),
    });
    assert.equal(wide.ok, false);
    assert.ok(!wide.ok && wide.error.errors.some((e) => /may only change it and its dependents.*"x"/.test(e.message)));
  });

  it('allows the same change in a rest-of-mission replan', () => {
    const out = checkReplan({
      ...base,
      mode: 'rest',
      stepId: 'b',
      proposed: plan([fileStep('a'), fileStep('b'), fileStep('c', { dependsOn: ['b'] }), fileStep('x', { instructions: 'changed' })]),
    });
    assert.ok(out.ok);
    assert.equal(out.value.plan.version, 2);
    assert.equal(out.value.plan.parentVersion, 1);
  });

  it('refuses to invalidate a step that has not finished', () => {
    const out = checkReplan({
      ...base,
      mode: 'rest',
      stepId: null,
      proposed: {
        ...plan([fileStep('a'), fileStep('b', { dependsOn: ['a'] }), fileStep('c', { dependsOn: ['b'] }), fileStep('x')]),
        invalidated: [{ stepId: 'c', reason: 'because' }],
      },
    });
    assert.ok(!out.ok && out.error.errors.some((e) => e.path === 'invalidated[0].stepId'));
  });

  it('chooses step-level for local problems and rest-of-mission for changed beliefs', () => {
    const t = (kind: Parameters<typeof replanModeFor>[0]['kind'], stepId: string | null = 's1') => replanModeFor({ kind, stepId, message: '', evidence: '' });
    assert.deepEqual([t('step_failed'), t('step_blocked'), t('verification_failed'), t('escalation')], ['step', 'step', 'step', 'step']);
    assert.deepEqual([t('user_correction'), t('observation'), t('step_failed', null)], ['rest', 'rest', 'rest']);
  });
});
