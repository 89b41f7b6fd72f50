/**
 * The HookRunner port for Node front ends (the CLI, VS Code's extension host): a hook's command line goes
 * to the shell (`/bin/bash -c`, else `/bin/sh -c`, as Claude Code runs hooks) through the same process
 * runner as commands (processRunner.ts): its own process group, killed whole at its timeout (SIGTERM, then
 * SIGKILL), inside the OS sandbox when the request carries a spec — the shell is found inside it at the
 * same path. Its JSON input goes to stdin; stdout and stderr are kept apart.
 *
 * A user hook runs as the user: the user's own environment (never the product's model keys) under the
 * request's. A project hook gets only the request's scrubbed environment.
 */
import { existsSync } from 'node:fs';
import type { HookProcessRequest, HookProcessRun, HookRunner } from '../../core/ports';
import { OutputCapture } from '../../core/tools/outputCap';
import { errorText } from '../../core/primitives/errorText';
import { runProcess } from '../processRunner';

/** The model providers' keys: what the product holds for itself, never handed to a hook. */
const PRODUCT_KEYS = /^(ANTHROPIC|OPENAI)_(API_KEY|AUTH_TOKEN)$/;

function shell(): string {
  return existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
}

export class NodeHookRunner implements HookRunner {
  readonly #userEnv: Record<string, string>;

  /** `userEnv`: the environment the front end was started with (what a user hook sees, minus the model keys). */
  constructor(userEnv: Record<string, string | undefined>) {
    this.#userEnv = Object.fromEntries(Object.entries(userEnv).filter((e): e is [string, string] => e[1] !== undefined && !PRODUCT_KEYS.test(e[0])));
  }

  async run(request: HookProcessRequest, signal: AbortSignal): Promise<HookProcessRun> {
    const stdout = new OutputCapture(request.maxOutputBytes);
    const stderr = new OutputCapture(request.maxOutputBytes);
    let timedOut = false;
    const env = request.origin === 'user' ? { ...this.#userEnv, ...request.env } : request.env;
    try {
      const run = await runProcess(
        {
          command: request.command,
          argv: [shell(), '-c', request.command],
          cwd: request.cwd,
          timeoutMs: request.timeoutMs,
          maxOutputBytes: request.maxOutputBytes,
          env,
          sandbox: request.sandbox,
          ...(request.staging ? { staging: request.staging } : {}),
        },
        signal,
        undefined,
        { stdin: request.stdin, onStdout: (c) => stdout.push(c), onStderr: (c) => stderr.push(c), onTimeout: () => (timedOut = true) },
      );
      // A run the runner refused or could not start says why in its output, with no exit code and no signal.
      const notStarted = run.exitCode === null && run.signal === null;
      return {
        exitCode: run.exitCode,
        signal: run.signal,
        timedOut,
        durationMs: run.durationMs,
        stdout: stdout.text(),
        stderr: stderr.text(),
        ...(notStarted ? { startError: run.output.trim() || 'it did not start' } : {}),
      };
    } catch (error) {
      return { exitCode: null, signal: null, timedOut: false, durationMs: 0, stdout: '', stderr: '', startError: errorText(error) };
    }
  }
}
