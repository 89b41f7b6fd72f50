/**
 * The current mission's plan as a document in the editor, where saving is the edit: reading gives the
 * latest version's plan document (src/core/plan/document/); writing reads the saved text back with the same
 * parser and validation and makes it the next plan version ("edited by you", with its diff).
 *
 * A saved text that does not read, or that the engine refuses (a widening while the plan runs, a document
 * made from an older version), changes nothing: each problem goes to the Problems panel at its line, and the
 * text is kept as this document's draft — what the editor reads back — so nothing the user typed is lost,
 * and auto save (on by default in a browser) never turns a half-typed edit into an error dialog. A save the
 * user asked for (Ctrl+S) also says so in a notification. Once a save reads and is accepted, the draft is
 * gone and the editor shows the new version as the writer renders it.
 *
 * The editor reloads a document only when its mtime moves past what it recorded after the save, so the new
 * version's mtime is bumped once the editor's own stat after the write has been answered (or after a second
 * when no stat comes). The change is announced again a few times after that: an announcement that reaches
 * the editor while it still finishes its save is ignored, and a later one reloads it. The mtime moves only
 * once, so an editor that already reloaded does nothing, and one with new typing keeps it.
 */
import * as vscode from 'vscode';
import type { PlanDocumentError } from '../../core/plan/document/meta';
import type { Result } from '../../core/contracts/result';
import { showPlanProblems } from './planDiagnostics';
import { PLAN_SCHEME, planDocumentUri } from './planScheme';
import type { Log } from '../log';

export interface PlanDocumentSource {
  /** The shown mission and its plan version (undefined: no mission, or no plan yet). Cheap: called on every change. */
  shown(): { missionId: string; version: number } | undefined;
  /** The shown mission's plan document, as the writer renders its latest version. */
  render(missionId: string): string | undefined;
  /** Makes the saved text the next plan version, or says what is wrong with it, by line. */
  save(missionId: string, text: string): Promise<Result<void, PlanDocumentError[]>>;
}

interface Entry {
  version: number;
  mtime: number;
  /** The user's saved text that did not become a version (shown until a save is accepted or the plan is reopened). */
  draft?: string;
  /** A save was accepted: the next stat is the editor's own after its write; bump the mtime after answering it. */
  reloadAfterStat?: boolean;
}

/** When an accepted save's new version is announced again (see the header). */
const REANNOUNCE_MS = [750, 2_500, 6_000];

const DOCUMENT_PATH = /^\/([^/]+)\/plan\.md$/;

