import assert from 'node:assert/strict';
import { markdownSummary } from '../../../src/node/eval/summary';
import { modeTotals } from '../../../src/node/eval/totals';
import { metricsOfTrace } from '../../../src/node/eval/traceMetrics';
import { config, evalFile, result } from './builders';

const estimate = (estimatedTokens: number, estimatedUsd: number | null, actualTokens: number, actualUsd: number) => ({
  estimatedTokens,
  estimatedUsd,
  actualTokens,
  actualUsd,
});

describe('eval: actual against the estimate, per mode', () => {
  it('reads the estimate and the actual figures from the trace’s cost summary', () => {
    const event = {
      missionId: 'm',
      seq: 0,
      at: '2026-01-01T00:00:00.000Z',
      type: 'cost_summary',
      summary: {
        version: 1,
        estimate: { tokens: 1000, costUsd: 0.5, pricing: 'priced', steps: [] },
        actual: { tokens: 1500, costUsd: 0.6, unpricedCalls: 0 },
        planning: { tokens: 10, costUsd: 0.01 },
        steps: [],
      },
    };
    assert.deepEqual(metricsOfTrace(`${JSON.stringify(event)}\n`).estimate, estimate(1000, 0.5, 1500, 0.6));
    assert.equal(metricsOfTrace('').estimate, null);
  });

  it('sums over the runs that were estimated, then divides: tokens and money', () => {
    const runs = [
      result({ task: 'a', mode: 'planned', estimate: estimate(1000, 0.1, 2000, 0.3) }),
      result({ task: 'b', mode: 'planned', estimate: estimate(3000, 0.3, 2000, 0.1) }),
      result({ task: 'c', mode: 'planned' }),
      result({ task: 'a', mode: 'direct', estimate: estimate(500, null, 1000, 0.2) }),
    ];
    const planned = modeTotals(config(runs), 'planned').estimate;
    assert.equal(planned.runs, 2);
    assert.equal(planned.tokensRatio, 1);
    assert.ok(Math.abs(planned.costRatio! - 1) < 1e-9);
    const direct = modeTotals(config(runs), 'direct').estimate;
    assert.deepEqual(direct, { runs: 1, tokensRatio: 2, costRatio: null }, 'money unknown when a model had no price');
    const md = markdownSummary(evalFile([config(runs)]));
    assert.match(md, /\| actual ÷ estimate \(executors and verifiers\) \| 1\.00× tokens, 1\.00× money \(2 run\(s\)\) \| 2\.00× tokens \(1 run\(s\)\) \|/);
  });
});
