/**
 * Serves checkpointed and proposed file contents from the mission store on a read-only custom scheme, and
 * opens VS Code's own diff editor between two of them. The path in the URI is only for the tab title and
 * the language mode; the content is addressed by the blob hash in the query (or empty when absent).
 */
import * as vscode from 'vscode';
import type { Store } from '../../core/ports';
import type { DiffPlacement } from './diffPlacement';

export const BLOB_SCHEME = 'plan-execute-blob';

function blobUri(path: string, hash: string | null, label: string): vscode.Uri {
  const query = new URLSearchParams({ hash: hash ?? '', label }).toString();
  return vscode.Uri.from({ scheme: BLOB_SCHEME, path: `/${path.replace(/^\/+/, '')}`, query });
}

export class BlobContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: () => Promise<Store | undefined>) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const hash = new URLSearchParams(uri.query).get('hash') ?? '';
    if (!hash) return '';
    const store = await this.store();
    if (!store) return '';
    const blob = await store.getBlob(hash);
    if (!blob) return `(content ${hash.slice(0, 12)} is not in the mission store)`;
    return new TextDecoder('utf-8').decode(blob);
  }
}

export interface DiffSides {
  path: string;
  beforeHash: string | null;
  afterHash: string | null;
  beforeLabel: string;
  afterLabel: string;
}

/** Closes every open tab of this diff (a decided proposal's diff has nothing left to review). */
export async function closeBlobDiff(sides: Pick<DiffSides, 'path' | 'afterHash' | 'afterLabel'>): Promise<void> {
  const right = blobUri(sides.path, sides.afterHash, sides.afterLabel).toString();
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === right);
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}

/** Where the diff opens (./diffPlacement.ts decides) and the position it starts on. */
export interface DiffView {
  /** Give the diff editor the keyboard (false: the surface that asked keeps it). */
  focus: boolean;
  placement: DiffPlacement;
  /** The first change (0-based line and character in the proposed text), revealed and selected. */
  reveal?: { line: number; character: number };
}

/** Opens the diff where `view.placement` says, on its first change. */
export async function openBlobDiff(sides: DiffSides, view: DiffView): Promise<void> {
  const left = blobUri(sides.path, sides.beforeHash, sides.beforeLabel);
  const right = blobUri(sides.path, sides.afterHash, sides.afterLabel);
  const title = `${sides.path} (${sides.beforeLabel} ↔ ${sides.afterLabel})`;
  const column = await columnFor(view.placement);
  const at = view.reveal ? new vscode.Position(view.reveal.line, view.reveal.character) : undefined;
  await vscode.commands.executeCommand('vscode.diff', left, right, title, {
    preview: true,
    preserveFocus: !view.focus,
    viewColumn: column,
    ...(at ? { selection: new vscode.Range(at, at) } : {}),
  } satisfies vscode.TextDocumentShowOptions);
}

async function columnFor(placement: DiffPlacement): Promise<vscode.ViewColumn> {
  switch (placement.kind) {
    case 'active':
      return vscode.ViewColumn.Active;
    case 'group':
      return placement.column as vscode.ViewColumn;
    case 'besideBoard':
      return vscode.ViewColumn.Two;
    case 'belowBoard':
      // Two groups stacked: the board keeps the top one and its whole width; the diff gets the bottom one.
      await vscode.commands.executeCommand('vscode.setEditorLayout', { orientation: 1, groups: [{ size: 0.5 }, { size: 0.5 }] });
      return vscode.ViewColumn.Two;
  }
}
