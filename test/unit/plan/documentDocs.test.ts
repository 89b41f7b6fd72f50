import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPlanDocument } from '../../../src/core/plan/document/read';
import { writePlanDocument } from '../../../src/core/plan/document/write';
import { hashMatches } from '../../../src/core/plan/document/meta';

/** The example in docs/plans.md: the first ````markdown block. */
function docsExample(): string {
  const text = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'plans.md'), 'utf8');
  const m = /````markdown\n([\s\S]*?\n)````/.exec(text);
  assert.ok(m, 'docs/plans.md has its ````markdown example');
  return m[1]!;
}

describe('plan document: the example in docs/plans.md', () => {
  it('reads, passes validation, states the right hash and writes back byte for byte', () => {
    const example = docsExample();
    const read = readPlanDocument(example);
    assert.ok(read.ok, JSON.stringify(!read.ok && read.error));
    assert.deepEqual(
      read.value.plan.steps.map((s) => s.id),
      ['s1', 's2', 's3'],
    );
    assert.ok(hashMatches(read.value.plan, read.value.meta), 'the example states the hash of what it holds');
    assert.equal(writePlanDocument(read.value.plan, read.value.meta), example);
  });
});
