/**
 * The Workspace port on the local file system. Paths are workspace-relative and re-checked here (syntax and
 * realpath containment) even though the policy already checked them: an adapter must not be the hole.
 *
 * applyWrites is all-or-nothing, including across a crash:
 *   1. prepare — every new content goes to a temp file next to its target (same file system, so rename is
 *      atomic), mode set, fsynced; parent directories created as needed;
 *   2. journal — the plan (target, temp, backup, existed) is written and fsynced;
 *   3. commit  — each existing target is renamed to a backup, each temp renamed onto its target;
 *      any failure rolls every finished rename back;
 *   4. the journal is marked committed, then backups are removed and the journal deleted.
 * `recover()` (run on construction by `NodeWorkspace.open`) rolls an uncommitted journal back and a
 * committed one forward, so a crash at any point leaves all old or all new content, never a mix.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as fsSync from 'node:fs';
import * as nodePath from 'node:path';
import type { DirEntry, FileStat, FileWrite, GitJudgeOptions, GitMark, GitRecorded, ScanOptions, ScanResult, Workspace } from '../core/ports';
import { nodePolicyFs } from './nodePolicyFs';
import { resolveWorkspacePath } from '../core/policy/workspacePath';
import { scanWorkspace } from './workspaceScan';
import { gitRecordedSince, gitTrackedFiles, markGitRecord, resetGitRecord } from './gitRecord';
import { HOST_PATH, hostTool, removeTree } from './sandbox/hostTools';
import { ensureStoreFolder, STORE_FOLDER } from './storeFolder';
import { errorText } from '../core/primitives/errorText';
import { isBelowNative } from '../core/primitives/paths';
import { mapLimit } from '../core/primitives/mapLimit';
import { whenMissing } from './fsErrors';

interface JournalEntry {
  target: string;
  temp: string | null;
  backup: string;
  existed: boolean;
}

interface Journal {
  label: string;
  committed: boolean;
  entries: JournalEntry[];
}

export interface NodeWorkspaceOptions {
  /** Where write journals live (default `<root>/.plan-execute/journal`). */
  journalDir?: string;
}

function kindOf(s: fsSync.Stats): FileStat['kind'] {
  return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : s.isSymbolicLink() ? 'symlink' : 'other';
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch (error) {
    return whenMissing(error, false);
  }
}

