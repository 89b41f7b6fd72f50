/**
 * "Plan & Execute: Choose Model": which role (every role, the planner, the verifier, an executor tier),
 * which provider, then a model from what that provider offers (modelListing.ts) or a name typed in. Writes the user settings
 * (planExecute.provider + planExecute.model for every role; planExecute.models.<role> otherwise, with
 * a `provider:` prefix when it differs from planExecute.provider).
 */
import * as vscode from 'vscode';
import { PROVIDER_IDS, type ProviderId } from '../../core/model/providers';
import type { ModelList } from './modelListing';
import { readProviderSettings } from './providerSettings';

type ModelTarget = 'all' | 'planner' | 'verifier' | 'light' | 'standard' | 'heavy';

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

/** Writes a choice to the user settings. */
async function applyModelChoice(target: ModelTarget, provider: ProviderId, model: string): Promise<void> {
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

/** `list` asks a provider for its models (modelListing.ts, loaded with the engine). */
export async function chooseModel(listFor: (provider: ProviderId) => Promise<ModelList>, options: { demo?: boolean } = {}): Promise<void> {
  // The demo says what answers there, and that another model leaves it (it needs that provider's key).
  const title = options.demo
    ? 'Plan & Execute (demo: a scripted model on this machine answers every role): choose the model for'
    : 'Plan & Execute: choose the model for';
  const target = await vscode.window.showQuickPick(
    TARGETS.map((t) => ({ ...t, description: undefined })),
    { title, ignoreFocusOut: true },
  );
  if (!target) return;
  const settings = readProviderSettings();
  const current = vscode.workspace.getConfiguration('planExecute').get<string>('provider', 'anthropic');
  const provider = await vscode.window.showQuickPick(
    PROVIDER_IDS.map((p) => ({ label: PROVIDER_NAMES[p], description: p === current ? 'current' : '', provider: p })),
    { title: `Plan & Execute: provider for ${target.label.toLowerCase()}`, ignoreFocusOut: true },
  );
  if (!provider) return;
  const list = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Plan & Execute: asking for the model list…' }, () =>
    listFor(provider.provider),
  );
  const typed = { label: '$(edit) Enter a model name…', ref: '' };
  const items = list.ok ? [...list.models, typed] : [typed];
  const picked = await vscode.window.showQuickPick(items, {
    title: `Plan & Execute: ${PROVIDER_NAMES[provider.provider]}`,
    placeHolder: list.ok ? 'Pick a model' : list.message,
    ignoreFocusOut: true,
    matchOnDescription: true,
  });
  if (!picked) return;
  const model =
    picked.ref ||
    (
      await vscode.window.showInputBox({
        title: 'Plan & Execute: model name',
        prompt: 'As the provider names it (e.g. gpt-4.1, qwen2.5-coder:7b)',
        ignoreFocusOut: true,
      })
    )?.trim();
  if (!model) return;
  await applyModelChoice(target.target, provider.provider, model);
  const after = readProviderSettings();
  if (!after.ok) void vscode.window.showWarningMessage(after.error);
  else
    void vscode.window.showInformationMessage(
      `Plan & Execute: ${target.label.toLowerCase()} now uses ${model} (${provider.provider}).${settings.ok ? '' : ' The settings are complete now.'}`,
    );
}
