import assert from 'node:assert/strict';
import { globMayOverlap, globSetsMayOverlap, globCovers, overlappingPairs } from '../../../src/core/plan/globs';

describe('edit-authority overlap', () => {
  const overlapping: [string, string][] = [
    ['src/**', 'src/a.ts'],
    ['src/a/**', 'src/**/*.ts'],
    ['**', 'docs/x.md'],
    ['src/a.ts', 'src/a.ts'],
    ['src/*.ts', 'src/b.ts'],
    ['src', 'src/a.ts'],
  ];
  const disjoint: [string, string][] = [
    ['src/a/**', 'src/b/**'],
    ['docs/x.md', 'docs/y.md'],
    ['test/**', 'src/*.ts'],
    ['src/a.ts', 'src/ab.ts'],
  ];
  for (const [a, b] of overlapping) it(`treats ${a} and ${b} as possibly overlapping`, () => assert.ok(globMayOverlap(a, b) && globMayOverlap(b, a)));
  for (const [a, b] of disjoint) it(`treats ${a} and ${b} as disjoint`, () => assert.ok(!globMayOverlap(a, b) && !globMayOverlap(b, a)));
  it('never reports empty sets as overlapping', () => assert.equal(globSetsMayOverlap([], ['**']), false));
  it('decides coverage only when provable', () => {
    assert.ok(globCovers('src/**', 'src/a/*.ts'));
    assert.ok(globCovers('src/*.ts', 'src/a.ts'));
    assert.ok(!globCovers('src/*.ts', 'src/**/*.ts'));
  });
});

describe('overlapping pairs', () => {
  it('finds exactly the pairs the pairwise rule finds', () => {
    const pool = [
      'src/**',
      'src/a.ts',
      'src/a',
      'src/ab.ts',
      'src/a/b.ts',
      'docs/*.md',
      'docs/x.md',
      '**',
      'test/**/*.ts',
      'test/unit/x.ts',
      '!src/x',
      'lib/a.ts',
    ];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const owners = Array.from({ length: 30 }, (_, i) => ({
      id: `o${i}`,
      globs: Array.from({ length: 1 + Math.floor(next() * 2) }, () => pool[Math.floor(next() * pool.length)]!),
    }));
    const fast = new Set(overlappingPairs(owners).map(([a, b]) => [a, b].sort().join('|')));
    const slow = new Set<string>();
    for (let i = 0; i < owners.length; i++)
      for (let j = i + 1; j < owners.length; j++) {
        if (globSetsMayOverlap(owners[i]!.globs, owners[j]!.globs)) slow.add([owners[i]!.id, owners[j]!.id].sort().join('|'));
      }
    assert.ok(slow.size > 10 && slow.size < 400, 'the sample has both overlapping and disjoint pairs');
    assert.deepEqual([...fast].sort(), [...slow].sort());
  });
});