export class PlanDocumentFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  readonly #changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.#changes.event;
  readonly #entries = new Map<string, Entry>();
  /** Why each document is being saved (onWillSaveTextDocument comes before the write). */
  readonly #reasons = new Map<string, vscode.TextDocumentSaveReason>();
  readonly #subscription: vscode.Disposable;

  constructor(
    private readonly source: PlanDocumentSource,
    private readonly problems: vscode.DiagnosticCollection,
    private readonly log: Log,
  ) {
    this.#subscription = vscode.workspace.onWillSaveTextDocument((e) => {
      if (e.document.uri.scheme === PLAN_SCHEME && DOCUMENT_PATH.test(e.document.uri.path)) this.#reasons.set(e.document.uri.toString(), e.reason);
    });
  }

  /** The plan may have changed: an open editor without a draft reads the new version. */
  planChanged(): void {
    const shown = this.source.shown();
    const entry = shown && this.#entries.get(shown.missionId);
    if (!shown || !entry || entry.version === shown.version || entry.draft !== undefined) return;
    // An accepted save whose new version the view reports only now: its own announcement (after the editor's
    // stat) shows it; moving the mtime here could come before that stat, and the editor would never reload.
    if (entry.reloadAfterStat) {
      entry.version = shown.version;
      return;
    }
    this.#entries.set(shown.missionId, { version: shown.version, mtime: Math.max(Date.now(), entry.mtime + 1) });
    this.#changes.fire([{ type: vscode.FileChangeType.Changed, uri: planDocumentUri(shown.missionId) }]);
  }

  /** Opening the plan again starts from its latest version: a draft of an older one is dropped. */
  reopen(missionId: string): void {
    const entry = this.#entries.get(missionId);
    if (entry?.draft === undefined) return;
    this.#entries.delete(missionId);
    this.problems.delete(planDocumentUri(missionId));
    this.#changes.fire([{ type: vscode.FileChangeType.Changed, uri: planDocumentUri(missionId) }]);
  }

  /** The entry of a shown mission's document (created at its first read). */
  #entry(uri: vscode.Uri): { missionId: string; entry: Entry } {
    const missionId = DOCUMENT_PATH.exec(uri.path)?.[1];
    const shown = this.source.shown();
    if (!missionId || !shown || shown.missionId !== missionId) throw vscode.FileSystemError.FileNotFound(uri);
    let entry = this.#entries.get(missionId);
    if (!entry) this.#entries.set(missionId, (entry = { version: shown.version, mtime: Date.now() }));
    return { missionId, entry };
  }

  #text(uri: vscode.Uri): string {
    const { missionId, entry } = this.#entry(uri);
    const text = entry.draft ?? this.source.render(missionId);
    if (text === undefined) throw vscode.FileSystemError.FileNotFound(uri);
    return text;
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    // The folders above a document exist (a save checks the parent before it writes).
    const folder = /^\/(?:([^/]+)\/?)?$/.exec(uri.path);
    if (folder && (folder[1] === undefined || folder[1] === this.source.shown()?.missionId)) {
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    }
    const { missionId, entry } = this.#entry(uri);
    const stat = { type: vscode.FileType.File, ctime: entry.mtime, mtime: entry.mtime, size: new TextEncoder().encode(this.#text(uri)).byteLength };
    if (entry.reloadAfterStat) setTimeout(() => this.#showNewVersion(missionId, entry), 0);
    return stat;
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return new TextEncoder().encode(this.#text(uri));
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const { missionId, entry } = this.#entry(uri);
    const reason = this.#reasons.get(uri.toString()) ?? vscode.TextDocumentSaveReason.Manual;
    this.#reasons.delete(uri.toString());
    const text = new TextDecoder().decode(content);
    const saved = await this.source.save(missionId, text);
    if (!saved.ok) {
      this.#entries.set(missionId, { version: entry.version, mtime: Math.max(Date.now(), entry.mtime + 1), draft: text });
      showPlanProblems(this.problems, uri, saved.error);
      const n = saved.error.length;
      const message = `The plan document has ${n} problem${n === 1 ? '' : 's'} (see Problems): the plan is unchanged. Your text is kept in the document until it reads.`;
      this.log.info(`plan document of mission ${missionId}: ${n} problem(s), first at line ${saved.error[0]?.line}: ${saved.error[0]?.message}`);
      if (reason === vscode.TextDocumentSaveReason.Manual) void vscode.window.showWarningMessage(message);
      return;
    }
    this.problems.delete(uri);
    const version = this.source.shown()?.version ?? entry.version;
    const accepted: Entry = { version, mtime: Math.max(Date.now(), entry.mtime + 1), reloadAfterStat: true };
    this.#entries.set(missionId, accepted);
    setTimeout(() => this.#showNewVersion(missionId, accepted), 1_000);
  }

  /** Once per accepted save: moves the mtime past the saved one and announces the change, then again later. */
  #showNewVersion(missionId: string, entry: Entry): void {
    if (!entry.reloadAfterStat) return;
    entry.reloadAfterStat = false;
    entry.mtime = Math.max(Date.now(), entry.mtime + 1);
    const announce = (): void => {
      // A newer entry (another save, a newer version) announces for itself.
      if (this.#entries.get(missionId) === entry) this.#changes.fire([{ type: vscode.FileChangeType.Changed, uri: planDocumentUri(missionId) }]);
    };
    announce();
    for (const ms of REANNOUNCE_MS) setTimeout(announce, ms);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const missionId = this.source.shown()?.missionId;
    if (!missionId) return [];
    if (uri.path === '/' || uri.path === '') return [[missionId, vscode.FileType.Directory]];
    return uri.path.replace(/\/$/, '') === `/${missionId}` ? [['plan.md', vscode.FileType.File]] : [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#changes.dispose();
  }
}
