/**
 * The project's instruction files as this window lists them before a mission: found in the workspace
 * (the same discovery the engine records at mission start), refreshed when such a file changes, each with
 * a switch to leave it out of the next mission (kept in the workspace's state). A click opens a file — only
 * one this list holds, so a webview cannot open an arbitrary path.
 */
import * as vscode from 'vscode';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { InstructionSet } from '../../core/contracts/instructions';
import { discoverInstructions } from '../../core/instructions/discover';
import type { InstructionsView } from '../../webview/protocol';
import { VscodeWorkspace } from '../adapters/vscodeWorkspace';
import { instructionsView } from './instructionsView';
import { errorText } from '../../core/primitives/errorText';

const EXCLUDED_KEY = 'planExecute.instructionsExcluded';
const WATCHED =
  '{**/AGENTS.md,**/CLAUDE.md,.clinerules,.clinerules/**,.github/copilot-instructions.md,.github/instructions/*.instructions.md,.cursor/rules/*.mdc}';

export class InstructionsHost implements vscode.Disposable {
  #found: InstructionSet | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #watcher: vscode.FileSystemWatcher;

  constructor(
    private readonly state: vscode.Memento,
    private readonly changed: () => void,
  ) {
    this.#watcher = vscode.workspace.createFileSystemWatcher(WATCHED);
    const soon = (): void => this.refreshSoon();
    this.#watcher.onDidCreate(soon);
    this.#watcher.onDidChange(soon);
    this.#watcher.onDidDelete(soon);
  }

  private root(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  /** The files left out of the next mission. */
  excluded(): string[] {
    return this.state.get<string[]>(EXCLUDED_KEY, []);
  }

  /** The list for the next mission (undefined until the first look finished). */
  view(): InstructionsView | undefined {
    if (!this.#found) return undefined;
    const excluded = new Set(this.excluded());
    return instructionsView({ ...this.#found, files: this.#found.files.map((f) => ({ ...f, excluded: excluded.has(f.path) })) }, 'workspace');
  }

  refreshSoon(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.refresh(), 300);
  }

  async refresh(): Promise<void> {
    const root = this.root();
    if (!root) return;
    try {
      this.#found = await discoverInstructions(new VscodeWorkspace(realpathSync(root)));
    } catch (error) {
      // Any fault reading the workspace: the list says so, with why, where the user looks for it.
      this.#found = { files: [], notes: [`the instruction files could not be listed: ${errorText(error)}`] };
    }
    this.changed();
  }

  /** Uses or leaves out one listed file; false when the path is not one the list holds. */
  async setIncluded(path: string, included: boolean): Promise<boolean> {
    if (!this.#found?.files.some((f) => f.path === path)) return false;
    const excluded = new Set(this.excluded());
    if (included) excluded.delete(path);
    else excluded.add(path);
    await this.state.update(EXCLUDED_KEY, [...excluded].sort());
    this.changed();
    return true;
  }

  /** Opens a listed file (of this list, or of the shown mission's); false for any other path. */
  async open(path: string, listed: readonly string[]): Promise<boolean> {
    const root = this.root();
    const known = new Set([...(this.#found?.files.map((f) => f.path) ?? []), ...listed]);
    if (!root || !known.has(path)) return false;
    await vscode.window.showTextDocument(vscode.Uri.file(join(root, path)), { preview: true });
    return true;
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#watcher.dispose();
  }
}
