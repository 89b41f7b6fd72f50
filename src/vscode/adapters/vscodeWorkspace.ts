/**
 * The Workspace port inside VS Code. Reads go to disk (through the Node adapter, with its path checks), so
 * the executor sees exactly what commands will see. Writes go through ONE `WorkspaceEdit` per batch:
 * existing text files are replaced as text edits (undoable with the editor's Undo, and open editors
 * update in place), new files are `createFile` with contents, deletions `deleteFile`; the touched
 * documents are then saved so commands run against the new content.
 *
 * A target open with unsaved changes is refused (the batch is not applied): overwriting the user's
 * unsaved work, or writing a file that differs from the one the approval's diff showed, would be wrong.
 * Note: undoing a batch that spans several files is a workspace-level undo; VS Code asks before it.
 */
import * as vscode from 'vscode';
import type { DirEntry, FileStat, FileWrite, GitJudgeOptions, GitMark, GitRecorded, PolicyFs, ScanOptions, ScanResult, Workspace } from '../../core/ports';
import { NodeWorkspace } from '../../node/nodeWorkspace';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Text for a document edit, or undefined when the bytes are not UTF-8 text (then the file is replaced whole). */
function asDocumentText(bytes: Uint8Array): string | undefined {
  try {
    // ignoreBOM: false strips a leading BOM; the document keeps its own encoding (utf8 or utf8bom) on save.
    return strictUtf8.decode(bytes);
  } catch {
    return undefined; // TypeError from the fatal decoder: not UTF-8
  }
}

export class VscodeWorkspace implements Workspace {
  readonly #disk: NodeWorkspace;

  constructor(root: string) {
    this.#disk = new NodeWorkspace(root);
  }

  /** Same as the Node adapter's `open`: recovers a journaled batch a crash interrupted. */
  static async open(root: string): Promise<VscodeWorkspace> {
    const ws = new VscodeWorkspace(root);
    await ws.#disk.recover();
    return ws;
  }

  get root(): string {
    return this.#disk.root;
  }

  /** The policy reads the same disk as the Node adapter: the extension host is a Node process. */
  get policyFs(): PolicyFs {
    return this.#disk.policyFs;
  }

  readFile(path: string): Promise<Uint8Array> {
    return this.#disk.readFile(path);
  }

  stat(path: string): Promise<FileStat | undefined> {
    return this.#disk.stat(path);
  }

  readDir(path: string): Promise<DirEntry[]> {
    return this.#disk.readDir(path);
  }

  scan(options: ScanOptions): Promise<ScanResult> {
    return this.#disk.scan(options);
  }

  /** What a command left outside its globs is removed on disk (the explorer follows the file watcher). */
  removeEntries(paths: string[], recursive?: boolean): Promise<string[]> {
    return this.#disk.removeEntries(paths, recursive);
  }

  gitMark(): Promise<GitMark | null> {
    return this.#disk.gitMark();
  }

  gitRecordedSince(mark: GitMark, options?: GitJudgeOptions): Promise<GitRecorded[]> {
    return this.#disk.gitRecordedSince(mark, options);
  }

  gitReset(mark: GitMark): Promise<string[]> {
    return this.#disk.gitReset(mark);
  }

  gitTrackedFiles(): Promise<string[] | null> {
    return this.#disk.gitTrackedFiles();
  }

  #uri(path: string): vscode.Uri {
    // Resolution and containment are checked by the Node adapter; reuse it rather than re-deriving paths.
    if (path.includes('\\') || path.split('/').includes('..') || path.startsWith('/')) throw new Error(`refused path ${JSON.stringify(path)}`);
    return vscode.Uri.joinPath(vscode.Uri.file(this.root), ...path.split('/').filter((s) => s && s !== '.'));
  }

  async applyWrites(writes: FileWrite[], label: string, options: { origin?: 'editor' | 'command' } = {}): Promise<void> {
    // What a command made is its bytes, modes and links: written as such (VS Code sees the files change on disk).
    if (options.origin === 'command') return this.#disk.applyWrites(writes, label, options);
    const edit = new vscode.WorkspaceEdit();
    const metadata: vscode.WorkspaceEditEntryMetadata = { label, needsConfirmation: false };
    const toSave: vscode.TextDocument[] = [];
    for (const write of writes) {
      const stat = await this.#disk.stat(write.path); // throws on a path the Node adapter refuses (symlink escapes, …)
      const uri = this.#uri(write.path);
      if (stat?.kind === 'directory') throw new Error(`${write.path} is a directory`);
      if (write.content === null) {
        if (stat) edit.deleteFile(uri, { ignoreIfNotExists: true }, metadata);
        continue;
      }
      const text = asDocumentText(write.content);
      if (!stat || text === undefined) {
        edit.createFile(uri, { overwrite: stat !== undefined, contents: write.content }, metadata);
        continue;
      }
      const doc = await vscode.workspace.openTextDocument(uri);
      if (doc.isDirty) throw new Error(`${write.path} has unsaved changes in the editor; save or revert them first`);
      const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
      edit.replace(uri, whole, text, metadata);
      toSave.push(doc);
    }
    const applied = await vscode.workspace.applyEdit(edit);
    if (!applied) throw new Error(`VS Code did not apply the edit "${label}"`);
    for (const doc of toSave) {
      if (!(await saveDocument(doc))) {
        throw new Error(
          `${vscode.workspace.asRelativePath(doc.uri)} could not be saved: VS Code refused the save ${SAVE_ATTEMPTS} times ` +
            '(the editor shows why, e.g. a conflict with the file on disk); the edit is in the editor, unsaved',
        );
      }
    }
  }
}

/** How often to ask VS Code to save, and how long to wait for a save already running before asking again. */
const SAVE_ATTEMPTS = 3;
const RUNNING_SAVE_WAIT_MS = 5_000;

/**
 * `TextDocument.save()` resolves false without saying why, and one reason is not a failure: VS Code
 * refuses a save while another save of the same document runs its will-save participants. Auto save (on
 * by default in VS Code for the Web) starts one a second after our edit; on a loaded machine our save
 * arrives while it runs. That save writes our edit too: wait for it to finish, then a clean document means
 * saved. A still-dirty one is asked again, a bounded number of times.
 */
async function saveDocument(doc: vscode.TextDocument): Promise<boolean> {
  for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt++) {
    // Listen before asking: the running save may finish before our refused one returns.
    const nextSave = onNextSave(doc, RUNNING_SAVE_WAIT_MS);
    try {
      if (await doc.save()) return true;
      if (!doc.isDirty) return true;
      await nextSave.done;
      if (!doc.isDirty) return true;
    } finally {
      nextSave.dispose();
    }
  }
  return false;
}

/** Resolves when `doc` is next saved (by anyone) or after `timeoutMs`, whichever comes first. */
function onNextSave(doc: vscode.TextDocument, timeoutMs: number): { done: Promise<void>; dispose(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let subscription: vscode.Disposable | undefined;
  const done = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
    subscription = vscode.workspace.onDidSaveTextDocument((saved) => {
      if (saved.uri.toString() === doc.uri.toString()) resolve();
    });
  });
  return {
    done,
    dispose: () => {
      clearTimeout(timer);
      subscription?.dispose();
    },
  };
}
