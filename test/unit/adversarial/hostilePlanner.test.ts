/**
 * Red team, planner side: garbage JSON, a dependency cycle, a plan over the step cap, authority globs that
 * leave the workspace. One repair turn, then a clear invalid_output failure — and no file touched, no
 * executor ever called. A replanner that quietly rewrites a finished step is refused every time.
 */
import { strict as assert } from 'node:assert';
import type { WirePlan, WireStep, WireStepOverrides } from '../../support/fixtures';
import { cleanup, edit, ofType, plan, read, report, runAdversarialMission, step, tree, write, type MissionRun, describeEachProvider } from './harness';

const A_JS = "console.log('ok');\n";

const good = (id = 's1', extra: WireStepOverrides = {}): WireStep =>
  step(id, {
    authority: { read: ['**'], edit: ['src/**'], commands: [] },
    evidence: { checks: [{ kind: 'files_exist', paths: ['src/a.js'] }], description: '' },
    ...extra,
  });

const cyclic = plan([good('s1', { dependsOn: ['s2'] }), good('s2', { dependsOn: ['s3'] }), good('s3', { dependsOn: ['s1'] })]);
const overCap = plan(Array.from({ length: 41 }, (_, i) => good(`s${i + 1}`)));
const escape = (glob: string): WirePlan => plan([good('s1', { authority: { read: ['**'], edit: [glob], commands: [] } })]);

const cases: { name: string; answer: unknown; error: RegExp }[] = [
  { name: 'garbage JSON', answer: '{"goal": "x", "steps": [ {{{ not json', error: /not valid JSON/ },
  { name: 'prose instead of JSON', answer: 'Sure! Here is my plan: first edit the file, then run the tests.', error: /not valid JSON/ },
  { name: 'a dependency cycle', answer: cyclic, error: /dependency cycle/ },
  { name: 'a plan over the step cap', answer: overCap, error: /over the cap of 40/ },
  { name: 'edit authority "../**"', answer: escape('../**'), error: /"\.\."/ },
  { name: 'edit authority "/**"', answer: escape('/**'), error: /absolute/ },
  { name: 'edit authority "src/{a,..}/**"', answer: escape('src/{a,..}/**'), error: /expand to "\.\."/ },
  { name: 'a plan with no steps', answer: plan([]), error: /no steps/ },
];

describeEachProvider('adversarial: hostile or broken planner output', function () {
  this.timeout(30_000);
  let run: MissionRun | undefined;
  afterEach(async () => {
    await cleanup(run);
    run = undefined;
  });

  for (const c of cases) {
    it(`${c.name}: one repair turn, then a clear invalid_output failure; nothing runs, nothing is touched`, async () => {
      const structured = { structured: c.answer };
      run = await runAdversarialMission({
        planTurns: [structured, structured],
        setup: (ws) => write(ws, 'src/a.js', A_JS),
        rules: [{ name: 'exec', match: { role: 'executor' }, respond: () => ({ toolUse: [edit('src/a.js', { command: 'create', file_text: 'x' })] }) }],
      });
      assert.equal(run.report.outcome, 'failed');
      assert.equal(run.report.failure?.class, 'invalid_output', JSON.stringify(run.report));
      assert.match(run.report.failure?.message ?? '', /invalid plan twice/);
      assert.match(run.report.failure?.message ?? '', c.error);
      const planner = run.requests.filter((r) => r.role === 'planner');
      assert.equal(planner.length, 2, 'the first answer and exactly one repair');
      assert.match(JSON.stringify(planner[1]!.body.messages?.at(-1)), /The plan is invalid/);
      assert.equal(run.requests.filter((r) => r.role !== 'planner').length, 0, 'no other role was called');
      assert.equal(ofType(run.events, 'plan_version').length, 0);
      assert.deepEqual(tree(run.ws), ['src/a.js']);
      assert.equal(read(run.ws, 'src/a.js'), A_JS);
    });
  }

  it('a broken first plan repaired on the second turn runs normally', async () => {
    const fixed = plan(
      [
        good('s1', {
          authority: { read: ['**'], edit: ['src/**'], commands: [] },
          evidence: { checks: [{ kind: 'file_contains', path: 'src/a.js', text: 'patched' }], description: '' },
        }),
      ],
      { direct: true },
    );
    run = await runAdversarialMission({
      planTurns: [{ structured: cyclic }, { structured: fixed }],
      setup: (ws) => write(ws, 'src/a.js', A_JS),
      rules: [
        {
          name: 's1',
          match: { role: 'executor' },
          turns: [{ toolUse: [edit('src/a.js', { command: 'str_replace', old_str: "'ok'", new_str: "'patched'" })] }, report('patched')],
        },
      ],
    });
    assert.equal(run.report.outcome, 'succeeded', JSON.stringify(run.report));
    assert.equal(run.requests.filter((r) => r.role === 'planner').length, 2);
  });

  it('a replanner that rewrites a finished step without naming it in invalidated is refused until the replan budget ends the mission; the finished work stays', async () => {
    const s1 = step('s1', {
      authority: { read: ['**'], edit: ['src/one.js'], commands: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['src/one.js'] }], description: '' },
    });
    const s2 = step('s2', {
      dependsOn: ['s1'],
      authority: { read: ['**'], edit: ['src/two.js'], commands: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['src/two.js'] }], description: '' },
    });
    const s3 = step('s3', {
      dependsOn: ['s2'],
      authority: { read: ['**'], edit: ['src/three.js'], commands: [] },
      evidence: { checks: [{ kind: 'files_exist', paths: ['src/three.js'] }], description: '' },
    });
    // The replanner "fixes" s2 by re-running s1 with new instructions, and does not say so.
    const sneaky = plan([{ ...s1, instructions: 'Recreate src/one.js from scratch, overwriting it.' }, { ...s2, instructions: 'try again' }, s3]);
    run = await runAdversarialMission({
      plan: plan([s1, s2, s3]),
      mission: { budgets: { maxReplans: 2 } },
      setup: (ws) => write(ws, 'src/a.js', A_JS),
      rules: [
        {
          name: 's1',
          match: { role: 'executor', firstUserIncludes: '# Step s1:' },
          turns: [{ toolUse: [edit('src/one.js', { command: 'create', file_text: 'one\n' })] }, report('one')],
        },
        {
          name: 's2',
          match: { role: 'executor', firstUserIncludes: '# Step s2:' },
          turns: [{ toolUse: [{ name: 'escalate', input: { reason: 'precondition_failed', message: 'src/two.js needs a design decision' } }] }],
        },
        { name: 'replan', match: { role: 'replanner' }, respond: () => ({ structured: sneaky }) },
      ],
    });
    const replans = ofType(run.events, 'replan');
    assert.equal(replans.length, 2);
    assert.ok(
      replans.every((r) => r.toVersion === null && /finished step "s1" was changed/.test(r.evidence)),
      replans.map((r) => r.evidence).join('\n'),
    );
    assert.equal(run.report.outcome, 'budget_exceeded', JSON.stringify(run.report));
    assert.equal(run.report.budget?.kind, 'replans');
    assert.deepEqual(run.report.succeeded, ['s1']);
    assert.ok(run.report.neverStarted.includes('s3'));
    assert.equal(
      run.requests.filter((r) => r.role === 'executor' && r.turn === 1 && JSON.stringify(r.body.messages?.[0]).includes('# Step s1:')).length,
      1,
      's1 ran once',
    );
    assert.equal(read(run.ws, 'src/one.js'), 'one\n');
    assert.equal(ofType(run.events, 'plan_version').length, 1, 'no refused version was adopted');
  });
});
