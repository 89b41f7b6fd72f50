import assert from 'node:assert/strict';
import { readPlanDocument } from '../../../src/core/plan/document/read';
import { writePlanDocument } from '../../../src/core/plan/document/write';
import { checkPlanDocumentIntact } from '../../../src/core/plan/document/intact';
import { hashMatches, planDocumentHash } from '../../../src/core/plan/document/meta';
import { canonicalJson } from '../../../src/core/primitives/canonicalJson';
import { sha256Hex } from '../../../src/core/primitives/hash';
import { PlanSchema } from '../../../src/core/contracts/plan';
import { plan, step } from '../../support/fixtures';

const thePlan = PlanSchema.parse(plan([step('s1', { instructions: 'Write it.' }), step('s2', { dependsOn: ['s1'], required: false })]));
const meta = { task: 'do the thing', baseCommit: 'abc1234' };

describe('plan document: the hash', () => {
  it('is the SHA-256 of the canonical JSON of format, task, base commit and the typed plan, and is written in the front matter', () => {
    const expected = sha256Hex(canonicalJson({ format: 'plan-execute/plan-document@1', task: meta.task, baseCommit: meta.baseCommit, plan: thePlan }));
    assert.equal(planDocumentHash(thePlan, meta), expected);
    assert.match(writePlanDocument(thePlan, meta), new RegExp(`^hash: ${expected}$`, 'm'));
  });

  it('changes with the plan, the task and the base commit, and not with the estimate', () => {
    const h = planDocumentHash(thePlan, meta);
    const edited = { ...thePlan, steps: thePlan.steps.map((s) => (s.id === 's1' ? { ...s, instructions: 'Write it twice.' } : s)) };
    assert.notEqual(planDocumentHash(edited, meta), h);
    assert.notEqual(planDocumentHash(thePlan, { ...meta, task: 'another' }), h);
    assert.notEqual(planDocumentHash(thePlan, { task: meta.task }), h);
    const withEstimate = writePlanDocument(thePlan, { ...meta, estimate: { tokens: 5, costUsd: 1, pricing: 'priced', steps: [] } });
    assert.match(withEstimate, new RegExp(`^hash: ${h}$`, 'm'));
  });

  it('an edited local document reads, and says it was edited (its stated hash no longer matches)', () => {
    const doc = writePlanDocument(thePlan, meta).replace('Write it.', 'Write it twice.');
    const read = readPlanDocument(doc);
    assert.ok(read.ok);
    assert.equal(read.value.plan.steps[0]!.instructions, 'Write it twice.');
    assert.equal(hashMatches(read.value.plan, read.value.meta), false);
    assert.equal(hashMatches(thePlan, { ...meta, version: 1, hash: planDocumentHash(thePlan, meta) }), true);
  });

  it('a document without a hash reads (hand-written), with an empty stated hash', () => {
    const doc = writePlanDocument(thePlan, meta).replace(/^hash: .*\n/m, '');
    const read = readPlanDocument(doc);
    assert.ok(read.ok);
    assert.equal(read.value.meta.hash, '');
  });
});

describe('plan document: intact (a plan comment must be exactly what the product wrote)', () => {
  it("accepts the writer's own output, CRLF or not", () => {
    const doc = writePlanDocument(thePlan, meta);
    assert.ok(checkPlanDocumentIntact(doc).ok);
    assert.ok(checkPlanDocumentIntact(doc.replace(/\n/g, '\r\n')).ok);
  });

  it('refuses an edit of the plan: the hash no longer matches', () => {
    const out = checkPlanDocumentIntact(writePlanDocument(thePlan, meta).replace('Write it.', 'Write it and push to main.'));
    assert.equal(out.ok, false);
    assert.match(!out.ok ? out.error[0]!.message : '', /hash does not match/);
  });

  it('refuses an edit that keeps the plan but changes the visible text, and one that re-states a matching hash', () => {
    const doc = writePlanDocument(thePlan, meta);
    // A different spelling of the same plan: the heading separator the reader also accepts.
    const respelled = checkPlanDocumentIntact(doc.replace('## s2 · ', '## s2 - '));
    assert.equal(respelled.ok, false);
    assert.match(!respelled.ok ? respelled.error[0]!.message : '', /differs from the rendering/);
    const edited = { ...thePlan, goal: 'something else' };
    const forged = doc.replace('# make the tests pass', '# something else').replace(/^hash: .*$/m, `hash: ${planDocumentHash(edited, meta)}`);
    assert.ok(readPlanDocument(forged).ok);
    assert.equal(checkPlanDocumentIntact(forged).ok, true, 'a re-stated hash over the edited plan is consistent…');
    // …so the comment's author is what GitHub checks besides; the hash alone proves the text matches the plan.
  });

  it('refuses a document without a hash and an unreadable one', () => {
    assert.equal(checkPlanDocumentIntact(writePlanDocument(thePlan, meta).replace(/^hash: .*\n/m, '')).ok, false);
    assert.equal(checkPlanDocumentIntact('not a plan').ok, false);
  });
});
