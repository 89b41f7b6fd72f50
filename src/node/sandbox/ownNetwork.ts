/**
 * A granted network as the command's own (Linux, red-team F21 and F28): the sandbox gets a fresh network
 * namespace, and slirp4netns connects it to the outside from user space. The command reaches the
 * internet and the LAN; it does not reach this machine's loopback services (a `node --inspect` port,
 * databases, code-server: `--disable-host-loopback` also closes slirp's 10.0.2.2 alias for them), nor the
 * host's abstract unix sockets (an X server, a D-Bus bus), which live in the host's network namespace.
 *
 * How: `unshare --user --map-root-user --net -- bwrap …` makes a user namespace that owns a new network
 * namespace, bubblewrap runs inside it without `--unshare-net` (its own user namespace nests inside, its
 * mapped ids are the user's, `--uid`/`--gid`), and waits on `--block-fd` until slirp4netns — joining that
 * user namespace, which its creator may do without privileges — has brought the interface up
 * (`--ready-fd`). The resolver inside is slirp's (10.0.2.3), which forwards to the host's own resolver —
 * or, when that is a stub on loopback, the servers the stub forwards to (`sandboxNameservers`).
 * slirp4netns is stopped when the command ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { err, ok, type Result } from '../../core/contracts/result';
import { isDenied, isMissing } from '../fsErrors';

/** The sandbox's DNS forwarder on slirp4netns's default network (10.0.2.0/24). */
const SLIRP_DNS = '10.0.2.3';

/** How long slirp4netns may take to bring the network up before the command is abandoned. */
const READY_TIMEOUT_MS = 10_000;

/** The bubblewrap options that hand the set-up over to us: child pid on fd 4, wait on fd 5. */
export const OWN_NETWORK_FDS = ['--info-fd', '4', '--block-fd', '5'];

/** The command line that puts bubblewrap in a user namespace owning a fresh network namespace. */
export function ownNetworkLauncher(unshare: string, bwrap: string): { file: string; args: string[] } {
  return { file: unshare, args: ['--user', '--map-root-user', '--net', '--', bwrap] };
}

/** Where a local stub resolver's upstream servers are written (systemd-resolved, NetworkManager's dnsmasq). */
const UPSTREAM_RESOLV_FILES = ['/run/systemd/resolve/resolv.conf', '/run/NetworkManager/no-stub-resolv.conf'];

const nameserversIn = (text: string): string[] => [...text.matchAll(/^\s*nameserver\s+(\S+)/gm)].map((m) => m[1] ?? '');
const isIPv4 = (a: string): boolean => /^\d{1,3}(\.\d{1,3}){3}$/.test(a);
const isLoopback = (a: string): boolean => a.startsWith('127.') || a === '0.0.0.0' || a === '::1';

/**
 * The name servers the sandbox's resolver names. slirp's forwarder (10.0.2.3) sends every query to the
 * host's first name server — unless that is a stub on loopback (systemd-resolved's 127.0.0.53, the default
 * on Ubuntu and Fedora; dnsmasq's 127.0.1.1), which `--disable-host-loopback` rightly keeps out of reach, so
 * no name would resolve (red-team F31). Then the upstream servers the stub forwards to are named instead,
 * reached through slirp like any other address (IPv4 only: slirp4netns runs without IPv6). When none is
 * known, slirp's stays, with a note that names will not resolve.
 */
export function sandboxNameservers(hostResolv: string, upstreamResolv: readonly string[]): { servers: string[]; note?: string } {
  const first = nameserversIn(hostResolv)[0];
  if (first === undefined || !isLoopback(first)) return { servers: [SLIRP_DNS] };
  const upstream = [...new Set([...nameserversIn(hostResolv), ...upstreamResolv.flatMap(nameserversIn)])].filter((a) => isIPv4(a) && !isLoopback(a));
  if (upstream.length > 0) return { servers: upstream.slice(0, 3) };
  return {
    servers: [SLIRP_DNS],
    note: `this machine resolves names through ${first}, on its loopback, which a granted network does not reach: names will not resolve inside the command`,
  };
}

/**
 * A resolver configuration for the sandbox (see `sandboxNameservers`), with the host's search domains and
 * options, and where to mount it (the real /etc/resolv.conf, which may be a link into a hidden /run).
 */
