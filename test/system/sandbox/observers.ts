/**
 * What an escape case looks at after the mission, instead of what any function returned:
 * - listeners on the host (TCP and UDP on loopback, unix sockets where IPC sockets live, an abstract
 *   socket) that count what reached them;
 * - processes still alive that carry the case's marker (and a way to end exactly those);
 * - where canary secrets ended up: every request the scripted model received, and files.
 */
import { execFileSync } from 'node:child_process';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import type { RecordedRequest } from '../../support/messages-server/scenario';
import type { Entry } from './scene';

export interface Listener {
  /** What a payload dials: `{ port }`, `{ udpPort }`, or `{ path }` for unix sockets. */
  readonly address: { host?: string; port?: number; path?: string; udpPort?: number };
  readonly label: string;
  hits(): number;
  close(): Promise<void>;
}

function countingServer(label: string, listen: (server: Server) => Promise<Listener['address']>, cleanupPath?: string): Promise<Listener> {
  let hits = 0;
  const server = createServer((socket) => {
    hits++;
    socket.on('error', () => undefined);
    socket.destroy();
  });
  return listen(server).then((address) => ({
    address,
    label,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        if (cleanupPath) rmSync(cleanupPath, { force: true });
      }),
  }));
}

/** A TCP listener on `host` (the host's loopback unless told), on a port the kernel picks. */
export const tcpListener = (host = '127.0.0.1'): Promise<Listener> =>
  countingServer(
    `tcp ${host}`,
    (server) =>
      new Promise((ok, fail) => {
        server.once('error', fail);
        server.listen(0, host, () => ok({ host, port: (server.address() as { port: number }).port }));
      }),
  );

/**
 * An IPv4 address of this machine that is not loopback (its LAN or container interface): what a command
 * granted the network reaches this machine's services by, as any other machine on the network would.
 * Undefined on a machine with only loopback.
 */
export function hostAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.')) return a.address;
  }
  return undefined;
}

/** A unix socket at `path` (an abstract one when `path` starts with "\0"). */
export const unixListener = (label: string, path: string): Promise<Listener> =>
  countingServer(
    label,
    (server) =>
      new Promise((ok, fail) => {
        server.once('error', fail);
        server.listen(path, () => ok({ path }));
      }),
    path.startsWith('\0') ? undefined : path,
  );

export function udpListener(): Promise<Listener> {
  let hits = 0;
  const socket: UdpSocket = createSocket('udp4');
  socket.on('message', () => void hits++);
  return new Promise((ok) =>
    socket.bind(0, '127.0.0.1', () =>
      ok({
        address: { udpPort: socket.address().port },
        label: 'udp 127.0.0.1',
        hits: () => hits,
        close: () => new Promise<void>((done) => socket.close(() => done())),
      }),
    ),
  );
}

/** Pids of live processes whose command line carries `marker`. */
export function livingWith(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (cmdline.includes(marker)) out.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** Ends exactly the processes a case started (found by its marker), never anything by name. */
export function killMarked(marker: string): void {
  for (const pid of livingWith(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Where each secret was found: a request, a file that is new or changed since `before`, a git object. */
export function whereIs(
  secret: string,
  places: { requests: RecordedRequest[]; files?: { root: string; before: Map<string, Entry>; after: Map<string, Entry> }; gitDirs?: string[] },
): string[] {
  const found: string[] = [];
  places.requests.forEach((r, i) => {
    if (JSON.stringify(r.body).includes(secret)) found.push(`request #${i} (${r.role ?? '?'}, turn ${r.turn ?? '?'})`);
  });
  if (places.files) {
    const { before, after } = places.files;
    for (const [rel, entry] of after) {
      if (entry.kind !== 'file' || !entry.content.includes(secret)) continue;
      const was = before.get(rel);
      // A secret where it always was is not a leak; anywhere new, it is.
      if (was?.kind === 'file' && was.content.equals(entry.content)) continue;
      found.push(rel);
    }
  }
  for (const repo of places.gitDirs ?? []) {
    try {
      // Commit messages and blobs are zlib-compressed on disk: ask git for every object's content.
      const all = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch'], {
        cwd: repo,
        encoding: 'latin1',
        maxBuffer: 256 * 1024 * 1024,
        env: { PATH: process.env.PATH ?? '' },
      });
      if (all.includes(secret)) found.push(`${join(repo, '.git')} objects`);
    } catch {
      // not a repository any more: nothing to read back
    }
  }
  return found;
}
