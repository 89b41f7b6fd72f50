/**
 * The scheme of the plan document VS Code shows for the current mission (`plan-execute-plan:/<mission>/plan.md`),
 * and the provider registered for it at activation. Activation stays light (no zod, no engine): the provider
 * registered there forwards to the host's (./planDocumentFs.ts), loaded the first time the editor reads or
 * saves such a document.
 */
import * as vscode from 'vscode';

export const PLAN_SCHEME = 'plan-execute-plan';

/** The current plan of `missionId`, as a document URI. */
export function planDocumentUri(missionId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: PLAN_SCHEME, path: `/${missionId}/plan.md` });
}

/** Forwards every call to the provider `load` returns, loaded on first use; its change events pass through. */
export class LazyFileSystem implements vscode.FileSystemProvider {
  readonly #changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.#changes.event;
  #target: vscode.FileSystemProvider | undefined;

  constructor(private readonly load: () => vscode.FileSystemProvider) {}

  private get target(): vscode.FileSystemProvider {
    if (!this.#target) {
      this.#target = this.load();
      this.#target.onDidChangeFile((events) => this.#changes.fire(events));
    }
    return this.#target;
  }

  watch(uri: vscode.Uri, options: { readonly recursive: boolean; readonly excludes: readonly string[] }): vscode.Disposable {
    return this.target.watch(uri, options);
  }
  stat(uri: vscode.Uri): vscode.FileStat | Thenable<vscode.FileStat> {
    return this.target.stat(uri);
  }
  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] | Thenable<[string, vscode.FileType][]> {
    return this.target.readDirectory(uri);
  }
  createDirectory(uri: vscode.Uri): void | Thenable<void> {
    return this.target.createDirectory(uri);
  }
  readFile(uri: vscode.Uri): Uint8Array | Thenable<Uint8Array> {
    return this.target.readFile(uri);
  }
  writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): void | Thenable<void> {
    return this.target.writeFile(uri, content, options);
  }
  delete(uri: vscode.Uri, options: { readonly recursive: boolean }): void | Thenable<void> {
    return this.target.delete(uri, options);
  }
  rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): void | Thenable<void> {
    return this.target.rename(oldUri, newUri, options);
  }

  dispose(): void {
    this.#changes.dispose();
  }
}
