/**
 * Which window runs which mission, across a window reload. A window reload ends the extension host, and
 * with it the mission it ran; the reloaded window should simply pick that mission up. It must not pick up
 * a mission another window of the same folder is running, nor one the CLI left behind. So the running
 * window notes the mission and its extension host's process id in a small file beside the mission store;
 * after a reload, the new host picks the mission up once that process has exited (the old host can take
 * a while to go away). A mission with no such note, or whose process lives on, is only shown.
 * A file, written synchronously, not the workspace memento: in a browser window the memento is flushed by
 * the page, and a reload soon after a start could lose it.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

interface MissionOwner {
  missionId: string;
  /** The extension host process that ran it. */
  pid: number;
}

export interface MissionOwnerStore {
  get(): MissionOwner | undefined;
  /** Notes that this process runs `missionId`. */
  set(missionId: string): Thenable<void>;
  /** Forgets the note if it is about `missionId` (the mission ended here). */
  clear(missionId: string): Thenable<void>;
  /** True once the owner's process has exited (waits up to a bound); false when it lives on. */
  released(owner: MissionOwner): Promise<boolean>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The owner note kept in `file` (JSON: `{ missionId, pid }`); `waitMs` bounds the wait for the old host. */
export function fileOwnerStore(file: string, waitMs = 60_000): MissionOwnerStore {
  const read = (): MissionOwner | undefined => {
    try {
      const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      if (typeof v !== 'object' || v === null) return undefined;
      const { missionId, pid } = v as Record<string, unknown>;
      return typeof missionId === 'string' && typeof pid === 'number' ? { missionId, pid } : undefined;
    } catch {
      return undefined; // no note (ENOENT) or a torn one (SyntaxError): no window owns a mission
    }
  };
  return {
    get: read,
    set: (missionId) => {
      try {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, JSON.stringify({ missionId, pid: process.pid }));
      } catch {
        // Without the note the mission is only shown after a reload, with Resume: nothing worse.
      }
      return Promise.resolve();
    },
    clear: (missionId) => {
      if (read()?.missionId === missionId) rmSync(file, { force: true });
      return Promise.resolve();
    },
    released: async (owner) => {
      if (owner.pid === process.pid) return false;
      const deadline = Date.now() + waitMs;
      while (alive(owner.pid)) {
        if (Date.now() > deadline) return false;
        await new Promise((r) => setTimeout(r, 200));
      }
      return true;
    },
  };
}

/**
 * The newest mission by the time in its id (`m-<base-36 ms>-<random>`, see core's newMissionId), or
 * undefined when some id does not carry one (then the caller reads every trace).
 */
export function latestMissionId(ids: readonly string[]): string | undefined {
  let best: { id: string; at: number } | undefined;
  for (const id of ids) {
    const match = /^m-([0-9a-z]+)-[0-9a-z]+$/.exec(id);
    if (!match) return undefined;
    const at = parseInt(match[1]!, 36);
    if (!best || at > best.at) best = { id, at };
  }
  return best?.id;
}
