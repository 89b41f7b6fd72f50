import { strict as assert } from 'node:assert';
import { parseArgs } from '../../../src/node/cliArgs';

describe('cli arguments: plan and run --plan', () => {
  it('parses plan with its output file and the mission options it shares with run', () => {
    const parsed = parseArgs(['plan', '--workspace', '/w', '--task', 'T', '--out', 'p.md', '--constraint', 'c', '--max-plan-steps', '9', '--model', 'm']);
    assert.ok(parsed.ok, !parsed.ok ? parsed.error : '');
    assert.equal(parsed.value.kind, 'plan');
    assert.ok(parsed.value.kind === 'plan');
    assert.equal(parsed.value.out, 'p.md');
    assert.deepEqual(parsed.value.constraints, ['c']);
    assert.equal(parsed.value.limits.maxPlanSteps, 9);
    assert.equal(parsed.value.models.model, 'm');
  });

  it('refuses plan without a task, and --approve for plan (it approves nothing)', () => {
    assert.deepEqual(parseArgs(['plan', '--workspace', '/w']), { ok: false, error: 'plan needs --task TEXT' });
    assert.deepEqual(parseArgs(['plan', '--workspace', '/w', '--task', 'T', '--approve', 'all']), { ok: false, error: 'unknown option --approve for "plan"' });
  });

  it('parses run --plan without a task, and --allow-other-base', () => {
    const parsed = parseArgs(['run', '--workspace', '/w', '--plan', 'p.md', '--allow-other-base', '--approve', 'plan']);
    assert.ok(parsed.ok && parsed.value.kind === 'run');
    assert.equal(parsed.value.planFile, 'p.md');
    assert.equal(parsed.value.allowOtherBase, true);
    assert.equal(parsed.value.approve, 'plan');
  });

  it('refuses run --plan with --task or --constraint (the document holds them), and --allow-other-base elsewhere', () => {
    assert.match((parseArgs(['run', '--workspace', '/w', '--plan', 'p.md', '--task', 'T']) as { error: string }).error, /leave out --task and --constraint/);
    assert.match((parseArgs(['run', '--workspace', '/w', '--plan', 'p.md', '--constraint', 'c']) as { error: string }).error, /leave out --task/);
    assert.deepEqual(parseArgs(['run', '--workspace', '/w']), { ok: false, error: 'run needs --task TEXT (or --plan FILE)' });
    assert.deepEqual(parseArgs(['continue', '--workspace', '/w', '--allow-other-base']), {
      ok: false,
      error: 'unknown option --allow-other-base for "continue"',
    });
  });

  it('answers --help for a subcommand', () => {
    const plan = parseArgs(['plan', '--help']);
    assert.ok(plan.ok && plan.value.kind === 'help');
    assert.match(plan.value.text, /Plans the task and writes the plan document/);
    assert.match(plan.value.text, /--out FILE/);
    assert.doesNotMatch(plan.value.text, /--approve/, 'nothing runs, so plan takes no --approve');
    const run = parseArgs(['run', '-h']);
    assert.ok(run.ok && run.value.kind === 'help');
    assert.match(run.value.text, /--plan FILE/);
    assert.match(run.value.text, /--allow-other-base/);
  });
});
