import assert from 'node:assert/strict';
import { describeCostSummary } from '../../../src/core/plan/describe';
import { describeEvent } from '../../../src/vscode/traceLog';
import type { CostSummary } from '../../../src/core/contracts/estimate';

/** A finished mission's cost: one step, the estimate priced as `pricing`, the calls all priced (at 0 for a local model). */
function summary(pricing: 'priced' | 'local' | 'unknown', unpricedCalls = 0): CostSummary {
  const costUsd = pricing === 'priced' ? 0.02 : pricing === 'local' ? 0 : null;
  return {
    version: 2,
    estimate: { tokens: 2_000, costUsd, pricing, steps: [{ stepId: 's1', tokens: 2_000, costUsd, pricing, models: ['m'] }] },
    actual: { tokens: 1_500, costUsd: pricing === 'priced' ? 0.015 : 0, unpricedCalls },
    planning: { tokens: 800, costUsd: pricing === 'priced' ? 0.01 : 0 },
    steps: [{ stepId: 's1', estimatedTokens: 2_000, estimatedUsd: costUsd, actualTokens: 1_500, actualUsd: pricing === 'priced' ? 0.015 : 0 }],
  };
}

describe('the cost report in words', () => {
  it('names dollars where the models are priced: estimate, spent, per step and planning', () => {
    const lines = describeCostSummary(summary('priced'));
    assert.match(lines[0]!, /2,000 tokens, \$0\.0200 → 1,500 tokens, \$0\.0150/);
    assert.match(lines[1]!, /s1: 2,000 tokens, \$0\.0200 → 1,500 tokens, \$0\.0150/);
    assert.match(lines[2]!, /planning \(not in the estimate\): 800 tokens, \$0\.0100/);
  });

  it('never shows a model on this machine as $0.0000: the estimate and what was spent say "no cost (local)"', () => {
    const lines = describeCostSummary(summary('local'));
    for (const line of lines) assert.doesNotMatch(line, /\$/, line);
    assert.match(lines[0]!, /no cost \(local\) → 1,500 tokens, no cost \(local\)/);
  });

  it('says "unknown price" for what was spent when a call had no known price, never a partial sum', () => {
    const lines = describeCostSummary(summary('unknown', 1));
    for (const line of lines) assert.doesNotMatch(line, /\$/, line);
    assert.match(lines[0]!, /1 call\(s\) at an unknown price/);
  });

  it("writes the trace log's cost line in the same words (no dollars for a local model)", () => {
    const local = describeEvent({ missionId: 'm', seq: 9, at: '2026-12-07T00:00:00.000Z', type: 'cost_summary', summary: summary('local') });
    assert.doesNotMatch(local, /\$/);
    assert.match(local, /plan v2/);
    assert.match(describeEvent({ missionId: 'm', seq: 9, at: '2026-12-07T00:00:00.000Z', type: 'cost_summary', summary: summary('priced') }), /\$0\.0150/);
  });
});
