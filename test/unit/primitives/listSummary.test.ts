import { strict as assert } from 'node:assert';
import { NAMED_AT_MOST, summarise, summariseLines } from '../../../src/core/primitives/listSummary';

describe('primitives/listSummary', () => {
  it('names every item of a short list', () => {
    assert.equal(summarise(['a', 'b', 'c']), 'a, b, c');
    assert.equal(summarise(['a', 'b'], '; '), 'a; b');
  });

  it('names a few dozen items of a long one, then how many more and how many in all', () => {
    const paths = Array.from({ length: 16_000 }, (_, i) => `out/d${i}`);
    const said = summarise(paths);
    assert.equal(said.split(', ').length, NAMED_AT_MOST + 1);
    assert.match(said, /^out\/d0, out\/d1, [\s\S]*out\/d29, … and 15,970 more \(16,000 in all\)$/);
    assert.ok(said.length < 600, `a bounded result (${said.length} chars)`);
  });

  it('keeps at most a few dozen lines, the last one counting the rest', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `[sandbox: note ${i}]`);
    const kept = summariseLines(lines, (more) => `… ${more} more`);
    assert.equal(kept.length, NAMED_AT_MOST + 1);
    assert.equal(kept[kept.length - 1], '… 70 more');
    assert.deepEqual(
      summariseLines(['x'], () => 'never'),
      ['x'],
    );
  });
});
