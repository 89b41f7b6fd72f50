/**
 * An MCP stdio transport over a child process we spawn ourselves, so the process can be the OS sandbox's
 * launcher (bubblewrap reads its mounts from fd 3; a network of its own needs fds 4 and 5). Framing is the
 * SDK's own (ReadBuffer, serializeMessage). A line on stdout that is not JSON-RPC is a protocol fault: the
 * transport records it and closes, so a pending request fails at once as `malformed` instead of waiting
 * for its timeout. The process runs in its own group, and closing kills the whole group.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { asError, errorText } from '../../core/primitives/errorText';

export interface ProcessSpec {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Bytes to write to fd 3 (bubblewrap's options), when set. */
  fd3?: Buffer;
  /** Open fds 4 and 5 too (a network of the sandbox's own). */
  ownNetworkFds?: boolean;
  /** The seccomp filter bubblewrap reads on fd 6, when set. */
  seccomp?: Buffer;
}

/** How much of a server's stderr is kept: its beginning (where a start failure says what went wrong) and its latest part. */
const STDERR_HEAD = 4_000;
const STDERR_TAIL = 2_000;
const KILL_GRACE_MS = 2_000;

export class ProcessTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** Why the transport ended, when it was not asked to: the process exited, or wrote something that is not MCP. */
  fault: { kind: 'malformed' | 'exited' | 'spawn'; message: string } | null = null;
  #child: ChildProcess | null = null;
  readonly #buffer = new ReadBuffer();
  /** The first STDERR_HEAD characters the server wrote to stderr, then the latest STDERR_TAIL (and how many fell between). */
  #stderrHead = '';
  #stderrTail = '';
  #stderrCut = 0;
  #closed = false;

  constructor(
    private readonly spec: ProcessSpec,
    private readonly onStarted?: (child: ChildProcess) => void,
  ) {}

  /**
   * What the server wrote to stderr, for a fault's message: whole from its beginning up to `max` characters
   * (a start failure's first lines say what went wrong: "Error [ERR_MODULE_NOT_FOUND]: Cannot find package…"),
   * and, when it wrote more, the cut said and its last lines.
   */
  stderrText(max = 1_500): string {
    const head = this.#stderrHead;
    const tail = this.#stderrTail;
    const whole = head.length + tail.length;
    if (this.#stderrCut === 0 && whole <= max) return (head + tail).trim();
    const end = Math.min(400, Math.floor(max / 4));
    const all = head + tail;
    const cut = this.#stderrCut + whole - (max - end) - end;
    return `${all.slice(0, max - end).trimEnd()}\n… (${cut} characters cut) …\n${all.slice(-end).trimStart()}`.trim();
  }

  #keepStderr(text: string): void {
    const room = STDERR_HEAD - this.#stderrHead.length;
    this.#stderrHead += text.slice(0, Math.max(0, room));
    const rest = this.#stderrTail + text.slice(Math.max(0, room));
    this.#stderrCut += Math.max(0, rest.length - STDERR_TAIL);
    this.#stderrTail = rest.slice(-STDERR_TAIL);
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    const { spec } = this;
    // fd 3: bubblewrap's arguments; fds 4 and 5: the own network's sync pipes; fd 6: the seccomp filter.
    const fds: ('pipe' | 'ignore')[] = [
      spec.fd3 ? 'pipe' : 'ignore',
      spec.ownNetworkFds ? 'pipe' : 'ignore',
      spec.ownNetworkFds ? 'pipe' : 'ignore',
      spec.seccomp ? 'pipe' : 'ignore',
    ];
    while (fds.length > 0 && fds[fds.length - 1] === 'ignore') fds.pop();
    const stdio: StdioOptions = ['pipe', 'pipe', 'pipe', ...fds];
    return new Promise((resolve, reject) => {
      const child = spawn(spec.file, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        stdio,
        shell: false,
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.#child = child;
      child.on('error', (error) => {
        this.fault ??= { kind: 'spawn', message: `could not be started: ${error.message}` };
        reject(error);
        this.#end();
      });
      child.on('spawn', () => {
        for (const [fd, data] of [
          [3, spec.fd3],
          [6, spec.seccomp],
        ] as const) {
          const pipes: readonly unknown[] = child.stdio;
          const pipe = data ? pipes[fd] : undefined;
          if (pipe instanceof Writable) {
            pipe.on('error', () => undefined);
            pipe.end(data);
          }
        }
        this.onStarted?.(child);
        resolve();
      });
      child.on('exit', (code, signal) => {
        if (!this.#closed) this.fault ??= { kind: 'exited', message: `exited (${signal ? `signal ${signal}` : `code ${code ?? '?'}`})` };
        this.#killGroup('SIGKILL');
        this.#end();
      });
      child.stdin?.on('error', () => undefined);
      child.stdout?.on('data', (chunk: Buffer) => this.#read(chunk));
      child.stderr?.on('data', (chunk: Buffer) => {
        this.#keepStderr(chunk.toString('utf8'));
      });
    });
  }

  #read(chunk: Buffer): void {
    try {
      this.#buffer.append(chunk);
      for (;;) {
        const message = this.#buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      }
    } catch (error) {
      this.fault ??= {
        kind: 'malformed',
        message: `wrote something that is not an MCP message on stdout (${errorText(error).split('\n')[0]!.slice(0, 200)})`,
      };
      this.onerror?.(asError(error));
      void this.close();
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closed) return Promise.reject(new Error('the server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  #killGroup(signal: NodeJS.Signals): void {
    const pid = this.#child?.pid;
    if (pid === undefined) return;
    try {
      if (process.platform === 'win32') this.#child?.kill(signal);
      else process.kill(-pid, signal);
    } catch {
      // already gone
    }
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer.clear();
    this.onclose?.();
  }

  async close(): Promise<void> {
    if (!this.#child) return this.#end();
    const child = this.#child;
    const exited = child.exitCode !== null || child.signalCode !== null;
    this.#end();
    if (exited) return;
    child.stdin?.end();
    this.#killGroup('SIGTERM');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#killGroup('SIGKILL');
        resolve();
      }, KILL_GRACE_MS);
      timer.unref?.();
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
