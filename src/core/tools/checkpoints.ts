/**
 * Checkpoints, revert and diff over a step's FileChange records. Before the first write to a file in a
 * step its content goes to the content-addressed blob store, so `beforeHash` always names real bytes (or
 * null: the file did not exist). Revert and diff work at any later time from the records alone.
 *
 * Revert refuses, file by file, when the current content is no longer the step's `afterHash` (someone —
 * the user, a later step — changed it since): silently overwriting their work would be a wrong application.
 * It applies every restore in one all-or-nothing batch.
 */
import type { FileChange } from '../contracts/results';
import type { Store, Workspace } from '../ports';
import { sha256Hex } from '../primitives/hash';
import { unifiedDiff } from '../edits/lineDiff';
import { err, ok, type Result } from '../contracts/result';
import { whileWriting } from './workspaceLock';

/** Why a step's files were not restored, and which paths stood in the way. */
export type RestoreFailure = { reason: 'conflict' | 'missing_blob'; message: string; paths: string[] };
/** The paths restored. */
export type RevertResult = Result<string[], RestoreFailure>;

export interface FileDiff {
  path: string;
  change: FileChange['change'];
  before: string | null;
  after: string | null;
  /** Unified diff text ('' when nothing differs or either side is not text). */
  unified: string;
}

async function currentHash(workspace: Workspace, path: string): Promise<string | null> {
  const stat = await workspace.stat(path);
  if (!stat || stat.kind !== 'file') return null;
  return sha256Hex(await workspace.readFile(path));
}

/** Restores every file to its `beforeHash` content (deleting files the step created). */
export async function revertStep(
  workspace: Workspace,
  store: Store,
  files: readonly FileChange[],
  options: { force?: boolean; label?: string } = {},
): Promise<RevertResult> {
  const conflicts: string[] = [];
  const missing: string[] = [];
  const writes: { path: string; content: Uint8Array | null; mode?: number }[] = [];
  for (const f of files) {
    const now = await currentHash(workspace, f.path);
    if (now === f.beforeHash) continue; // already as before
    if (now !== f.afterHash && !options.force) {
      conflicts.push(f.path);
      continue;
    }
    if (f.beforeHash === null) {
      writes.push({ path: f.path, content: null });
      continue;
    }
    const blob = await store.getBlob(f.beforeHash);
    if (!blob || sha256Hex(blob) !== f.beforeHash) {
      missing.push(f.path);
      continue;
    }
    const stat = await workspace.stat(f.path);
    writes.push({ path: f.path, content: blob, ...(stat ? { mode: stat.mode } : {}) });
  }
  if (conflicts.length > 0) {
    return err({
      reason: 'conflict',
      message: `changed since the step wrote them (revert with force to overwrite): ${conflicts.join(', ')}`,
      paths: conflicts,
    });
  }
  if (missing.length > 0) {
    return err({ reason: 'missing_blob', message: `no checkpoint content for: ${missing.join(', ')}`, paths: missing });
  }
  if (writes.length > 0) await whileWriting(workspace.root, () => workspace.applyWrites(writes, options.label ?? 'Revert step'));
  return ok(writes.map((w) => w.path));
}

const decoder = new TextDecoder('utf-8', { fatal: true });

async function blobText(store: Store, hash: string | null): Promise<string | null | undefined> {
  if (hash === null) return null;
  const blob = await store.getBlob(hash);
  if (!blob) return undefined;
  try {
    return decoder.decode(blob);
  } catch {
    return undefined;
  }
}

/** Before/after text and a unified diff per changed file. */
export async function stepDiff(store: Store, files: readonly FileChange[]): Promise<FileDiff[]> {
  const out: FileDiff[] = [];
  for (const f of files) {
    const before = await blobText(store, f.beforeHash);
    const after = await blobText(store, f.afterHash);
    const text = before !== undefined && after !== undefined;
    out.push({
      path: f.path,
      change: f.change,
      before: before ?? null,
      after: after ?? null,
      unified: text ? unifiedDiff(f.path, before, after) : '',
    });
  }
  return out;
}
