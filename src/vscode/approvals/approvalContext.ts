/**
 * What the approval cards show beyond the request itself: the step's title and reason (from the mission the
 * surfaces show), the absolute directory a command runs in, and the size of a proposed edit in lines.
 */
import * as vscode from 'vscode';
import { resolve } from 'node:path';
import { diffLines, splitLines } from '../../core/edits/lineDiff';
import type { Store } from '../../core/ports';
import type { SurfaceModel } from '../surfaces/surfaceModel';
import type { ApprovalContext } from './vscodeApprover';

/** Files above this size are not diffed for the card (the diff editor still shows them). */
const MAX_SIZED_BYTES = 2 * 1024 * 1024;

/** A blob as text: '' for no blob, null when it is not text, undefined when it is missing or too big. */
export async function blobText(store: Store, hash: string | null): Promise<string | null | undefined> {
  if (hash === null) return '';
  const blob = await store.getBlob(hash);
  if (!blob || blob.byteLength > MAX_SIZED_BYTES) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(blob);
  } catch {
    return null; // not text
  }
}

export function approvalContext(model: SurfaceModel, store: () => Promise<Store | undefined>): ApprovalContext {
  return {
    step: (stepId) => {
      const def = model.coreView?.steps[stepId]?.definition;
      return def ? { title: def.title, why: def.why } : undefined;
    },
    absoluteCwd: (cwd) => {
      const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      return root ? resolve(root, cwd) : cwd;
    },
    lineCount: async (beforeHash, afterHash) => {
      const s = await store();
      if (!s) return null;
      const [before, after] = await Promise.all([blobText(s, beforeHash), blobText(s, afterHash)]);
      if (typeof before !== 'string' || typeof after !== 'string') return null;
      let added = 0;
      let removed = 0;
      for (const op of diffLines(splitLines(before), splitLines(after))) {
        if (op.op === 'insert') added += 1;
        else if (op.op === 'delete') removed += 1;
      }
      return { added, removed };
    },
    now: () => Date.now(),
  };
}
