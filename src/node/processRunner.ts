/**
 * Runs one argv WITHOUT a shell, in its own process group, and always reaps the whole group.
 * - env is exactly the request's (already scrubbed); process.env is never merged in.
 * - stdout and stderr are interleaved into one capped capture (head and tail kept).
 * - On timeout or abort: SIGTERM to the group, SIGKILL after a grace period. When the leader exits on its
 *   own, leftovers in its group are killed too: nothing a command started outlives it, and a grandchild
 *   holding the pipes open cannot hang us. One that left the group (setsid) and still holds them is not
 *   waited for past a grace period after the leader's exit.
 * - A request with a sandbox spec runs inside the OS sandbox (sandbox/confinedRun.ts) or not at all: when
 *   this machine has none, the run fails with the reason instead of running unconfined. Only a request
 *   whose `sandbox` is null (decided, and approved, by the engine) runs unconfined.
 * - On Windows the program is resolved through PATH and PATHEXT, never the working directory
 *   (windowsCommand.ts).
 * Used by the Node Terminal and by the VS Code terminal adapter (which also streams output to a pty).
 */
import { spawn, spawnSync, type StdioOptions } from 'node:child_process';
import * as fs from 'node:fs';
import type { CommandRun } from '../core/contracts/results';
import type { CommandRequest } from '../core/ports';
import { OutputCapture } from '../core/tools/outputCap';
import { detectSandbox } from './sandbox/detect';
import { prepareConfined } from './sandbox/confinedRun';
import type { StagedLayer } from './sandbox/stagedLaunch';
import { prepareGitForHidden } from './sandbox/layerGitPrep';
import { layerDirs, layerExists, scratchLayer, stagingBase } from './sandbox/stagingLayers';
import { startOwnNetwork } from './sandbox/ownNetwork';
import { windowsSpawn } from './windowsCommand';
import { err, ok, type Result } from '../core/contracts/result';

const KILL_GRACE_MS = 2000;

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone
  }
}

/**
 * What a hook process needs besides a command's run (src/node/hooks/hookRunner.ts): its input on stdin,
 * stdout and stderr apart, and whether it was killed at its timeout.
 */
export interface ProcessIo {
  stdin?: string;
  onStdout?(chunk: Buffer): void;
  onStderr?(chunk: Buffer): void;
  onTimeout?(): void;
}

export function runProcess(request: CommandRequest, signal: AbortSignal, onOutput?: (chunk: Buffer) => void, io: ProcessIo = {}): Promise<CommandRun> {
  const started = Date.now();
  const capture = new OutputCapture(request.maxOutputBytes);
  const result = (exitCode: number | null, sig: string | null, extra = ''): CommandRun => {
    if (extra) capture.push(extra);
    return {
      command: request.command,
      cwd: request.cwd,
      exitCode,
      signal: sig,
      durationMs: Date.now() - started,
      output: capture.text(),
      truncated: capture.truncated,
    };
  };
  if (signal.aborted) return Promise.resolve(result(null, 'SIGKILL', 'cancelled before it started\n'));
  const spawned = spawnTarget(request);
  if (!spawned.ok) return Promise.resolve(result(null, null, `not run: ${spawned.error}\n`));
  const target = spawned.value;
  const { file, args, env, fd3, seccomp, cleanup, verbatim, ownNetwork } = target;
  let stopNetwork = (): void => undefined;
  for (const note of target.notes) capture.push(`[sandbox: ${note}]\n`);

  const running = new Promise<CommandRun>((resolve) => {
    let settled = false;
    let killedWith: NodeJS.Signals | null = null;
    let graceTimer: NodeJS.Timeout | undefined;
    // fd 3: bubblewrap's options; with a network of its own, fd 4 (its pid, when set up) and fd 5 (go);
    // fd 6: the seccomp filter.
    const input = io.stdin !== undefined ? 'pipe' : 'ignore';
    const stdio: StdioOptions =
      ownNetwork || seccomp
        ? [input, 'pipe', 'pipe', 'pipe', ownNetwork ? 'pipe' : 'ignore', ownNetwork ? 'pipe' : 'ignore', seccomp ? 'pipe' : 'ignore']
        : fd3
          ? [input, 'pipe', 'pipe', 'pipe']
          : [input, 'pipe', 'pipe'];
    const child = spawn(file, args, {
      cwd: request.cwd,
      env,
      shell: false,
      detached: process.platform !== 'win32',
      stdio,
      windowsHide: true,
      windowsVerbatimArguments: verbatim,
    });
    for (const [fd, data] of [
      [3, fd3],
      [6, seccomp],
    ] as const) {
      const pipes: readonly unknown[] = child.stdio;
      const pipe = data ? (pipes[fd] as NodeJS.WritableStream | null | undefined) : undefined;
      if (data && pipe) {
        pipe.on('error', () => undefined); // bwrap failing early closes it; its exit status says why
        pipe.end(data);
      }
    }
    if (io.stdin !== undefined && child.stdin) {
      // A hook that never reads its input closes the pipe early: that is no failure of ours.
      child.stdin.on('error', () => undefined);
      child.stdin.end(io.stdin);
    }
    const onChunk = (chunk: Buffer): void => {
      capture.push(chunk);
      onOutput?.(chunk);
    };
    child.stdout?.on('data', (chunk: Buffer) => (onChunk(chunk), io.onStdout?.(chunk)));
    child.stderr?.on('data', (chunk: Buffer) => (onChunk(chunk), io.onStderr?.(chunk)));

    const stop = (reason: string): void => {
      if (killedWith || settled) return;
      killedWith = 'SIGTERM';
      capture.push(`\n[${reason}: terminating the process tree]\n`);
      killGroup(child.pid, 'SIGTERM');
      graceTimer = setTimeout(() => {
        killedWith = 'SIGKILL';
        killGroup(child.pid, 'SIGKILL');
      }, KILL_GRACE_MS);
      graceTimer.unref?.();
    };
    const timer = setTimeout(() => {
      io.onTimeout?.();
      stop(`timed out after ${request.timeoutMs} ms`);
    }, request.timeoutMs);
    if (ownNetwork) {
      void startOwnNetwork(child, ownNetwork.slirp4netns).then((net) => {
        if (net.ok) {
          stopNetwork = net.value.stop;
          if (settled) net.value.stop();
        } else {
          capture.push(`[sandbox: the command's network could not be set up: ${net.error.reason}]\n`);
          stop('no network');
        }
      });
    }
    const onAbort = (): void => stop('cancelled');
    signal.addEventListener('abort', onAbort, { once: true });

    let heldTimer: NodeJS.Timeout | undefined;
    const finish = (run: CommandRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (graceTimer) clearTimeout(graceTimer);
      if (heldTimer) clearTimeout(heldTimer);
      signal.removeEventListener('abort', onAbort);
      stopNetwork();
      resolve(run);
    };
    child.on('exit', (code, sig) => {
      killGroup(child.pid, 'SIGKILL');
      clearTimeout(timer);
      // The group is gone: a pipe still open now belongs to a process that left it (setsid, a daemon).
      // Its output is not ours to wait for — neither a command nor a hook may hang the caller that way.
      heldTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(result(code, sig ?? killedWith, `\n[a process that left the command's process group still held its output: not waited for]\n`));
      }, KILL_GRACE_MS);
      heldTimer.unref?.();
    });
    child.on('error', (error) => finish(result(null, null, `failed to start ${file}: ${error.message}\n`)));
    child.on('close', (code, sig) => finish(result(code, sig ?? killedWith)));
  });
  return running.then(
    (run) => {
      const undone = cleanup();
      return undone.length === 0 ? run : { ...run, output: `${run.output}${undone.map((n) => `[sandbox: ${n}]\n`).join('')}` };
    },
    (error: unknown) => {
      cleanup();
      throw error;
    },
  );
}

