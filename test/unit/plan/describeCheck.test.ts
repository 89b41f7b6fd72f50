import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describeCheck } from '../../../src/core';
import type { EvidenceCheck } from '../../../src/core/contracts/plan';
import { verifyStep } from '../../../src/core/mission/gate';
import { renderHandoff } from '../../../src/core/roles/handoffRender';
import type { TraceEvent, TraceEventBody } from '../../../src/core/contracts/traceEvents';
import { missionViewFromEvents } from '../../../src/core/mission/view';
import { toUiMission } from '../../../src/vscode/view/uiMission';
import { handoffFor } from '../roles/fakes';
import { parsedPlan, step as fixtureStep } from '../../support/fixtures';

const CHECKS: EvidenceCheck[] = [
  { kind: 'command', command: 'npm test', expectExitCode: 0, expectOutputIncludes: 'passing' },
  { kind: 'files_exist', paths: ['src/a.ts', 'src/b.ts'] },
  { kind: 'file_contains', path: 'README.md', text: 'greet' },
  { kind: 'review', criterion: 'the README explains greet()' },
];

describe('evidence check descriptions', () => {
  it('describes each kind of check in one wording (the one the roles were trained on)', () => {
    assert.deepEqual(CHECKS.map(describeCheck), [
      'command `npm test` exits 0 and prints "passing"',
      'files exist: src/a.ts, src/b.ts',
      'README.md contains "greet"',
      'review: the README explains greet()',
    ]);
    assert.equal(describeCheck({ kind: 'command', command: 'make', expectExitCode: 2 } as EvidenceCheck), 'command `make` exits 2');
  });

  it("reads the same in the executor's handoff, the sidebar's step card and the verification record", async () => {
    const step = fixtureStep('s1', { title: 'Check', kind: 'verify', authority: undefined, evidence: { checks: CHECKS, description: '' } });
    const handoff = handoffFor(step);
    const rendered = renderHandoff(handoff, 10_000);
    for (const check of CHECKS) assert.ok(rendered.includes(describeCheck(check)), `handoff shows: ${describeCheck(check)}`);

    const plan = parsedPlan([step], { goal: 'g' });
    const events = [{ type: 'plan_version', plan, author: 'planner', diff: null }] as TraceEventBody[];
    const view = toUiMission(missionViewFromEvents(events.map((b, seq) => ({ missionId: 'm1', seq, at: '2026-01-01T00:00:00.000Z', ...b }) as TraceEvent)), {
      live: false,
    });
    assert.deepEqual(view.steps[0]?.evidence, CHECKS.map(describeCheck));

    // The gate names each check's outcome with the same words (here every check fails to run: no files, no tools).
    const aborted = new AbortController();
    aborted.abort();
    const verification = await verifyStep({
      handoff,
      result: { stepId: 's1', status: 'succeeded', output: 'ok', evidence: [], sideEffects: { files: [], commands: [] }, toolCallIds: [] },
      tools: {} as never,
      verifier: {} as never,
      workspace: {} as never,
      ctx: { missionId: 'm1', stepId: 's1', signal: aborted.signal, record: async () => undefined },
      now: () => 0,
    });
    assert.deepEqual(
      verification.checks.map((c) => c.check),
      CHECKS.map(describeCheck),
    );
  });

  it('has one definition of describeCheck and of the system clock in src', () => {
    const src = join(__dirname, '..', '..', '..', 'src');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : /\.tsx?$/.test(n) ? [join(dir, n)] : []));
    const defining = (re: RegExp) =>
      files(src)
        .filter((f) => re.test(readFileSync(f, 'utf8')))
        .map((f) => relative(src, f));
    assert.deepEqual(defining(/function describeCheck\b/), ['core/plan/describe.ts']);
    assert.deepEqual(defining(/:\s*Clock\s*=\s*\{/), ['node/systemClock.ts']);
  });
});
