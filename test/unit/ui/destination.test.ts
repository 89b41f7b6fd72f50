import assert from 'node:assert/strict';
import { parseModelSettings, providersInUse } from '../../../src/core/model/modelSettings';
import { plannerDestination } from '../../../src/vscode/models/destination';
import type { ProviderSettings } from '../../../src/vscode/models/providerSettings';

function settings(models: Record<string, unknown>, urls: { anthropic?: string; openai?: string } = {}): ProviderSettings {
  const parsed = parseModelSettings(models);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  return {
    models,
    resolved: parsed.value,
    providers: providersInUse(parsed.value),
    anthropicBaseURL: urls.anthropic,
    openaiBaseURL: urls.openai ?? 'https://api.openai.com/v1',
  };
}

describe('planning destination (shown when planning starts)', () => {
  it('names the default Anthropic endpoint as the default, so a base URL that did not apply is visible', () => {
    const text = plannerDestination(settings({ provider: 'anthropic', model: 'claude-x' }));
    assert.match(text, /^claude-x at api\.anthropic\.com \(the default: planExecute\.baseUrl is empty/);
  });

  it("names the configured host and path of the planner's provider", () => {
    assert.equal(
      plannerDestination(settings({ provider: 'anthropic', model: 'claude-x' }, { anthropic: 'https://gateway.corp.example/anthropic' })),
      'claude-x at gateway.corp.example/anthropic',
    );
    assert.equal(
      plannerDestination(settings({ provider: 'openai', model: 'llama3' }, { openai: 'http://localhost:11434/v1' })),
      'llama3 at localhost:11434/v1',
    );
  });

  it('follows the planner when roles mix providers', () => {
    const mixed = settings(
      { provider: 'openai', model: 'qwen', planner: { model: 'anthropic:claude-big' }, replanner: { model: 'anthropic:claude-big' } },
      { openai: 'http://127.0.0.1:1234/v1' },
    );
    assert.match(plannerDestination(mixed), /^claude-big at api\.anthropic\.com/);
  });
});