export function ownResolver(privateDir: string): { from: string; at: string; note?: string } {
  let at = '/etc/resolv.conf';
  let host = '';
  try {
    at = fs.realpathSync.native('/etc/resolv.conf');
    host = fs.readFileSync(at, 'utf8');
  } catch (error) {
    // No resolver configuration on the host, or one we may not read: ours alone (slirp's forwarder).
    if (!isMissing(error) && !isDenied(error)) throw error;
  }
  const readable = (file: string): string => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (error) {
      // No such stub resolver here (or not readable to us): it names no upstream server.
      if (!isMissing(error) && !isDenied(error)) throw error;
      return '';
    }
  };
  const { servers, note } = sandboxNameservers(host, UPSTREAM_RESOLV_FILES.map(readable));
  const kept = host.split('\n').filter((line) => /^\s*(search|domain|options)\s/.test(line));
  const from = nodePath.join(privateDir, 'resolv.conf');
  fs.writeFileSync(from, [...servers.map((a) => `nameserver ${a}`), ...kept, ''].join('\n'));
  return { from, at, ...(note ? { note } : {}) };
}

/**
 * slirp4netns's command line for the namespaces in `nsDir` (/proc/PID/ns). slirp4netns runs outside the
 * sandbox and parses every packet the command sends, so it confines itself too (red-team F32): an empty
 * root of its own (`--enable-sandbox`) and a seccomp filter (`--enable-seccomp`), as rootless container
 * engines run it — a memory bug in libslirp then does not hand the command this user's files. It reports
 * the interface up on fd 3 and ends when fd 4 closes: with us, if we die before we can stop it (red-team F34).
 */
export function slirpArgs(nsDir: string): string[] {
  return [
    '--configure',
    '--mtu=65520',
    '--disable-host-loopback',
    '--enable-sandbox',
    '--enable-seccomp',
    '--netns-type=path',
    `--userns-path=${nsDir}/user`,
    '--ready-fd=3',
    '--exit-fd=4',
    `${nsDir}/net`,
    'tap0',
  ];
}

/** The command's network, up: `stop` ends slirp4netns. */
interface OwnNetwork {
  stop: () => void;
}

/** Why the command's network could not be brought up (the command is then stopped before it runs). */
interface NetworkSetupFailure {
  reason: string;
}

type NetworkSetup = Result<OwnNetwork, NetworkSetupFailure>;

/**
 * Once bubblewrap (started through `ownNetworkLauncher`, with `OWN_NETWORK_FDS`) has said it is set up,
 * starts slirp4netns on its namespaces, waits until the interface is up, then lets the command start.
 */
export function startOwnNetwork(child: ChildProcess, slirp4netns: string): Promise<NetworkSetup> {
  const pipes: readonly (NodeJS.ReadableStream | NodeJS.WritableStream | null | undefined)[] = child.stdio;
  const info = pipes[4] as NodeJS.ReadableStream | null | undefined;
  const block = pipes[5] as NodeJS.WritableStream | null | undefined;
  return new Promise<NetworkSetup>((resolve) => {
    let slirp: ChildProcess | undefined;
    let done = false;
    let stderr = '';
    const finish = (result: NetworkSetup): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (!result.ok) slirp?.kill('SIGKILL');
      resolve(result);
    };
    const timer = setTimeout(
      () => finish(err({ reason: `slirp4netns did not bring the network up within ${READY_TIMEOUT_MS / 1000} s${stderr ? `: ${stderr.trim()}` : ''}` })),
      READY_TIMEOUT_MS,
    );
    if (!info || !block || child.pid === undefined) {
      finish(err({ reason: 'the sandbox did not open its set-up pipes' }));
      return;
    }
    block.on('error', () => undefined);
    info.once('error', () => undefined);
    // bubblewrap writes its JSON info (the child's pid) once the namespaces exist; then they can be joined.
    info.once('data', () => {
      const ns = `/proc/${child.pid}/ns`;
      slirp = spawn(slirp4netns, slirpArgs(ns), {
        stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
      });
      slirp.stdio[4]?.on('error', () => undefined);
      slirp.stderr?.on('data', (chunk: Buffer) => {
        if (stderr.length < 2000) stderr += chunk.toString('utf8');
      });
      slirp.on('error', (error) => finish(err({ reason: `slirp4netns could not start: ${error.message}` })));
      slirp.on('exit', (code, signal) =>
        finish(err({ reason: `slirp4netns stopped (${code ?? signal})${stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}` })),
      );
      slirp.stdio[3]?.once('data', () => {
        block.end('1');
        const running = slirp;
        finish(ok({ stop: () => running?.kill('SIGTERM') }));
      });
    });
    info.once('close', () => {
      if (slirp === undefined) finish(err({ reason: 'the sandbox ended before its network was set up' }));
    });
  });
}
