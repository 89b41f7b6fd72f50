/**
 * The Terminal port inside VS Code: every command runs in ONE visible terminal, "Plan & Execute", reused for
 * the whole window (not a new terminal per command, each popping the panel open): a header line per command
 * (its directory and command line), its output, and how it ended. The user can watch it, stop what runs with
 * Ctrl+C, or close it (which stops what runs; the next command opens it again). It is shown once, without
 * taking focus, when it is first opened; after that it never pops up by itself.
 *
 * Choice: a Pseudoterminal (`window.createTerminal({ pty })`) whose output we write ourselves, the process
 * spawned through the same runner as the Node adapter (argv, no shell, scrubbed env, process group,
 * timeout, capped head+tail output, tree kill). Shell integration's `executeCommand` was not used: it hands
 * a command LINE to the user's shell (so a shell would parse it, with the user's rc files and env), its exit
 * code and output arrive only when shell integration activates (not guaranteed), and it cannot run our
 * scrubbed environment. The pty gives us all of that deterministically — for an executor, the point.
 *
 * Two commands running side by side (two steps) write whole lines, each prefixed with its command's number
 * while another runs, so their output never interleaves mid-line.
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
  /** The terminal's name. */
  name?: string;
  /** How long to wait for VS Code to open the pty before running anyway (output is still captured). */
  openTimeoutMs?: number;
}

const display = (text: string): string => text.replace(/\r?\n/g, '\r\n');

/** The one terminal: a pty whose output is queued until VS Code opens it. */
class SharedPty {
  readonly write = new vscode.EventEmitter<string>();
  readonly close = new vscode.EventEmitter<number | void>();
  readonly terminal: vscode.Terminal;
  private opened = false;
  private readonly queue: string[] = [];
  readonly isOpen: Promise<void>;
  private markOpen!: () => void;

  constructor(name: string, onStop: () => void, onClosed: () => void) {
    this.isOpen = new Promise((resolve) => (this.markOpen = resolve));
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.write.event,
      onDidClose: this.close.event,
      open: () => {
        this.opened = true;
        for (const text of this.queue.splice(0)) this.write.fire(text);
        this.markOpen();
      },
      close: () => {
        onStop(); // the user closed the terminal: stop what runs in it
        onClosed();
      },
      handleInput: (data) => {
        if (data === '\u0003') onStop(); // Ctrl+C
      },
    };
    this.terminal = vscode.window.createTerminal({ name, pty, isTransient: true, iconPath: new vscode.ThemeIcon('run') });
  }

  print(text: string): void {
    if (this.opened) this.write.fire(text);
    else this.queue.push(text);
  }

  dispose(): void {
    this.terminal.dispose();
    this.write.dispose();
    this.close.dispose();
  }
}

export class VscodeTerminal implements Terminal {
  readonly staging: StagingLayers = new NodeStagingLayers();

  hostFacts(env: Record<string, string>): HostFacts {
    return hostFacts(env);
  }
  #pty: SharedPty | undefined;
  readonly #running = new Map<number, { stop: AbortController; partial: string }>();
  #next = 0;

  constructor(private readonly options: VscodeTerminalOptions = {}) {}

  /** The terminal commands run in (integration tests look at it); undefined before the first command. */
  get lastTerminal(): vscode.Terminal | undefined {
    return this.#pty?.terminal;
  }

  async run(request: CommandRequest, signal: AbortSignal): Promise<CommandRun> {
    const pty = this.#open();
    const id = ++this.#next;
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    if (signal.aborted) stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const entry = { stop, partial: '' };
    this.#running.set(id, entry);
    await Promise.race([pty.isOpen, new Promise((resolve) => setTimeout(resolve, this.options.openTimeoutMs ?? 3000))]);

    // The command line was refused by the policy if it held control characters; it is safe to echo.
    pty.print(`\r\n\x1b[2m[${id}] ${request.cwd}\x1b[0m\r\n\x1b[1m[${id}] $ ${request.command}\x1b[0m\r\n`);
    const decoder = new StringDecoder('utf8');
    let run: CommandRun;
    try {
      run = await runProcess(request, stop.signal, (chunk) => this.#output(id, decoder.write(chunk)));
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    this.#output(id, decoder.end());
    if (entry.partial) this.#line(id, entry.partial);
    this.#running.delete(id);
    const status = run.signal ? `killed by ${run.signal}` : `exit code ${run.exitCode ?? 'none'}`;
    pty.print(`\x1b[2m[${id}] ${status} after ${Math.round(run.durationMs)} ms\x1b[0m\r\n`);
    return run;
  }

  /** The same OS sandbox as the CLI: the pty only displays; the process is spawned by runProcess. */
  confinement(): Promise<SandboxSupport> {
    return Promise.resolve(detectSandbox());
  }

  /** The shared terminal, created (and shown once, keeping focus where it is) when there is none. */
  #open(): SharedPty {
    if (this.#pty) return this.#pty;
    const pty = new SharedPty(
      this.options.name ?? 'Plan & Execute',
      () => {
        for (const r of this.#running.values()) r.stop.abort();
      },
      () => {
        if (this.#pty === pty) this.#pty = undefined;
      },
    );
    this.#pty = pty;
    pty.terminal.show(true);
    return pty;
  }

  /** Output in whole lines; with another command running, each line says whose it is. */
  #output(id: number, text: string): void {
    const entry = this.#running.get(id);
    if (!entry || !text) return;
    const lines = (entry.partial + text).split('\n');
    entry.partial = lines.pop() ?? '';
    for (const line of lines) this.#line(id, line);
  }

  #line(id: number, line: string): void {
    const prefix = this.#running.size > 1 ? `\x1b[2m[${id}]\x1b[0m ` : '';
    this.#pty?.print(`${prefix}${display(line.replace(/\r$/, ''))}\r\n`);
  }

  dispose(): void {
    this.#pty?.dispose();
    this.#pty = undefined;
  }
}
