/**
 * The hooks as this window sees them before a mission: the user's own `~/.claude/settings.json` (they run
 * as configured) and the project's files (repository code: they run only once the user trusted exactly
 * those commands). Trust is remembered per file and content hash in the workspace's state, so a changed
 * file asks again; in an untrusted workspace the project's hooks never run and cannot be trusted. The
 * files are read again when one changes, and at every mission start (what runs is what is on disk then).
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { realpathSync } from 'node:fs';
import type { HookFile, HookSet } from '../../core/contracts/hooks';
import { fingerprintOf, hookSetOf, trustKey, untrustedFiles } from '../../core/hooks/trust';
import { loadHookFiles } from '../../node/hooks/loadHooks';
import type { HooksView } from '../../webview/protocol';
import { VscodeWorkspace } from '../adapters/vscodeWorkspace';
import { errorText } from '../../core/primitives/errorText';

const TRUSTED_KEY = 'planExecute.trustedHooks';
const WATCHED = '{.claude/settings.json,.claude/settings.local.json,.codex/hooks.json,.github/hooks/*.json}';

export class HooksHost implements vscode.Disposable {
  #files: HookFile[] | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #watcher: vscode.FileSystemWatcher;

  constructor(
    private readonly state: vscode.Memento,
    private readonly changed: () => void,
    /** Whether the workspace is trusted (restricted mode: the project's hooks never run). */
    private readonly workspaceTrusted: () => boolean,
    private readonly log: (message: string) => void,
  ) {
    this.#watcher = vscode.workspace.createFileSystemWatcher(WATCHED);
    const soon = (): void => this.refreshSoon();
    this.#watcher.onDidCreate(soon);
    this.#watcher.onDidChange(soon);
    this.#watcher.onDidDelete(soon);
  }

  private trusted(file: HookFile): boolean {
    return this.workspaceTrusted() && this.state.get<string[]>(TRUSTED_KEY, []).includes(trustKey(file));
  }

  private async read(): Promise<HookFile[]> {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!root) return [];
    return loadHookFiles(new VscodeWorkspace(realpathSync(root)), homedir());
  }

  refreshSoon(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.refresh(), 300);
  }

  async refresh(): Promise<void> {
    try {
      this.#files = await this.read();
    } catch (error) {
      this.log(`the hook files could not be read: ${errorText(error)}`);
      this.#files = [];
    }
    this.changed();
  }

  /** The card: every file with hooks, whether each is trusted, and the fingerprint of the untrusted ones shown. */
  view(): HooksView | undefined {
    const files = (this.#files ?? []).filter((f) => f.hooks.length > 0 || f.notes.length > 0);
    if (files.length === 0) return undefined;
    const waiting = untrustedFiles(files, (f) => this.trusted(f));
    return {
      files: files.map((f) => ({
        source: f.source,
        origin: f.origin,
        trusted: f.origin === 'user' || this.trusted(f),
        hooks: f.hooks.map((h) => ({ event: h.event, matcher: h.matcher, command: h.command })),
        notes: f.notes,
      })),
      fingerprint: fingerprintOf(waiting),
      canTrust: this.workspaceTrusted(),
    };
  }

  /**
   * Trusts the project files the card showed — only if `fingerprint` still names exactly them (a file that
   * changed since is not trusted by a click on its old content). False when it does not, or nothing waits.
   */
  async trust(fingerprint: string): Promise<boolean> {
    if (!this.workspaceTrusted()) return false;
    this.#files = await this.read();
    const waiting = untrustedFiles(this.#files, (f) => this.trusted(f));
    if (waiting.length === 0 || fingerprintOf(waiting) !== fingerprint) {
      this.changed();
      return false;
    }
    const keys = new Set(this.state.get<string[]>(TRUSTED_KEY, []));
    for (const f of waiting) keys.add(trustKey(f));
    await this.state.update(TRUSTED_KEY, [...keys].sort());
    this.changed();
    return true;
  }

  /** The hooks a mission starting now runs (read from disk now): the user's, and the trusted project files'. */
  async missionSet(): Promise<HookSet | undefined> {
    this.#files = await this.read();
    this.changed();
    const set = hookSetOf(this.#files, (f) => this.trusted(f));
    return set.hooks.length === 0 && set.skipped.length === 0 && set.notes.length === 0 ? undefined : set;
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#watcher.dispose();
  }
}
