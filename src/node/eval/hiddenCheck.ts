/**
 * The hidden check: the task's `check`, run by the harness after the mission has ended, in the run's
 * workspace (its working directory and its one argument), never by or before the agent. It runs where it
 * lies, in the task folder, so it finds files beside it through its own path too. Exit code 0 means the task is done;
 * anything else — another code, a signal, the time limit — means it is not.
 *
 * It runs outside the sandbox (it is the task author's code, and it may need what the agent could not
 * see: the task folder's hidden tests, through EVAL_TASK_DIR), but with the environment commands get —
 * built up from an allowlist, so no API key reaches it — a private HOME and TMPDIR, and in its own process
 * group, ended whole at the time limit. Mind that a check usually runs code the agent wrote: evaluate on a
 * machine (or CI runner) that holds nothing else worth stealing.
 *
 * How `check` is started: executable → run directly; else by its `#!` line; else with /bin/sh.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { scrubEnv } from '../../core/policy/env';
import type { Task } from './taskSpec';

export interface CheckResult {
  passed: boolean;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** The last few KB of its combined output (why it failed, for the report). */
  outputTail: string;
}

const TAIL_BYTES = 4000;

/** argv that starts the check (see the module comment). */
function checkCommand(checkPath: string): string[] {
  const mode = statSync(checkPath).mode;
  if (process.platform !== 'win32' && (mode & 0o111) !== 0) return [checkPath];
  const head = readFileSync(checkPath, 'utf8').slice(0, 256);
  if (head.startsWith('#!')) {
    const line = head.slice(2).split('\n')[0]!.trim();
    const words = line.split(/\s+/).filter(Boolean);
    if (words.length > 0) return [...words, checkPath];
  }
  return ['/bin/sh', checkPath];
}

/** Runs `task`'s check in `workspace`; `scratch` is a private folder for its HOME and TMPDIR. */
export function runHiddenCheck(task: Task, workspace: string, scratch: string): Promise<CheckResult> {
  const home = join(scratch, 'check-home');
  const tmp = join(scratch, 'check-tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  // Packages installed for the user (pip install --user) stay importable under the private HOME.
  const userBase = process.env.PYTHONUSERBASE ?? join(homedir(), '.local');
  const env = scrubEnv(process.env, {
    // Python's bytecode goes to a private cache: what the agent's runs left in __pycache__ is never loaded.
    set: {
      HOME: home,
      TMPDIR: tmp,
      EVAL_TASK_DIR: task.dir,
      EVAL_WORKSPACE: workspace,
      CI: '1',
      NO_COLOR: '1',
      PYTHONPYCACHEPREFIX: join(scratch, 'check-pycache'),
      ...(existsSync(userBase) ? { PYTHONUSERBASE: userBase } : {}),
    },
  });
  // The workspace is also the first argument, for a check written as `check WORKSPACE`.
  const [program, ...args] = [...checkCommand(task.check), workspace];
  const limitMs = task.meta.checkTimeoutSeconds * 1000;
  const started = Date.now();
  return new Promise((done) => {
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-TAIL_BYTES);
    };
    let timedOut = false;
    const child = spawn(program!, args, { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the check's process group is already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, limitMs);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => {
      clearTimeout(timer);
      done({
        passed: false,
        exitCode: null,
        signal: null,
        timedOut: false,
        durationMs: Date.now() - started,
        outputTail: `the check could not start: ${error.message}`,
      });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Whatever the check left running in its group goes with it.
      killGroup();
      done({
        passed: code === 0 && !timedOut,
        exitCode: code,
        signal,
        timedOut,
        durationMs: Date.now() - started,
        outputTail: timedOut ? `${output}\n[eval: the check exceeded ${task.meta.checkTimeoutSeconds} s and was killed]` : output,
      });
    });
  });
}
