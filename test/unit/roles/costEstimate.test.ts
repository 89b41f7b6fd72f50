import assert from 'node:assert/strict';
import { estimatePlan, ESTIMATE_RULES } from '../../../src/core/roles/costEstimate';
import { resolveModelSettings } from '../../../src/core/model/modelSettings';
import { PlanSchema, type Plan } from '../../../src/core/contracts/plan';
import { plan, step } from '../../support/fixtures';

const onePlan = (overrides: Parameters<typeof step>[1] = {}): Plan => PlanSchema.parse(plan([step('s1', overrides)]));

describe('cost estimate before a plan runs', () => {
  it('prices each step on the model its tier routes to, and names that model', () => {
    const settings = resolveModelSettings();
    const light = estimatePlan(onePlan({ modelTier: 'light' }), settings).steps[0]!;
    const heavy = estimatePlan(onePlan({ modelTier: 'heavy' }), settings).steps[0]!;
    assert.deepEqual(light.models, ['claude-haiku-5-5']);
    assert.deepEqual(heavy.models, ['claude-opus-5-5']);
    assert.equal(light.tokens, heavy.tokens, 'the same step has the same size on any model');
    assert.ok(heavy.costUsd! > light.costUsd! * 10, `opus (${heavy.costUsd}) costs far more than haiku (${light.costUsd})`);
    const pinned = estimatePlan(onePlan({ modelTier: 'light' }), resolveModelSettings({ executor: { model: 'openai:gpt-4.1' } })).steps[0]!;
    assert.deepEqual(pinned.models, ['openai:gpt-4.1'], 'a pinned executor model wins over the tier, as the router resolves it');
  });

  it('grows with the effort and with the text the executor receives, by the stated rule', () => {
    const settings = resolveModelSettings();
    const small = estimatePlan(onePlan({ effort: 'small' }), settings).steps[0]!;
    const large = estimatePlan(onePlan({ effort: 'large' }), settings).steps[0]!;
    assert.ok(large.tokens > small.tokens * 3);
    // 400 more characters of instructions: 100 more tokens in every one of the step's executor calls.
    const longer = estimatePlan(onePlan({ effort: 'small', instructions: 'x'.repeat(400) }), settings).steps[0]!;
    assert.equal(longer.tokens - small.tokens, 100 * ESTIMATE_RULES.turns.small);
    // A dependency adds its result's 600 tokens to every call.
    const deps = PlanSchema.parse(plan([step('a'), step('b', { dependsOn: ['a'] })]));
    const [alone, withDep] = estimatePlan(deps, settings).steps;
    assert.equal(withDep!.tokens - alone!.tokens, ESTIMATE_RULES.tokensPerDependency * ESTIMATE_RULES.turns.small);
  });

  it('bills output and cached input at their own prices', () => {
    // Output alone priced: the money is exactly the output tokens (turns × output per turn) at $1 a token.
    const outputOnly = resolveModelSettings({ model: 'm', prices: { m: { input: 0, output: 1_000_000, cacheWrite: 0, cacheRead: 0 } } });
    const e = estimatePlan(onePlan({ effort: 'medium' }), outputOnly).steps[0]!;
    assert.equal(e.costUsd, ESTIMATE_RULES.turns.medium * ESTIMATE_RULES.output.medium);
    // Cache reads priced alone: every call after the first reads the previous call's whole prompt.
    const readsOnly = resolveModelSettings({ model: 'm', prices: { m: { input: 0, output: 0, cacheWrite: 0, cacheRead: 1_000_000 } } });
    const writesOnly = resolveModelSettings({ model: 'm', prices: { m: { input: 0, output: 0, cacheWrite: 1_000_000, cacheRead: 0 } } });
    const reads = estimatePlan(onePlan({ effort: 'small' }), readsOnly).steps[0]!.costUsd!;
    const writes = estimatePlan(onePlan({ effort: 'small' }), writesOnly).steps[0]!.costUsd!;
    const { turns, growth, output } = { turns: ESTIMATE_RULES.turns.small, growth: ESTIMATE_RULES.growth.small, output: ESTIMATE_RULES.output.small };
    const base = writes - (turns - 1) * growth;
    assert.equal(reads, (turns - 1) * base + (growth * (turns - 1) * (turns - 2)) / 2);
    assert.equal(e.tokens, estimatePlan(onePlan({ effort: 'medium' }), readsOnly).steps[0]!.tokens);
    assert.equal(estimatePlan(onePlan({ effort: 'small' }), readsOnly).steps[0]!.tokens, writes + reads + turns * output);
  });

  it("adds one verifier call per review check, on the verifier's model", () => {
    const settings = resolveModelSettings();
    const none = estimatePlan(onePlan(), settings).steps[0]!;
    const two = estimatePlan(
      onePlan({
        evidence: {
          checks: [
            { kind: 'command', command: 'npm test', expectExitCode: 0 },
            { kind: 'review', criterion: 'a' },
            { kind: 'review', criterion: 'b' },
          ],
        },
      }),
      settings,
    ).steps[0]!;
    assert.deepEqual(two.models, ['claude-sonnet-5-5'], 'executor and verifier both on sonnet by default: named once');
    assert.ok(two.tokens - none.tokens > 2 * ESTIMATE_RULES.reviewChanges.small);
  });

  it('says "unknown" for a model with no price, never a guess, and the whole plan is unknown then', () => {
    const settings = resolveModelSettings({ tiers: { heavy: 'my-gateway-model' } });
    const e = estimatePlan(PlanSchema.parse(plan([step('a', { modelTier: 'heavy' }), step('b', { modelTier: 'light' })])), settings);
    assert.equal(e.steps[0]!.pricing, 'unknown');
    assert.equal(e.steps[0]!.costUsd, null);
    assert.equal(e.steps[1]!.pricing, 'priced');
    assert.equal(e.pricing, 'unknown');
    assert.equal(e.costUsd, null);
    assert.equal(e.tokens, e.steps[0]!.tokens + e.steps[1]!.tokens);
  });

  it('costs nothing on a provider served on this machine', () => {
    const settings = resolveModelSettings({ provider: 'openai', model: 'qwen2.5-coder:7b' });
    const e = estimatePlan(onePlan(), settings, { localProviders: ['openai'] });
    assert.equal(e.pricing, 'local');
    assert.equal(e.costUsd, 0);
    assert.ok(e.tokens > 0);
  });
});
