import assert from 'node:assert/strict';
import { readPlanDocument } from '../../../src/core/plan/document/read';
import { writePlanDocument } from '../../../src/core/plan/document/write';
import { PlanSchema } from '../../../src/core/contracts/plan';
import type { PlanDocumentError } from '../../../src/core/plan/document/meta';
import { plan, step } from '../../support/fixtures';

/** A valid three-step document to break in one place at a time. */
function goodDocument(): string {
  const p = PlanSchema.parse(
    plan([step('s1', { instructions: 'Write it.' }), step('s2', { dependsOn: ['s1'], required: false }), step('s3', { dependsOn: ['s1'], why: 'the docs' })], {
      constraints: ['keep the API'],
    }),
  );
  return writePlanDocument(p, { task: 'do the thing', baseCommit: 'abc1234' });
}

/** The 1-based line of the first line matching `pattern` after line `after` (a heading, say). */
function lineOf(doc: string, pattern: RegExp, after = 0): number {
  const i = doc.split('\n').findIndex((l, n) => n + 1 > after && pattern.test(l));
  assert.ok(i >= 0, `no line matches ${pattern}`);
  return i + 1;
}

function errorsOf(doc: string): PlanDocumentError[] {
  const read = readPlanDocument(doc);
  assert.equal(read.ok, false, 'the document should not read');
  return read.ok ? [] : read.error;
}

