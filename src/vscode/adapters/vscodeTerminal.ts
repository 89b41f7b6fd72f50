/**
 * The Terminal port inside VS Code: each command runs in a visible terminal the user can watch (and stop
 * with Ctrl+C or by closing it), and its exit code and output come back to the engine.
 *
 * Choice: a Pseudoterminal (`window.createTerminal({ pty })`) whose `open` we answer by spawning the
 * process ourselves through the same runner as the Node adapter (argv, no shell, scrubbed env, process
 * group, timeout, capped head+tail output, tree kill). Shell integration's `executeCommand` was not used:
 * it hands a command LINE to the user's shell (so a shell would parse it, with the user's rc files and
 * env), its exit code and output arrive only when shell integration activates (not guaranteed: custom
 * prompts, unsupported shells, remote hosts), and it cannot run our scrubbed environment. The pty gives us
 * all of that deterministically, at the cost of not being the user's interactive shell — which for an
 * executor is the point.
 */
import { StringDecoder } from 'node:string_decoder';
import * as vscode from 'vscode';
import type { CommandRun } from '../../core/contracts/results';
import type { CommandRequest, StagingLayers, Terminal } from '../../core/ports';
import { NodeStagingLayers } from '../../node/sandbox/nodeStaging';
import { hostFacts } from '../../node/sandbox/hostFacts';
import type { HostFacts } from '../../core/policy/sandboxSpec';
import { runProcess } from '../../node/processRunner';
import { detectSandbox } from '../../node/sandbox/detect';
import type { SandboxSupport } from '../../core/contracts/sandbox';

export interface VscodeTerminalOptions {
  /** Terminal tab name prefix. */
  name?: string;
  /** Keep at most this many finished command terminals open (oldest are disposed). */
  keep?: number;
  /** How long to wait for VS Code to open the pty before running anyway (output is still captured). */
  openTimeoutMs?: number;
}

function display(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

export class VscodeTerminal implements Terminal {
  readonly staging: StagingLayers = new NodeStagingLayers();

  hostFacts(env: Record<string, string>): HostFacts {
    return hostFacts(env);
  }
  readonly #finished: vscode.Terminal[] = [];
  /** The terminal of the most recent run (integration tests look at it). */
  lastTerminal: vscode.Terminal | undefined;

  constructor(private readonly options: VscodeTerminalOptions = {}) {}

  async run(request: CommandRequest, signal: AbortSignal): Promise<CommandRun> {
    const write = new vscode.EventEmitter<string>();
    const close = new vscode.EventEmitter<number | void>();
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    if (signal.aborted) stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const pty: vscode.Pseudoterminal = {
      onDidWrite: write.event,
      onDidClose: close.event,
      open: () => opened(),
      close: () => stop.abort(), // the user closed the terminal: stop the command and its children
      handleInput: (data) => {
        if (data === '\u0003') stop.abort(); // Ctrl+C
      },
    };
    const shortName = request.argv.slice(0, 3).join(' ');
    const terminal = vscode.window.createTerminal({ name: `${this.options.name ?? 'Plan & Execute'}: ${shortName}`, pty, isTransient: true, iconPath: new vscode.ThemeIcon('run') });
    this.lastTerminal = terminal;
    terminal.show(true);
    await Promise.race([isOpen, new Promise((resolve) => setTimeout(resolve, this.options.openTimeoutMs ?? 3000))]);

    // The command line was refused by the policy if it held control characters; it is safe to echo.
    write.fire(`\x1b[2m${request.cwd}\x1b[0m\r\n$ ${request.command}\r\n`);
    const decoder = new StringDecoder('utf8');
    let run: CommandRun;
    try {
      run = await runProcess(request, stop.signal, (chunk) => write.fire(display(decoder.write(chunk))));
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    const tail = decoder.end();
    if (tail) write.fire(display(tail));
    const status = run.signal ? `killed by ${run.signal}` : `exit code ${run.exitCode ?? 'none'}`;
    write.fire(`\r\n\x1b[2m[${status} after ${Math.round(run.durationMs)} ms]\x1b[0m\r\n`);
    this.#retire(terminal);
    return run;
  }

  /** The same OS sandbox as the CLI: the pty only displays; the process is spawned by runProcess. */
  confinement(): Promise<SandboxSupport> {
    return Promise.resolve(detectSandbox());
  }

  #retire(terminal: vscode.Terminal): void {
    this.#finished.push(terminal);
    while (this.#finished.length > (this.options.keep ?? 5)) this.#finished.shift()?.dispose();
  }

  dispose(): void {
    for (const t of this.#finished.splice(0)) t.dispose();
  }
}
