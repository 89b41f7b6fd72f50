/**
 * Where this window keeps its missions: the workspace's extension storage (per folder), else the global
 * storage. The Store itself is src/node's file store.
 */
import * as vscode from 'vscode';
import type { Store } from '../../core/ports';

export function missionStoreDir(context: vscode.ExtensionContext): string {
  return vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'missions').fsPath;
}

/** Creates the store once, on first use. */
export function lazyStore(create: () => Promise<Store | undefined>): () => Promise<Store | undefined> {
  let pending: Promise<Store | undefined> | undefined;
  return () => (pending ??= create().catch(() => undefined));
}