interface SpawnTarget {
  file: string;
  args: string[];
  env: Record<string, string>;
  fd3?: Buffer;
  seccomp?: Buffer;
  ownNetwork?: { slirp4netns: string };
  verbatim: boolean;
  notes: string[];
  /** After the command; returns what it undid outside the workspace (shown below the output). */
  cleanup(): string[];
}

/** The layer folders of a staged request: the step's own, or a scratch one over it (thrown away after). */
function stagedLayerFor(root: string, staging: NonNullable<CommandRequest['staging']>): Result<{ layer: Omit<StagedLayer, 'root'>; release(): void }, string> {
  const probe = stagingBase(root);
  if (!probe.ok) return err(`staged writes are not available here: ${probe.error.reason}`);
  const base = probe.value;
  if ('layer' in staging) return ok({ layer: layerDirs(base, staging.layer), release: () => undefined });
  const scratch = scratchLayer(base);
  const over = layerExists(base, staging.over) ? layerDirs(base, staging.over).upper : undefined;
  return ok({ layer: { upper: scratch.upper, work: scratch.work, ...(over ? { over } : {}) }, release: scratch.release });
}

/** What to spawn for a request — the sandbox wrapper around it, or the program itself — or why it cannot run. */
function spawnTarget(request: CommandRequest): Result<SpawnTarget, string> {
  if (request.argv.length === 0) return err('empty argv');
  if (request.sandbox !== null) {
    const staged = request.staging ? stagedLayerFor(request.sandbox.root, request.staging) : undefined;
    if (staged && !staged.ok) return staged;
    const layer = staged?.value;
    const gitNotes = layer ? prepareGitForHidden(request.sandbox.root, layer.layer.upper, request.sandbox.hidden) : [];
    const confined = prepareConfined(request.sandbox, detectSandbox(), request.argv, request.cwd, layer?.layer);
    if (!confined.ok) {
      layer?.release();
      return confined;
    }
    const prepared = confined.value;
    const cleanup = (): string[] => {
      const notes = prepared.cleanup();
      layer?.release();
      return notes;
    };
    return ok({ ...prepared, notes: [...prepared.notes, ...gitNotes], cleanup, verbatim: false });
  }
  if (process.platform === 'win32') {
    const resolved = windowsSpawn(request.argv, request.env, (p) => fs.existsSync(p));
    if (!resolved.ok) return resolved;
    return ok({ ...resolved.value, notes: [], cleanup: () => [] });
  }
  const [file, ...args] = request.argv as [string, ...string[]];
  return ok({ file, args, env: request.env, verbatim: false, notes: [], cleanup: () => [] });
}