async function writeDurable(path: string, data: Uint8Array | string, mode?: number, sync = true): Promise<void> {
  const handle = await fs.open(path, 'wx', mode ?? 0o644);
  try {
    await handle.writeFile(data);
    if (mode !== undefined) await handle.chmod(mode);
    if (sync) await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A batch this large is made durable with one flush of its file system rather than a flush per file. */
const SYNC_FS_FROM = 8;

/**
 * Makes the batch's temp files durable before the journal names them: one `syncfs` of the workspace's file
 * system (coreutils `sync -f`, by absolute path) for a large batch — a flush per file costs milliseconds
 * each on a journaling file system — else, or when that fails, a flush per file.
 */
async function makeDurable(root: string, temps: readonly string[]): Promise<void> {
  const sync = process.platform === 'linux' && temps.length >= SYNC_FS_FROM ? hostTool('sync') : undefined;
  if (sync !== undefined) {
    const flushed = await new Promise<boolean>((resolve) =>
      execFile(sync, ['-f', root], { timeout: 120_000, env: { PATH: HOST_PATH } }, (error) => resolve(error === null)),
    );
    if (flushed) return;
  }
  for (const temp of temps) {
    const handle = await fs.open(temp, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

/** True when every entry's backup/temp are the names applyWrites derives from the target and the tag. */
function journalShaped(fileName: string, journal: Journal): boolean {
  const tag = /^([A-Za-z0-9]+)\.json$/.exec(fileName)?.[1];
  if (!tag || !Array.isArray(journal.entries)) return false;
  return journal.entries.every((e) => {
    if (typeof e.target !== 'string' || typeof e.backup !== 'string' || (e.temp !== null && typeof e.temp !== 'string')) return false;
    const beside = (suffix: string): string => nodePath.join(nodePath.dirname(e.target), `.${nodePath.basename(e.target)}.pe-${tag}.${suffix}`);
    return e.backup === beside('bak') && (e.temp === null || e.temp === beside('tmp'));
  });
}

/**
 * A file replaced through a temp file keeps its owner and group, as an in-place write would (a group-writable
 * file of a teammate's stays theirs): root can give it back; another user keeps at least the group when
 * they are in it, and otherwise the file becomes theirs, as any editor's atomic save makes it.
 */
async function keepOwner(temp: string, prior: fsSync.Stats): Promise<void> {
  if (process.platform === 'win32' || (prior.uid === process.getuid?.() && prior.gid === process.getgid?.())) return;
  await fs.chown(temp, prior.uid, prior.gid).catch(() => fs.chown(temp, -1, prior.gid).catch(() => undefined));
}

/** Temp files a batch prepares at once. */
const PREPARE_AT_ONCE = 16;

/** One write of a batch, prepared: a folder made, or a temp file (or link) beside its target; its journal entry. */
async function prepareWrite(write: FileWrite, abs: string, tag: string): Promise<{ entry?: JournalEntry; fileTemp?: string }> {
  const prior = await fs.lstat(abs).catch(() => undefined);
  if (write.directory) {
    if (prior && !prior.isDirectory()) throw new Error(`${write.path} is not a folder`);
    await fs.mkdir(abs, { recursive: true });
    if (write.mode !== undefined) await fs.chmod(abs, write.mode & 0o777);
    return {};
  }
  if (prior?.isDirectory()) throw new Error(`${write.path} is a directory`);
  const dir = nodePath.dirname(abs);
  const base = nodePath.basename(abs);
  const backup = nodePath.join(dir, `.${base}.pe-${tag}.bak`);
  const temp = nodePath.join(dir, `.${base}.pe-${tag}.tmp`);
  if (write.link !== undefined) {
    await fs.mkdir(dir, { recursive: true });
    await fs.symlink(write.link, temp);
    return { entry: { target: abs, temp, backup, existed: prior !== undefined } };
  }
  if (write.content !== null) {
    await fs.mkdir(dir, { recursive: true });
    const mode = write.mode ?? (prior && !prior.isSymbolicLink() ? prior.mode & 0o7777 : 0o644);
    try {
      await writeDurable(temp, write.content, mode, false);
      if (prior && !prior.isSymbolicLink()) await keepOwner(temp, prior);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
    return { entry: { target: abs, temp, backup, existed: prior !== undefined }, fileTemp: temp };
  }
  return prior ? { entry: { target: abs, temp: null, backup, existed: true } } : {};
}

export class NodeWorkspace implements Workspace {
  readonly root: string;
  readonly policyFs = nodePolicyFs;
  readonly #journalDir: string;

  constructor(root: string, options: NodeWorkspaceOptions = {}) {
    this.root = fsSync.realpathSync.native(nodePath.resolve(root));
    this.#journalDir = options.journalDir ?? nodePath.join(this.root, '.plan-execute', 'journal');
  }

  /** Constructs and recovers any write batch a crash interrupted. */
  static async open(root: string, options: NodeWorkspaceOptions = {}): Promise<NodeWorkspace> {
    const ws = new NodeWorkspace(root, options);
    await ws.recover();
    return ws;
  }

  #abs(rel: string): string {
    const r = resolveWorkspacePath(this.root, rel, nodePolicyFs);
    if (!r.ok) throw new Error(`refused path ${JSON.stringify(rel)}: ${r.error.reason} (${r.error.rule})`);
    return r.value.abs;
  }

  async readFile(path: string): Promise<Uint8Array> {
    return new Uint8Array(await fs.readFile(this.#abs(path)));
  }

  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const s = await fs.lstat(this.#abs(path));
      return { kind: kindOf(s), size: s.size, mode: s.mode & 0o7777 };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
      throw err;
    }
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const entries = await fs.readdir(this.#abs(path), { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, kind: e.isFile() ? 'file' : e.isDirectory() ? 'directory' : e.isSymbolicLink() ? 'symlink' : 'other' }));
  }

  async scan(options: ScanOptions): Promise<ScanResult> {
    return scanWorkspace(this.root, options);
  }

  async removeEntries(paths: string[], recursive = false): Promise<string[]> {
    const failures: string[] = [];
    const deepestFirst = [...new Set(paths)].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? 1 : -1));
    for (const rel of deepestFirst) {
      // Names from our own scan: any name a command can make (control or invisible characters, a leading
      // `~`) must be removable, so only the shape is checked here — relative, no `..`, no empty segment.
      const segments = rel.split('/');
      if (rel === '' || rel === '.' || rel.startsWith('/') || rel.includes('\0') || segments.some((s) => s === '' || s === '.' || s === '..')) {
        failures.push(`${rel} (not a workspace path)`);
        continue;
      }
      const syntax = { rel };
      const abs = nodePath.join(this.root, ...syntax.rel.split('/'));
      const parent = nodePath.dirname(abs);
      try {
        // The parent must be a real directory at its own place inside the workspace: no link on the way.
        if (fsSync.realpathSync.native(parent) !== parent) throw new Error('a symbolic link is on its path');
        const s = fsSync.lstatSync(abs);
        if (s.isDirectory() && recursive) removeTree(abs);
        else if (s.isDirectory()) fsSync.rmdirSync(abs);
        else fsSync.unlinkSync(abs);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') continue;
        failures.push(`${rel} (${code === 'ENOTEMPTY' ? 'not empty' : errorText(error)})`);
      }
    }
    return failures;
  }

  async gitMark(): Promise<GitMark | null> {
    return markGitRecord(this.root);
  }

  async gitRecordedSince(mark: GitMark, options?: GitJudgeOptions): Promise<GitRecorded[]> {
    return gitRecordedSince(this.root, mark, undefined, options);
  }

  async gitReset(mark: GitMark): Promise<string[]> {
    return resetGitRecord(this.root, mark);
  }

  async gitTrackedFiles(): Promise<string[] | null> {
    return gitTrackedFiles(this.root);
  }

  async applyWrites(writes: FileWrite[], label: string, _options: { origin?: 'editor' | 'command' } = {}): Promise<void> {
    const seen = new Set<string>();
    const plans: { write: FileWrite; abs: string }[] = [];
    for (const write of writes) {
      const abs = this.#abs(write.path);
      if (abs === this.root) throw new Error('the workspace root cannot be written');
      if (seen.has(abs)) throw new Error(`${write.path} appears twice in one batch`);
      seen.add(abs);
      plans.push({ write, abs });
    }
    const tag = randomBytes(6).toString('hex');
    // Each write's temp file is prepared on its own (several at once: a batch of a thousand files is a
    // thousand small writes), then the journal takes them in the batch's order.
    const prepared: ({ entry?: JournalEntry; fileTemp?: string } | Error)[] = await mapLimit(plans, PREPARE_AT_ONCE, async ({ write, abs }) => {
      try {
        return await prepareWrite(write, abs, tag);
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      }
    });
    const entries = prepared.flatMap((p) => (p instanceof Error || p.entry === undefined ? [] : [p.entry]));
    const fileTemps = prepared.flatMap((p) => (p instanceof Error || p.fileTemp === undefined ? [] : [p.fileTemp]));
    const failed = prepared.find((p): p is Error => p instanceof Error);
    if (failed) {
      await Promise.all(entries.flatMap((e) => (e.temp ? [fs.rm(e.temp, { force: true })] : [])));
      throw failed;
    }
    if (entries.length === 0) return;
    await makeDurable(this.root, fileTemps);

    if (isBelowNative(this.#journalDir, nodePath.join(this.root, STORE_FOLDER))) ensureStoreFolder(this.root);
    await fs.mkdir(this.#journalDir, { recursive: true });
    const journalPath = nodePath.join(this.#journalDir, `${tag}.json`);
    await this.#writeJournal(journalPath, { label, committed: false, entries });
    try {
      // Renames in one go, without a trip through the thread pool each: a thousand files are two thousand renames.
      for (const e of entries) {
        if (e.existed) fsSync.renameSync(e.target, e.backup);
        if (e.temp) fsSync.renameSync(e.temp, e.target);
      }
    } catch (err) {
      await this.#rollBack(entries);
      await fs.rm(journalPath, { force: true });
      throw err;
    }
    await this.#writeJournal(journalPath, { label, committed: true, entries });
    await this.#discardBackups(entries, tag);
    await fs.rm(journalPath, { force: true });
  }

  /**
   * After a commit the backups are the old contents, which nothing needs: they are renamed into a trash
   * folder beside the journal's (`journal-trash/<tag>`) and removed in the background — unlinking a thousand files costs seconds on a
   * disk mounted with `discard`, renaming them milliseconds. What a crash leaves there goes at `recover()`.
   */
  async #discardBackups(entries: JournalEntry[], tag: string): Promise<void> {
    const trash = nodePath.join(`${this.#journalDir}-trash`, tag);
    let moved = false;
    try {
      await fs.mkdir(trash, { recursive: true });
      moved = true;
    } catch {
      // no trash folder: removed one by one below
    }
    let n = 0;
    for (const e of entries) {
      if (e.existed && moved) {
        try {
          fsSync.renameSync(e.backup, nodePath.join(trash, String(n++)));
          continue;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        }
      }
      if (e.existed) await fs.rm(e.backup, { force: true });
    }
    if (moved) void fs.rm(trash, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
  }

  /** Finishes or undoes batches interrupted by a crash; returns how many it found. */
  async recover(): Promise<number> {
    let names: string[];
    try {
      await fs.rm(`${this.#journalDir}-trash`, { recursive: true, force: true });
      names = (await fs.readdir(this.#journalDir)).filter((n) => n.endsWith('.json'));
    } catch (error) {
      return whenMissing(error, 0); // no journal folder: nothing was ever interrupted
    }
    for (const name of names) {
      const p = nodePath.join(this.#journalDir, name);
      let text: string | undefined;
      try {
        text = await fs.readFile(p, 'utf8');
      } catch (error) {
        // Gone meanwhile: nothing to recover. Unreadable is thrown on: deleting it would lose the only record.
        text = whenMissing(error, undefined);
      }
      if (text === undefined) continue;
      let journal: Journal;
      try {
        journal = JSON.parse(text) as Journal;
      } catch {
        // SyntaxError: torn before it was durable, so nothing was renamed yet.
        await fs.rm(p, { force: true });
        continue;
      }
      const inside = journal.entries.every((e) => [e.target, e.backup, e.temp ?? e.target].every((x) => isBelowNative(x, this.root)));
      if (!inside) throw new Error(`journal ${p} names paths outside the workspace; refusing to recover it`);
      // A journal can come with the repository (it is just a file): recovery renames and deletes what it
      // names, before any policy check. Only entries our own writer could have made are acted on — backup
      // and temp beside their target, named after it and this journal's tag.
      if (!journalShaped(name, journal)) throw new Error(`journal ${p} does not have the shape this writer produces; refusing to recover it`);
      if (journal.committed) await this.#rollForward(journal.entries);
      else await this.#rollBack(journal.entries);
      await fs.rm(p, { force: true });
    }
    return names.length;
  }

  async #writeJournal(path: string, journal: Journal): Promise<void> {
    const temp = `${path}.${randomBytes(3).toString('hex')}.tmp`;
    await writeDurable(temp, JSON.stringify(journal));
    await fs.rename(temp, path);
  }

  async #rollBack(entries: JournalEntry[]): Promise<void> {
    for (const e of [...entries].reverse()) {
      if (await exists(e.backup)) {
        await fs.rename(e.backup, e.target); // old content back over the new (or into the gap)
      } else if (!e.existed && e.temp && !(await exists(e.temp)) && (await exists(e.target))) {
        await fs.rm(e.target, { force: true }); // a created file whose temp was already renamed into place
      }
      if (e.temp) await fs.rm(e.temp, { force: true });
    }
  }

  async #rollForward(entries: JournalEntry[]): Promise<void> {
    for (const e of entries) {
      await fs.rm(e.backup, { force: true });
      if (e.temp) await fs.rm(e.temp, { force: true });
    }
  }
}
