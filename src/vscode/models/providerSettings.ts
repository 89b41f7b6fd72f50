/**
 * The provider settings (planExecute.provider, .model, .models.*, .openai.baseUrl, .baseUrl, .prices),
 * read when a mission starts and validated: a typo names the setting instead of failing three steps
 * later. `planExecute.provider` + `planExecute.model` alone are enough; the per-role and per-tier models
 * override them, and may name another provider (`anthropic:claude-opus-5-5`).
 */
import * as vscode from 'vscode';
import { parseModelSettings, providersInUse, routingProblems, type DeepPartialSettings, type ModelSettings } from '../../core/model/modelSettings';
import { OPENAI_DEFAULT_BASE_URL } from '../../core/model/providers';
import type { ProviderId } from '../../core/model/providers';
import { err, ok, type Result } from '../../core/contracts/result';

export interface ProviderSettings {
  /** What the roles are built with (and what the trace records). */
  models: DeepPartialSettings;
  resolved: ModelSettings;
  /** Providers some role or tier uses. */
  providers: ProviderId[];
  anthropicBaseURL: string | undefined;
  openaiBaseURL: string;
}

/** The settings, or what is wrong with them (a message naming the setting). */
export type SettingsRead = Result<ProviderSettings, string>;

const section = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('planExecute');

/** Setting keys, by the model-settings path they fill (for messages that name the setting). */
const ROLE_SETTINGS = {
  planner: 'models.planner',
  verifier: 'models.verifier',
  light: 'models.light',
  standard: 'models.standard',
  heavy: 'models.heavy',
} as const;

export function readProviderSettings(env: NodeJS.ProcessEnv = process.env): SettingsRead {
  const c = section();
  const text = (key: string): string | undefined => {
    const v = c.get<unknown>(key);
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  };
  const role = (key: string): { model: string } | undefined => {
    const model = text(key);
    return model ? { model } : undefined;
  };
  const planner = role(ROLE_SETTINGS.planner);
  const verifier = role(ROLE_SETTINGS.verifier);
  const tiers = Object.fromEntries((['light', 'standard', 'heavy'] as const).flatMap((t) => (text(ROLE_SETTINGS[t]) ? [[t, text(ROLE_SETTINGS[t])!]] : [])));
  const prices = c.get<unknown>('prices');
  const models: Record<string, unknown> = {
    provider: c.get<string>('provider', 'anthropic'),
    ...(text('model') ? { model: text('model') } : {}),
    ...(planner ? { planner, replanner: planner } : {}),
    ...(verifier ? { verifier } : {}),
    ...(Object.keys(tiers).length > 0 ? { tiers } : {}),
    ...(prices && typeof prices === 'object' && Object.keys(prices).length > 0 ? { prices } : {}),
  };
  const parsed = parseModelSettings(models);
  if (!parsed.ok) {
    return err(`Check the Plan & Execute model settings: ${parsed.error.map((e) => `planExecute.${settingOf(e.path)}: ${e.message}`).join('; ')}.`);
  }
  const problems = routingProblems(parsed.value);
  if (problems.length > 0) {
    return err(`Choose a model first (${problems.join('; ')}): set planExecute.model, or run "Plan & Execute: Choose Model".`);
  }
  const openaiBaseURL = (text('openai.baseUrl') ?? env.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  if (!URL.canParse(openaiBaseURL)) return err(`planExecute.openai.baseUrl is not a URL: "${openaiBaseURL}".`);
  return ok({
    models: models as DeepPartialSettings,
    resolved: parsed.value,
    providers: providersInUse(parsed.value),
    anthropicBaseURL: text('baseUrl') ?? env.ANTHROPIC_BASE_URL ?? undefined,
    openaiBaseURL,
  });
}

function settingOf(path: string): string {
  if (path.startsWith('tiers.')) return `models.${path.slice('tiers.'.length)}`;
  if (/^(planner|replanner|verifier)\.model$/.test(path)) return `models.${path.split('.')[0] === 'replanner' ? 'planner' : path.split('.')[0]}`;
  return path || 'provider';
}

/** OpenAI's own API needs a key; local servers and most gateways run without one. */
export function openaiNeedsKey(baseURL: string): boolean {
  try {
    return /(^|\.)openai\.com$/.test(new URL(baseURL).hostname) || /\.openai\.azure\.com$/.test(new URL(baseURL).hostname);
  } catch {
    return false; // TypeError: not a URL (the settings check says so on its own)
  }
}
