import { strict as assert } from 'node:assert';
import { layoutGraph } from '../../../src/webview/board/layout';

const steps = (spec: Record<string, string[]>) => Object.entries(spec).map(([id, dependsOn]) => ({ id, dependsOn }));

describe('mission board graph layout', () => {
  it('puts each step one wave below the deepest step it depends on, keeping the plan order within a wave', () => {
    const layout = layoutGraph(steps({ s1: [], s2: [], s3: ['s1'], s4: ['s3', 's2'], s5: ['s1'] }));
    assert.deepEqual(layout.waves, [['s1', 's2'], ['s3', 's5'], ['s4']]);
    assert.deepEqual(layout.edges, [
      { from: 's1', to: 's3' },
      { from: 's3', to: 's4' },
      { from: 's2', to: 's4' },
      { from: 's1', to: 's5' },
    ]);
  });

  it('lays out a 500-step chain listed last-first without running out of stack', () => {
    const chain = Array.from({ length: 500 }, (_, i) => ({ id: `s${500 - i}`, dependsOn: 500 - i > 1 ? [`s${499 - i}`] : [] }));
    const layout = layoutGraph(chain);
    assert.equal(layout.waves.length, 500);
    assert.deepEqual(layout.waves[0], ['s1']);
    assert.deepEqual(layout.waves[499], ['s500']);
  });

  it('ignores unknown dependencies and survives a cycle from a stale trace', () => {
    const layout = layoutGraph(steps({ a: ['ghost'], b: ['c'], c: ['b'], d: ['d'] }));
    assert.deepEqual(layout.waves.flat().sort(), ['a', 'b', 'c', 'd']);
    assert.deepEqual(layout.edges, [
      { from: 'c', to: 'b' },
      { from: 'b', to: 'c' },
    ]);
  });
});
