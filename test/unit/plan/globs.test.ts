import assert from 'node:assert/strict';
import { globMayOverlap, globSetsMayOverlap, globCovers } from '../../../src/core/plan/globs';

describe('edit-authority overlap', () => {
  const overlapping: [string, string][] = [
    ['src/**', 'src/a.ts'], ['src/a/**', 'src/**/*.ts'], ['**', 'docs/x.md'], ['src/a.ts', 'src/a.ts'], ['src/*.ts', 'src/b.ts'], ['src', 'src/a.ts'],
  ];
  const disjoint: [string, string][] = [['src/a/**', 'src/b/**'], ['docs/x.md', 'docs/y.md'], ['test/**', 'src/*.ts'], ['src/a.ts', 'src/ab.ts']];
  for (const [a, b] of overlapping) it(`treats ${a} and ${b} as possibly overlapping`, () => assert.ok(globMayOverlap(a, b) && globMayOverlap(b, a)));
  for (const [a, b] of disjoint) it(`treats ${a} and ${b} as disjoint`, () => assert.ok(!globMayOverlap(a, b) && !globMayOverlap(b, a)));
  it('never reports empty sets as overlapping', () => assert.equal(globSetsMayOverlap([], ['**']), false));
  it('decides coverage only when provable', () => {
    assert.ok(globCovers('src/**', 'src/a/*.ts'));
    assert.ok(globCovers('src/*.ts', 'src/a.ts'));
    assert.ok(!globCovers('src/*.ts', 'src/**/*.ts'));
  });
});
