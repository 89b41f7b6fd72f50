/**
 * The Store port on disk, under one directory (by default `<workspace>/.plan-execute/`):
 *   blobs/<first 2 hex>/<sha256>         content-addressed, written once (temp + rename)
 *   missions/<missionId>/trace.jsonl     append-only, one event per line
 *   missions/<missionId>/state.json      latest state snapshot (temp + rename)
 * Appends to one mission's trace are serialised so lines never interleave. A torn final line (a crash
 * mid-append) is skipped when reading; everything before it is intact.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as nodePath from 'node:path';
import type { Store } from '../core/ports';
import type { TraceEvent } from '../core/contracts/traceEvents';
import { sha256Hex } from '../core/primitives/hash';
import { ensureStoreFolder } from './storeFolder';
import { isMissing, whenMissing } from './fsErrors';

const MISSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const HASH = /^[0-9a-f]{64}$/;

export interface FileStoreOptions {
  /** Where a mission's trace goes (default `missions/<id>/trace.jsonl` under the store dir). */
  tracePathFor?: (missionId: string) => string;
}

async function atomicWrite(path: string, data: Uint8Array | string): Promise<void> {
  await fs.mkdir(nodePath.dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(temp, data);
  await fs.rename(temp, path);
}

export class FileStore implements Store {
  readonly #appendChains = new Map<string, Promise<void>>();

  constructor(
    readonly dir: string,
    private readonly options: FileStoreOptions = {},
  ) {}

  /** The default location for a workspace: `<workspace>/.plan-execute/`. */
  static forWorkspace(workspaceRoot: string, options: FileStoreOptions = {}): FileStore {
    return new FileStore(ensureStoreFolder(workspaceRoot), options);
  }

  #missionDir(missionId: string): string {
    if (!MISSION_ID.test(missionId)) throw new Error(`invalid mission id ${JSON.stringify(missionId)}`);
    return nodePath.join(this.dir, 'missions', missionId);
  }

  tracePath(missionId: string): string {
    return this.options.tracePathFor?.(missionId) ?? nodePath.join(this.#missionDir(missionId), 'trace.jsonl');
  }

  #blobPath(hash: string): string {
    return nodePath.join(this.dir, 'blobs', hash.slice(0, 2), hash);
  }

  async putBlob(content: Uint8Array): Promise<string> {
    const hash = sha256Hex(content);
    const path = this.#blobPath(hash);
    try {
      await fs.access(path);
    } catch (error) {
      // Not stored yet (the same content is stored once); another error is thrown on.
      if (!isMissing(error)) throw error;
      await atomicWrite(path, content);
    }
    return hash;
  }

  async getBlob(hash: string): Promise<Uint8Array | undefined> {
    if (!HASH.test(hash)) return undefined;
    try {
      return new Uint8Array(await fs.readFile(this.#blobPath(hash)));
    } catch (error) {
      return whenMissing(error, undefined);
    }
  }

  appendEvent(missionId: string, event: TraceEvent): Promise<void> {
    const path = this.tracePath(missionId);
    const line = JSON.stringify(event) + '\n';
    const prev = this.#appendChains.get(path) ?? Promise.resolve();
    const next = prev.then(async () => {
      await fs.mkdir(nodePath.dirname(path), { recursive: true });
      await fs.appendFile(path, line);
    });
    this.#appendChains.set(
      path,
      next.catch(() => undefined),
    );
    return next;
  }

  async readEvents(missionId: string): Promise<unknown[]> {
    let text: string;
    try {
      text = await fs.readFile(this.tracePath(missionId), 'utf8');
    } catch (error) {
      return whenMissing(error, []); // no trace yet
    }
    const out: unknown[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line));
      } catch {
        // SyntaxError: a torn line from a crash mid-append (the events before and after it stand)
      }
    }
    return out;
  }

  async saveState(missionId: string, state: unknown): Promise<void> {
    await atomicWrite(nodePath.join(this.#missionDir(missionId), 'state.json'), JSON.stringify(state));
  }

  async loadState(missionId: string): Promise<unknown | undefined> {
    let text: string;
    try {
      text = await fs.readFile(nodePath.join(this.#missionDir(missionId), 'state.json'), 'utf8');
    } catch (error) {
      return whenMissing(error, undefined); // no state saved yet
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined; // SyntaxError: a state torn by a crash reads as none (resume then says so)
    }
  }

  async listMissions(): Promise<string[]> {
    try {
      const entries = await fs.readdir(nodePath.join(this.dir, 'missions'), { withFileTypes: true });
      return entries
        .filter((e) => e.isDirectory() && MISSION_ID.test(e.name))
        .map((e) => e.name)
        .sort();
    } catch (error) {
      return whenMissing(error, []); // no mission stored yet
    }
  }
}
