import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validatePlan } from '../../../src/core/plan/validate';
import { readPlanDocument } from '../../../src/core/plan/document/read';
import { writePlanDocument } from '../../../src/core/plan/document/write';
import type { Plan } from '../../../src/core/contracts/plan';
import { estimateFor, text, validPlanInput } from './documentArbitraries';

function accepted(input: unknown): Plan {
  const checked = validatePlan(input);
  if (!checked.ok) throw new Error(`the generator made a plan the engine refuses: ${JSON.stringify(checked.errors)}`);
  return checked.plan;
}

describe('plan document: round trip over generated plans', () => {
  it('writes every plan the engine accepts and reads back the same typed plan, task, base commit and estimate', function () {
    this.timeout(180_000);
    fc.assert(
      fc.property(
        validPlanInput.chain((input) => {
          const plan = accepted(input);
          return fc.record({
            plan: fc.constant(plan),
            task: text,
            baseCommit: fc.option(fc.stringMatching(/^[0-9a-f]{7,40}$/), { nil: undefined }),
            estimate: estimateFor(plan.steps.map((s) => s.id)),
          });
        }),
        ({ plan, task, baseCommit, estimate }) => {
          const meta = { task, ...(baseCommit !== undefined ? { baseCommit } : {}), ...(estimate ? { estimate } : {}) };
          const doc = writePlanDocument(plan, meta);
          const read = readPlanDocument(doc);
          if (!read.ok) assert.fail(`the document does not read back: ${JSON.stringify(read.error)}\n${doc}`);
          assert.deepEqual(read.value.plan, plan);
          assert.equal(read.value.meta.task, task);
          assert.equal(read.value.meta.baseCommit, baseCommit);
          assert.equal(read.value.meta.version, plan.version);
          assert.deepEqual(read.value.meta.estimate?.steps, estimate ? plan.steps.flatMap((s) => estimate.steps.filter((e) => e.stepId === s.id)) : undefined);
          // document → typed plan → document is byte-stable
          assert.equal(writePlanDocument(read.value.plan, read.value.meta), doc);
        },
      ),
      { numRuns: Number(process.env.PE_RUNS ?? 300) },
    );
  });

  it('reads a document whose line endings became CRLF the same as the original', function () {
    this.timeout(60_000);
    fc.assert(
      fc.property(validPlanInput, (input) => {
        const plan = accepted(input);
        const doc = writePlanDocument(plan, { task: 'a task' });
        const read = readPlanDocument(doc.replace(/\n/g, '\r\n'));
        assert.ok(read.ok, JSON.stringify(!read.ok && read.error));
        assert.deepEqual(read.value.plan, plan);
      }),
      { numRuns: 100 },
    );
  });

  it('keeps instruction text that looks like document structure inside its own step', function () {
    this.timeout(60_000);
    fc.assert(
      fc.property(validPlanInput, (input) => {
        const plan = accepted(input);
        const doc = writePlanDocument(plan, { task: '' });
        const headings = doc.split('\n').filter((l) => /^## /.test(l));
        assert.equal(headings.length, plan.steps.length, 'one level-2 heading per step, none from the text');
        plan.steps.forEach((s, i) => assert.ok(headings[i]!.startsWith(`## ${s.id} · `)));
      }),
      { numRuns: 200 },
    );
  });
});
