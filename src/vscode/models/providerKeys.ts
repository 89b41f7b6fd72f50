/**
 * The API keys of the providers that have one (Anthropic, the OpenAI-compatible endpoint), each in its
 * own SecretStorage entry. "Set API key" asks for the key the current settings are missing, else lets the
 * user pick which one to set. VS Code's own language models need no key (VS Code asks for consent).
 */
import * as vscode from 'vscode';
import { ANTHROPIC_KEY, ApiKeyStore, OPENAI_KEY } from '../secrets';
import type { ListingAccess } from './modelListing';
import { prepareModelSetup, providerMissingKey, type KeySources } from './modelSetup';

export type KeyedProvider = 'anthropic' | 'openai';

export class ProviderKeys implements vscode.Disposable, KeySources {
  readonly anthropic: ApiKeyStore;
  readonly openai: ApiKeyStore;
  readonly onDidChange: vscode.Event<void>;

  constructor(secrets: vscode.SecretStorage) {
    this.anthropic = new ApiKeyStore(secrets, ANTHROPIC_KEY);
    this.openai = new ApiKeyStore(secrets, OPENAI_KEY);
    this.onDidChange = (listener, thisArgs, disposables) => {
      const a = this.anthropic.onDidChange(listener, thisArgs);
      const b = this.openai.onDidChange(listener, thisArgs);
      const both = vscode.Disposable.from(a, b);
      disposables?.push(both);
      return both;
    };
  }

  async load(): Promise<void> {
    await Promise.all([this.anthropic.load(), this.openai.load()]);
  }

  /** False only when the configured providers need a key that is not set (settings problems are not key problems). */
  get ready(): boolean {
    return providerMissingKey(this) === undefined;
  }

  setup(): ReturnType<typeof prepareModelSetup> {
    return prepareModelSetup(this);
  }

  /** Keys and endpoints for listing models (the same the next mission would use). */
  listingAccess(): ListingAccess {
    const c = vscode.workspace.getConfiguration('planExecute');
    const anthropicBaseURL = c.get<string>('baseUrl') || process.env.ANTHROPIC_BASE_URL || undefined;
    const openaiBaseURL = c.get<string>('openai.baseUrl') || process.env.OPENAI_BASE_URL || undefined;
    return {
      anthropic: { ...(this.anthropic.get() ? { apiKey: this.anthropic.get() } : {}), ...(anthropicBaseURL ? { baseURL: anthropicBaseURL } : {}) },
      openai: { ...(this.openai.get() ? { apiKey: this.openai.get() } : {}), ...(openaiBaseURL ? { baseURL: openaiBaseURL } : {}) },
    };
  }

  redact(text: string): string {
    return this.openai.redact(this.anthropic.redact(text));
  }

  /** Asks for one provider's key; without one, the key the settings miss, else a choice. */
  async prompt(provider?: KeyedProvider): Promise<void> {
    const which = provider ?? providerMissingKey(this) ?? (await this.choose());
    if (which === 'anthropic') await this.anthropic.prompt();
    else if (which === 'openai') await this.openai.prompt();
  }

  private async choose(): Promise<KeyedProvider | undefined> {
    const picked = await vscode.window.showQuickPick(
      [
        { label: 'Anthropic', description: this.anthropic.hasKey ? 'key set' : 'no key', provider: 'anthropic' as const },
        {
          label: 'OpenAI-compatible endpoint',
          description: this.openai.hasKey ? 'key set' : 'no key (a local server needs none)',
          provider: 'openai' as const,
        },
      ],
      { title: 'Plan & Execute: set the API key of', ignoreFocusOut: true },
    );
    return picked?.provider;
  }

  dispose(): void {
    this.anthropic.dispose();
    this.openai.dispose();
  }
}
