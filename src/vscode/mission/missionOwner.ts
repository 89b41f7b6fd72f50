/**
 * Which window runs which mission, across a window reload. A window reload ends the extension host, and
 * with it the mission it ran; the reloaded window should simply pick that mission up. It must not pick up
 * a mission another window of the same folder is running, nor one the CLI left behind. So the running
 * window notes the mission and its extension host's process id in the workspace's memento; after a reload,
 * the new host picks the mission up once that process has exited (the old host goes away within seconds).
 * A mission with no such note, or whose process lives on, is only shown.
 */
import type * as vscode from 'vscode';

export interface MissionOwner {
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

const KEY = 'planExecute.missionOwner';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function mementoOwnerStore(memento: vscode.Memento, waitMs = 20_000): MissionOwnerStore {
  return {
    get: () => {
      const v = memento.get<unknown>(KEY);
      if (typeof v !== 'object' || v === null) return undefined;
      const { missionId, pid } = v as Record<string, unknown>;
      return typeof missionId === 'string' && typeof pid === 'number' ? { missionId, pid } : undefined;
    },
    set: (missionId) => memento.update(KEY, { missionId, pid: process.pid }),
    clear: (missionId) => {
      const v = memento.get<{ missionId?: unknown }>(KEY);
      return v?.missionId === missionId ? memento.update(KEY, undefined) : Promise.resolve();
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
