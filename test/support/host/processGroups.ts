/**
 * Every long-lived process the test host starts (code-server, Chromium, a test tier) runs detached in its
 * own process group, so one `kill(-pgid)` ends it with all its children (the extension host, node-pty's
 * shells, Chromium's renderers). The groups are remembered here and killed when the run ends — normally,
 * on an exception, or on SIGINT/SIGTERM/SIGHUP — so nothing outlives the run that started it.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { rmSync } from 'node:fs';

const live = new Set<number>();
let handlersInstalled = false;

export interface GroupProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with the exit code (or the signal name) once the group leader has exited. */
  readonly exited: Promise<number | string>;
  /** SIGTERM to the whole group, SIGKILL after `graceMs` if the leader has not exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Spawns `command` as the leader of a new process group that is killed when this process ends. */
export function spawnGroup(command: string, args: readonly string[], options: SpawnOptions = {}): GroupProcess {
  installExitHandlers();
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid === undefined) {
    throw new Error(`could not start ${command}: ${describeSpawnFailure(child)}`);
  }
  const pid = child.pid;
  live.add(pid);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      // The leader is gone; its children may not be: end the rest of the group before forgetting it.
      signalGroup(pid, 'SIGKILL');
      live.delete(pid);
      resolve(code ?? signal ?? 'unknown');
    });
    child.once('error', () => {
      live.delete(pid);
      resolve('error');
    });
  });
  exitPromises.set(pid, exited);
  void exited.then(() => exitPromises.delete(pid));
  let stopping: Promise<void> | undefined;
  const stop = (graceMs = 3000): Promise<void> => {
    stopping ??= (async () => {
      if (!live.has(pid)) return;
      signalGroup(pid, 'SIGTERM');
      const timer = new Promise<'timeout'>((resolve) => setTimeout(resolve, graceMs, 'timeout').unref());
      if ((await Promise.race([exited, timer])) === 'timeout') signalGroup(pid, 'SIGKILL');
      await exited;
    })();
    return stopping;
  };
  return { child, pid, exited, stop };
}

function describeSpawnFailure(child: ChildProcess): string {
  return child.spawnfile ? `spawn of ${child.spawnfile} returned no pid` : 'no pid';
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** Synchronously kills every group still alive. Safe to call from an 'exit' handler. */
function killAllGroups(): void {
  for (const pgid of live) signalGroup(pgid, 'SIGKILL');
  live.clear();
}

const exitPaths = new Set<string>();

/**
 * Removes `path` (recursively) when this process exits, after the groups are killed — for temporary
 * directories whose owner might be interrupted before its own clean-up. Returns the way to cancel that.
 */
export function removeOnExit(path: string): () => void {
  installExitHandlers();
  exitPaths.add(path);
  return () => exitPaths.delete(path);
}

function removeExitPaths(): void {
  if (process.env.PLAN_EXECUTE_KEEP_HOST_DIRS) return;
  for (const path of exitPaths) rmSync(path, { recursive: true, force: true });
  exitPaths.clear();
}

/** Process groups started by this process that are still running (for tests of the harness itself). */
export function liveGroups(): number[] {
  return [...live];
}

const exitPromises = new Map<number, Promise<number | string>>();

function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    killAllGroups();
    removeExitPaths();
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping ${live.size} process group(s) started by this run\n`);
      // SIGTERM first: a group led by one of our own runners (a test tier) then stops the groups *it*
      // started, which a SIGKILL to its leader would orphan. Whatever is left after the grace is killed.
      for (const pgid of live) signalGroup(pgid, 'SIGTERM');
      const grace = new Promise((resolve) => setTimeout(resolve, 4000).unref());
      void Promise.race([Promise.all(exitPromises.values()), grace]).then(() => {
        killAllGroups();
        // 128 + signal number, as a shell reports it.
        process.exit(signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 129);
      });
    });
  }
}
