import assert from 'node:assert/strict';
import { validatePlan } from '../../../src/core/plan/validate';
import { plan, step } from '../../support/fixtures';

function errorsOf(input: unknown, options = {}): { path: string; message: string }[] {
  const result = validatePlan(input, options);
  assert.equal(result.ok, false, 'expected the plan to be rejected');
  return result.ok ? [] : result.errors;
}

describe('validatePlan', () => {
  it('accepts a well-formed plan and fills defaults', () => {
    const result = validatePlan(plan([step('s1'), step('s2', { dependsOn: ['s1'] })]));
    assert.ok(result.ok);
    assert.equal(result.plan.version, 1);
    assert.equal(result.plan.steps[1]!.required, true);
  });

  it('maps shape errors to JSON paths and names the step', () => {
    const errors = errorsOf(plan([step('s1'), step('s2'), step('s3', { dependsOn: [7 as unknown as string] })]));
    const dep = errors.find((e) => e.path === 'steps[2].dependsOn[0]');
    assert.ok(dep, JSON.stringify(errors));
    assert.match(dep.message, /step "s3"/);
  });

  it('reports a missing required field as missing', () => {
    const errors = errorsOf({ goal: 'g', steps: [{ id: 's1', kind: 'edit' }] });
    assert.ok(
      errors.some((e) => e.path === 'steps[0].title' && /missing/.test(e.message)),
      JSON.stringify(errors),
    );
  });

  it('reports every cross-field problem at once', () => {
    const errors = errorsOf(plan([step('s1'), step('s1'), step('s2', { dependsOn: ['nope'] }), step('s3', { dependsOn: ['s3'] })]));
    const paths = errors.map((e) => e.path);
    assert.ok(paths.includes('steps[1].id'), 'duplicate id');
    assert.ok(paths.includes('steps[2].dependsOn[0]'), 'unknown dependency');
    assert.ok(paths.includes('steps[3].dependsOn[0]'), 'self dependency');
    assert.ok(errors.find((e) => e.path === 'steps[2].dependsOn[0]')!.message.includes('"nope"'));
  });

  it('names the steps in a dependency cycle', () => {
    const errors = errorsOf(plan([step('s1'), step('s2', { dependsOn: ['s1', 's3'] }), step('s3', { dependsOn: ['s2'] })]));
    const cycle = errors.find((e) => /cycle/.test(e.message));
    assert.ok(cycle);
    assert.match(cycle.message, /s2 → s3 → s2/);
  });

  it('still finds a cycle when another step is malformed', () => {
    const errors = errorsOf(plan([step('a', { dependsOn: ['b'] }), step('b', { dependsOn: ['a'] }), { id: 'c' } as never]));
    assert.ok(errors.some((e) => /a → b → a/.test(e.message)));
    assert.ok(errors.some((e) => e.path.startsWith('steps[2]')));
  });

  it('rejects steps with no way to prove they are done, and accepts a review check for research', () => {
    const errors = errorsOf(plan([step('s1', { evidence: { checks: [] } })]));
    assert.ok(errors.some((e) => e.path === 'steps[0].evidence.checks' && /prove/.test(e.message)));
    const research = validatePlan(
      plan([
        step('r1', {
          kind: 'research',
          authority: { read: ['**'], edit: [], commands: [] },
          evidence: { checks: [{ kind: 'review', criterion: 'names the failing test' }] },
        }),
      ]),
    );
    assert.ok(research.ok, JSON.stringify(research));
  });

  for (const bad of ['/etc/**', '../other/**', 'src/../../x', '~/secrets', 'C:/x', 'src\\win', '{src,..}/x']) {
    it(`rejects the authority glob ${bad} that leaves the workspace`, () => {
      const errors = errorsOf(plan([step('s1', { authority: { read: ['**'], edit: [bad], commands: ['npm test'] } })]));
      assert.ok(
        errors.some((e) => e.path === 'steps[0].authority.edit[0]'),
        JSON.stringify(errors),
      );
    });
  }

  it('rejects evidence file paths outside the workspace', () => {
    const errors = errorsOf(
      plan([
        step('s1', {
          evidence: {
            checks: [
              { kind: 'files_exist', paths: ['ok.txt', '../x'] },
              { kind: 'file_contains', path: '/etc/passwd', text: 'root' },
            ],
          },
        }),
      ]),
    );
    assert.ok(errors.some((e) => e.path === 'steps[0].evidence.checks[0].paths[1]'));
    assert.ok(errors.some((e) => e.path === 'steps[0].evidence.checks[1].path'));
  });

  it('rejects an edit step with no edit authority and a command check its allowlist does not allow', () => {
    const errors = errorsOf(
      plan([
        step('e1', { authority: { read: ['**'], edit: [], commands: ['npm test'] } }),
        step('c1', { kind: 'command', authority: { read: ['**'], edit: [], commands: ['npm run build'] } }),
      ]),
    );
    assert.ok(errors.some((e) => e.path === 'steps[0].authority.edit'));
    assert.ok(errors.some((e) => e.path === 'steps[1].evidence.checks[0].command' && /npm test/.test(e.message)));
  });

  it('allows evidence commands through a trailing-star pattern or the verifier allowlist', () => {
    const withStar = step('c1', {
      kind: 'command',
      authority: { read: ['**'], edit: [], commands: ['npm test *'] },
      evidence: { checks: [{ kind: 'command', command: 'npm test -- --grep x' }] },
    });
    assert.ok(validatePlan(plan([withStar])).ok);
    const viaVerifier = step('c2', {
      kind: 'command',
      authority: { read: ['**'], edit: [], commands: ['make'] },
      evidence: { checks: [{ kind: 'command', command: 'git diff --stat' }] },
    });
    assert.ok(validatePlan(plan([viaVerifier]), { verifierCommands: ['git diff *'] }).ok);
  });

  it('rejects an empty plan', () => {
    const errors = errorsOf(plan([]));
    assert.ok(errors.some((e) => e.path === 'steps' && /no steps/.test(e.message)));
  });

  it('rejects a plan over the size cap and says so instead of truncating', () => {
    const steps = Array.from({ length: 6 }, (_, i) => step(`s${i}`));
    const errors = errorsOf(plan(steps), { maxSteps: 5 });
    const cap = errors.find((e) => e.path === 'steps');
    assert.ok(cap);
    assert.match(cap.message, /6 steps.*cap of 5/);
    assert.ok(validatePlan(plan(steps), { maxSteps: 6 }).ok);
  });
});
