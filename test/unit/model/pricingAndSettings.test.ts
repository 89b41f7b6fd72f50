import { strict as assert } from 'node:assert';
import { costOf, DEFAULT_PRICES, priceFor } from '../../../src/core/model/pricing';
import { acceptsTemperature, modelFor, nextTier, parseModelSettings, resolveModelSettings, withNextTier } from '../../../src/core/model/modelSettings';
import { parsedStep } from '../../support/fixtures';

describe('pricing', () => {
  it('prices input, output, cache writes and cache reads separately', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 1_000_000, cacheWriteTokens: 1_000_000 };
    const { costUsd, priced } = costOf('claude-sonnet-5-5', usage);
    assert.ok(priced);
    assert.equal(Number(costUsd.toFixed(6)), 2 + 10 + 2.5 + 0.2);
  });

  it('matches dated snapshots to their alias and uses the long-prompt band above its threshold', () => {
    assert.equal(priceFor('claude-haiku-4-5-20251001'), DEFAULT_PRICES['claude-haiku-4-5']);
    const small = costOf('claude-haiku-5-5', { inputTokens: 1000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }).costUsd;
    const large = costOf('claude-haiku-5-5', { inputTokens: 200_000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }).costUsd;
    assert.equal(Number((large / 200).toFixed(9)), Number((small * 5).toFixed(9)), 'five times the per-token price above 100k');
  });

  it('says when a model is not in the table instead of guessing', () => {
    assert.deepEqual(costOf('some-other-model', { inputTokens: 5, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }), { costUsd: 0, priced: false });
  });

  it('takes a configured table over the defaults', () => {
    const table = { 'claude-sonnet-5-5': { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 } };
    assert.equal(costOf('claude-sonnet-5-5', { inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, table).costUsd, 1);
  });
});

describe('model settings', () => {
  it('routes tiers to models and the executor by the step tier', () => {
    const s = resolveModelSettings({ tiers: { light: 'claude-haiku-4-5' } });
    assert.equal(modelFor(s, 'executor', 'light').model, 'claude-haiku-4-5');
    assert.equal(modelFor(s, 'executor', 'heavy').model, 'claude-opus-5-5');
    assert.equal(modelFor(s, 'planner').model, 'claude-opus-5-5');
  });

  it('sends temperature only to models that accept it, effort otherwise', () => {
    const s = resolveModelSettings({ tiers: { light: 'claude-haiku-4-5' } });
    assert.deepEqual(modelFor(s, 'executor', 'light'), { provider: 'anthropic', model: 'claude-haiku-4-5', temperature: 0, maxTokens: 8000 });
    assert.deepEqual(modelFor(s, 'planner'), { provider: 'anthropic', model: 'claude-opus-5-5', effort: 'high', maxTokens: 16000 });
    assert.equal(acceptsTemperature('claude-sonnet-4-5-20250929'), true);
    assert.equal(acceptsTemperature('claude-sonnet-5-5'), false);
    assert.equal(resolveModelSettings().planner.temperature, 0.4);
  });

  it('validates user settings and names what is wrong', () => {
    const good = parseModelSettings({ executor: { temperature: 0.1 }, prices: { 'my-model': { input: 1, output: 2, cacheWrite: 1.25, cacheRead: 0.1 } } });
    assert.ok(good.ok);
    assert.equal(good.value.executor.temperature, 0.1);
    assert.equal(good.value.executor.maxTokens, 8000);
    assert.ok(good.value.prices?.['my-model'] && good.value.prices['claude-sonnet-5-5']);
    const bad = parseModelSettings({ executor: { temperature: 3 }, tiers: { light: '' }, colour: 'blue' });
    assert.equal(bad.ok, false);
    assert.deepEqual(!bad.ok && bad.error.map((e) => e.path).sort(), ['', 'executor.temperature', 'tiers.light']);
  });

  it('lets a role pin a model regardless of tier', () => {
    const s = resolveModelSettings({ verifier: { model: 'claude-sonnet-4-5' } });
    assert.equal(modelFor(s, 'verifier', 'light').model, 'claude-sonnet-4-5');
  });

  it('offers a failed step one tier up, and nothing above heavy', () => {
    assert.equal(nextTier('light'), 'standard');
    const step = parsedStep('s1', { title: 't', authority: undefined, evidence: undefined, modelTier: 'standard' });
    assert.equal(withNextTier(step)?.modelTier, 'heavy');
    assert.equal(withNextTier({ ...step, modelTier: 'heavy' }), undefined);
  });
});
