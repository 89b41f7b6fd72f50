/**
 * "Plan & Execute: Choose Model": which role (every role, the planner, the verifier, an executor tier),
 * which provider, then a model from what that provider offers — the endpoint's `/v1/models`, VS Code's
 * `selectChatModels`, Anthropic's model list — or a name typed in. Writes the user settings
 * (planExecute.provider + planExecute.model for every role; planExecute.models.<role> otherwise, with
 * a `provider:` prefix when it differs from planExecute.provider).
 */
import * as vscode from 'vscode';
import Anthropic from '@anthropic-ai/sdk';
import { listOpenAIModels } from '../../core/model/openaiClient';
import { PROVIDER_IDS, type ProviderId } from '../../core/model/providers';
import type { ProviderKeys } from './providerKeys';
import { readProviderSettings } from './providerSettings';
import { listLmModels } from './vscodeLmClient';

export type ModelTarget = 'all' | 'planner' | 'verifier' | 'light' | 'standard' | 'heavy';

const TARGETS: { target: ModelTarget; label: string; detail: string }[] = [
  { target: 'all', label: 'Every role', detail: 'One provider and model for the planner, the verifier and every executor tier' },
  { target: 'planner', label: 'Planner', detail: 'Plans and replans (a strong model pays off here)' },
  { target: 'verifier', label: 'Verifier', detail: 'Reviews evidence, read-only' },
  { target: 'light', label: 'Executor, light tier', detail: 'Steps the planner marks light' },
  { target: 'standard', label: 'Executor, standard tier', detail: 'Steps the planner marks standard' },
  { target: 'heavy', label: 'Executor, heavy tier', detail: 'Steps the planner marks heavy' },
];

const PROVIDER_NAMES: Record<ProviderId, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI-compatible endpoint (OpenAI, Ollama, LM Studio, vLLM, a gateway)',
  'vscode-lm': "VS Code's language models (GitHub Copilot, other extensions)",
};

export type ModelList = { ok: true; models: { label: string; description?: string; ref: string }[] } | { ok: false; message: string };

/** What a provider offers, or why it cannot say. */
export async function listModels(provider: ProviderId, keys: ProviderKeys): Promise<ModelList> {
  const c = vscode.workspace.getConfiguration('planExecute');
  if (provider === 'vscode-lm') {
    const models = await listLmModels();
    return models.length > 0 ? { ok: true, models } : { ok: false, message: 'VS Code offers no language model: install and sign in to a provider such as GitHub Copilot Chat.' };
  }
  if (provider === 'openai') {
    const baseURL = c.get<string>('openai.baseUrl') || process.env.OPENAI_BASE_URL || undefined;
    const out = await listOpenAIModels({ ...(baseURL ? { baseURL } : {}), env: {}, ...(keys.openai.get() ? { apiKey: keys.openai.get()! } : {}) });
    return out.ok ? { ok: true, models: out.models.map((ref) => ({ label: ref, ref })) } : out;
  }
  const apiKey = keys.anthropic.get();
  if (!apiKey) return { ok: false, message: 'Set the Anthropic API key first to list its models.' };
  try {
    const baseURL = c.get<string>('baseUrl') || process.env.ANTHROPIC_BASE_URL || undefined;
    const sdk = new Anthropic({ apiKey, ...(baseURL ? { baseURL } : {}), maxRetries: 1, timeout: 15_000 });
    const models: { label: string; description?: string; ref: string }[] = [];
    for await (const m of sdk.models.list()) models.push({ label: m.id, description: m.display_name, ref: m.id });
    return { ok: true, models };
  } catch (error) {
    return { ok: false, message: `Could not list Anthropic's models: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Writes a choice to the user settings. */
export async function applyModelChoice(target: ModelTarget, provider: ProviderId, model: string): Promise<void> {
  const c = vscode.workspace.getConfiguration('planExecute');
  const global = vscode.ConfigurationTarget.Global;
  if (target === 'all') {
    await c.update('provider', provider, global);
    await c.update('model', model, global);
    return;
  }
  const current = c.get<string>('provider', 'anthropic');
  await c.update(`models.${target}`, provider === current ? model : `${provider}:${model}`, global);
}

export async function chooseModel(keys: ProviderKeys): Promise<void> {
  const target = await vscode.window.showQuickPick(TARGETS.map((t) => ({ ...t, description: undefined })), { title: 'Plan & Execute: choose the model for', ignoreFocusOut: true });
  if (!target) return;
  const settings = readProviderSettings();
  const current = vscode.workspace.getConfiguration('planExecute').get<string>('provider', 'anthropic');
  const provider = await vscode.window.showQuickPick(
    PROVIDER_IDS.map((p) => ({ label: PROVIDER_NAMES[p], description: p === current ? 'current' : '', provider: p })),
    { title: `Plan & Execute: provider for ${target.label.toLowerCase()}`, ignoreFocusOut: true },
  );
  if (!provider) return;
  const list = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Plan & Execute: asking for the model list…' }, () => listModels(provider.provider, keys));
  const typed = { label: '$(edit) Enter a model name…', ref: '' };
  const items = list.ok ? [...list.models, typed] : [typed];
  const picked = await vscode.window.showQuickPick(items, {
    title: `Plan & Execute: ${PROVIDER_NAMES[provider.provider]}`,
    placeHolder: list.ok ? 'Pick a model' : list.message,
    ignoreFocusOut: true,
    matchOnDescription: true,
  });
  if (!picked) return;
  const model = picked.ref || (await vscode.window.showInputBox({ title: 'Plan & Execute: model name', prompt: 'As the provider names it (e.g. gpt-4.1, qwen2.5-coder:7b)', ignoreFocusOut: true }))?.trim();
  if (!model) return;
  await applyModelChoice(target.target, provider.provider, model);
  const after = readProviderSettings();
  if (!after.ok) void vscode.window.showWarningMessage(after.message);
  else void vscode.window.showInformationMessage(`Plan & Execute: ${target.label.toLowerCase()} now uses ${model} (${provider.provider}).${settings.ok ? '' : ' The settings are complete now.'}`);
}
