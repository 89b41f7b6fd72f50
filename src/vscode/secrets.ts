/**
 * API keys live in SecretStorage only: never in settings, logs or traces. One store per provider, each its
 * own secret entry; the environment's variable (ANTHROPIC_API_KEY, OPENAI_API_KEY) is honoured as a
 * fallback (headless test hosts), the same as the CLI does.
 */
import * as vscode from 'vscode';

export interface KeySpec {
  /** The SecretStorage entry. */
  secret: string;
  /** The environment variable used when no key is stored. */
  env: string;
  title: string;
  placeholder: string;
}

export const ANTHROPIC_KEY: KeySpec = {
  secret: 'planExecute.anthropicApiKey',
  env: 'ANTHROPIC_API_KEY',
  title: 'Plan & Execute: Anthropic API key',
  placeholder: 'sk-ant-…',
};
export const OPENAI_KEY: KeySpec = {
  secret: 'planExecute.openaiApiKey',
  env: 'OPENAI_API_KEY',
  title: 'Plan & Execute: OpenAI-compatible API key',
  placeholder: 'sk-… (none needed for a local server)',
};

export class ApiKeyStore implements vscode.Disposable {
  private cached: string | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly spec: KeySpec = ANTHROPIC_KEY,
  ) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key !== spec.secret) return;
      void this.load().then(() => this.emitter.fire());
    });
  }

  /** Reads the key once at start so `hasKey` is synchronous for snapshots. */
  async load(): Promise<void> {
    this.cached = (await this.secrets.get(this.spec.secret)) || undefined;
  }

  get(): string | undefined {
    return this.cached ?? (process.env[this.spec.env] || undefined);
  }

  get hasKey(): boolean {
    return this.get() !== undefined;
  }

  /** Asks for the key in a password box; an empty answer removes the stored key. */
  async prompt(): Promise<void> {
    const value = await vscode.window.showInputBox({
      title: this.spec.title,
      prompt: 'Stored in VS Code SecretStorage. Leave empty to remove the stored key.',
      password: true,
      ignoreFocusOut: true,
      placeHolder: this.spec.placeholder,
    });
    if (value === undefined) return;
    await this.set(value);
  }

  /** Stores (or, when empty, removes) the key in SecretStorage. */
  async set(value: string): Promise<void> {
    if (value.trim() === '') await this.secrets.delete(this.spec.secret);
    else await this.secrets.store(this.spec.secret, value.trim());
    await this.load();
    this.emitter.fire();
  }

  /** Replaces every occurrence of the key in text bound for a log (defence in depth). */
  redact(text: string): string {
    const key = this.get();
    return key && key.length >= 8 ? text.split(key).join('[redacted]') : text;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
