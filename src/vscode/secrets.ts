/**
 * The Anthropic API key lives in SecretStorage only: never in settings, logs or traces. The environment's
 * ANTHROPIC_API_KEY is honoured as a fallback (headless test hosts), the same as the CLI does.
 */
import * as vscode from 'vscode';

const SECRET_KEY = 'planExecute.anthropicApiKey';

export class ApiKeyStore implements vscode.Disposable {
  private cached: string | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key !== SECRET_KEY) return;
      void this.load().then(() => this.emitter.fire());
    });
  }

  /** Reads the key once at start so `hasKey` is synchronous for snapshots. */
  async load(): Promise<void> {
    this.cached = (await this.secrets.get(SECRET_KEY)) || undefined;
  }

  get(): string | undefined {
    return this.cached ?? (process.env.ANTHROPIC_API_KEY || undefined);
  }

  get hasKey(): boolean {
    return this.get() !== undefined;
  }

  /** Asks for the key in a password box; an empty answer removes the stored key. */
  async prompt(): Promise<void> {
    const value = await vscode.window.showInputBox({
      title: 'Plan & Execute: Anthropic API key',
      prompt: 'Stored in VS Code SecretStorage. Leave empty to remove the stored key.',
      password: true,
      ignoreFocusOut: true,
      placeHolder: 'sk-ant-…',
    });
    if (value === undefined) return;
    await this.set(value);
  }

  /** Stores (or, when empty, removes) the key in SecretStorage. */
  async set(value: string): Promise<void> {
    if (value.trim() === '') await this.secrets.delete(SECRET_KEY);
    else await this.secrets.store(SECRET_KEY, value.trim());
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