describe('plan document: errors name the line and what is wrong', () => {
  it('reads the unbroken document', () => {
    assert.ok(readPlanDocument(goodDocument()).ok);
  });

  it('a duplicated step id: at the second heading, naming the id', () => {
    const doc = goodDocument().replace('## s3 · ', '## s2 · ');
    const errors = errorsOf(doc);
    const second = lineOf(doc, /^## s2 · /, lineOf(doc, /^## s2 · /));
    assert.ok(
      errors.some((e) => e.line === second && /duplicate step id "s2"/.test(e.message)),
      JSON.stringify(errors),
    );
  });

  it('a dependency on a missing step: at the "after" line', () => {
    const doc = goodDocument().replace(/(## s2 · [^\n]*\n\n(?:- [^\n]*\n)*?)- after: s1/, '$1- after: s9');
    const errors = errorsOf(doc);
    const after = lineOf(doc, /^- after: s9$/);
    assert.deepEqual(
      errors.map((e) => e.line),
      [after],
    );
    assert.match(errors[0]!.message, /depends on "s9", which is not a step/);
  });

  it('a dependency cycle: at the "after" line of a step in it', () => {
    const doc = goodDocument().replace(/(## s1 · [^\n]*\n\n(?:- [^\n]*\n)*?)- after: none/, '$1- after: s3');
    const errors = errorsOf(doc);
    assert.ok(
      errors.some((e) => e.line === lineOf(doc, /^- after: s3$/) && /cycle/.test(e.message)),
      JSON.stringify(errors),
    );
  });

  it('an unknown field: at its line, listing the fields', () => {
    const doc = goodDocument().replace('- risk: low\n', '- risk: low\n- colour: red\n');
    const errors = errorsOf(doc);
    assert.deepEqual(errors[0], { line: lineOf(doc, /^- colour: red$/), message: errors[0]!.message });
    assert.match(errors[0]!.message, /unknown field "colour" \(fields: kind, required, after/);
  });

  it('a bad value: an unknown kind, a yes/no that is neither, a glob that leaves the workspace', () => {
    const bad = goodDocument().replace('- kind: edit', '- kind: banana').replace('- network: no', '- network: maybe');
    const shape = errorsOf(bad);
    assert.deepEqual(
      shape.map((e) => e.line),
      [lineOf(bad, /^- network: maybe$/)],
      'a line that does not read is reported first; the plan is validated once every line reads',
    );
    assert.match(shape[0]!.message, /network: expected yes or no/);
    const kind = goodDocument().replace('- kind: edit', '- kind: banana');
    const kindErrors = errorsOf(kind);
    assert.equal(kindErrors[0]!.line, lineOf(kind, /^- kind: banana$/));
    assert.match(kindErrors[0]!.message, /step "s1".*(edit|expected one of)/);
    const glob = goodDocument().replace('- edit: `src/s1/**`', '- edit: `../outside/**`');
    const globErrors = errorsOf(glob);
    assert.equal(globErrors[0]!.line, lineOf(glob, /^- edit: `\.\.\/outside/));
    assert.match(globErrors[0]!.message, /could leave the workspace/);
  });

  it('a broken evidence check: at its sub-item', () => {
    const doc = goodDocument().replace('  - command `npm test` exits 0', '  - command `npm test` finishes');
    const errors = errorsOf(doc);
    assert.equal(errors[0]!.line, lineOf(doc, /finishes$/));
    assert.match(errors[0]!.message, /command `npm test` exits 0/);
  });

  it('an evidence command the step may not run: at the check', () => {
    const doc = goodDocument().replace('  - command `npm test` exits 0', '  - command `rm -rf /` exits 0');
    const errors = errorsOf(doc);
    assert.equal(errors[0]!.line, lineOf(doc, /rm -rf/));
    assert.match(errors[0]!.message, /does not allow/);
  });

  it('no front matter, an unclosed one, an unknown key, a wrong format: at their lines', () => {
    assert.equal(errorsOf('# goal\n')[0]!.line, 1);
    assert.match(errorsOf('---\ntask: x\n# goal\n')[0]!.message, /not closed/);
    const unknown = goodDocument().replace('task: do the thing\n', 'task: do the thing\ncolour: red\n');
    assert.deepEqual(
      errorsOf(unknown).map((e) => e.line),
      [lineOf(unknown, /^colour: red$/)],
    );
    assert.match(errorsOf(unknown)[0]!.message, /unknown key "colour"/);
    const format = goodDocument().replace('plan-document@1', 'plan-document@9');
    assert.equal(errorsOf(format)[0]!.line, 2);
    const version = goodDocument().replace('version: 1', 'version: zero');
    assert.equal(errorsOf(version)[0]!.line, lineOf(version, /^version: zero$/));
  });

  it('text before the first step that the format does not hold: at its line', () => {
    const doc = goodDocument().replace('### Constraints', 'Some notes of mine.\n\n### Constraints');
    const errors = errorsOf(doc);
    assert.equal(errors[0]!.line, lineOf(doc, /^Some notes of mine/));
    assert.match(errors[0]!.message, /unexpected text before the first step/);
  });

  it('a heading without an id and title: at the heading, saying how to keep a "##" line as text', () => {
    const doc = goodDocument().replace('## s2 · step s2', '## just a heading');
    assert.equal(errorsOf(doc)[0]!.line, lineOf(doc, /^## just a heading$/));
    assert.match(errorsOf(doc)[0]!.message, /write it as "\\## …"/);
  });

  it('a field given twice, instructions given twice: at the second', () => {
    const twice = goodDocument().replace('- risk: low\n', '- risk: low\n- risk: high\n');
    assert.match(errorsOf(twice)[0]!.message, /"risk" appears twice/);
    const both = goodDocument().replace('- risk: low\n', '- risk: low\n- instructions: "other"\n');
    assert.match(errorsOf(both)[0]!.message, /instructions are given twice/);
  });

  it('reports every problem at once, in line order', () => {
    const doc = goodDocument().replace('- after: s1', '- after: s8').replace('## s3 · ', '## s1 · ');
    const errors = errorsOf(doc);
    assert.ok(errors.length >= 2, JSON.stringify(errors));
    assert.deepEqual(
      errors.map((e) => e.line),
      [...errors.map((e) => e.line)].sort((a, b) => a - b),
    );
  });
});

describe('plan document: what a person may leave out or change', () => {
  it('a deleted optional step section: the plan no longer holds the step', () => {
    const doc = goodDocument();
    const start = doc.indexOf('## s2 · ');
    const end = doc.indexOf('## s3 · ');
    const read = readPlanDocument(doc.slice(0, start) + doc.slice(end));
    assert.ok(read.ok, JSON.stringify(!read.ok && read.error));
    assert.deepEqual(
      read.value.plan.steps.map((s) => s.id),
      ['s1', 's3'],
    );
  });

  it('a field left out takes the schema default; a hand-written section without fields list reads its instructions', () => {
    const doc = goodDocument().replace('- why: the docs\n', '').replace('- risk: low\n', '');
    const read = readPlanDocument(doc);
    assert.ok(read.ok);
    assert.equal(read.value.plan.steps[2]!.why, '');
    assert.equal(read.value.plan.steps[0]!.risk, 'low');
  });

  it('an edited instruction and a narrowed glob are what the plan holds', () => {
    const doc = goodDocument().replace('Write it.', 'Write it in TypeScript.\n\n\\## not a step, just text').replace('`src/s1/**`', '`src/s1/only.ts`');
    const read = readPlanDocument(doc);
    assert.ok(read.ok, JSON.stringify(!read.ok && read.error));
    assert.equal(read.value.plan.steps[0]!.instructions, 'Write it in TypeScript.\n\n## not a step, just text');
    assert.deepEqual(read.value.plan.steps[0]!.authority.edit, ['src/s1/only.ts']);
  });
});
