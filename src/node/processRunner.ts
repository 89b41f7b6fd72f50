/**
 * Runs one argv WITHOUT a shell, in its own process group, and always reaps the whole group.
 * - env is exactly the request's (already scrubbed); process.env is never merged in.
 * - stdout and stderr are interleaved into one capped capture (head and tail kept).
 * - On timeout or abort: SIGTERM to the group, SIGKILL after a grace period. When the leader exits on its
 *   own, leftovers in its group are killed too: nothing a command started outlives it, and a grandchild
 *   holding the pipes open cannot hang us.
 * Used by the Node Terminal and by the VS Code terminal adapter (which also streams output to a pty).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { CommandRun } from '../core/contracts/results';
import type { CommandRequest } from '../core/ports';
import { OutputCapture } from '../core/tools/outputCap';

export const KILL_GRACE_MS = 2000;

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // group already gone
  }
}

export function runProcess(request: CommandRequest, signal: AbortSignal, onOutput?: (chunk: Buffer) => void): Promise<CommandRun> {
  const started = Date.now();
  const capture = new OutputCapture(request.maxOutputBytes);
  const result = (exitCode: number | null, sig: string | null, extra = ''): CommandRun => {
    if (extra) capture.push(extra);
    return { command: request.command, cwd: request.cwd, exitCode, signal: sig, durationMs: Date.now() - started, output: capture.text(), truncated: capture.truncated };
  };
  if (signal.aborted) return Promise.resolve(result(null, 'SIGKILL', 'cancelled before it started\n'));
  const [file, ...args] = request.argv;
  if (file === undefined) return Promise.resolve(result(null, null, 'empty argv\n'));

  return new Promise<CommandRun>((resolve) => {
    let settled = false;
    let killedWith: NodeJS.Signals | null = null;
    let graceTimer: NodeJS.Timeout | undefined;
    const child = spawn(file, args, {
      cwd: request.cwd,
      env: request.env,
      shell: false,
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const onChunk = (chunk: Buffer): void => {
      capture.push(chunk);
      onOutput?.(chunk);
    };
    child.stdout?.on('data', onChunk);
    child.stderr?.on('data', onChunk);

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
    const timer = setTimeout(() => stop(`timed out after ${request.timeoutMs} ms`), request.timeoutMs);
    const onAbort = (): void => stop('cancelled');
    signal.addEventListener('abort', onAbort, { once: true });

    const finish = (run: CommandRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (graceTimer) clearTimeout(graceTimer);
      signal.removeEventListener('abort', onAbort);
      resolve(run);
    };
    child.on('exit', () => killGroup(child.pid, 'SIGKILL'));
    child.on('error', (err) => finish(result(null, null, `failed to start ${file}: ${err.message}\n`)));
    child.on('close', (code, sig) => finish(result(code, sig ?? killedWith)));
  });
}
