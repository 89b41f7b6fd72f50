/**
 * The bubblewrap command line for one sandbox spec (Linux). Pure: the runner (confinedRun.ts) checks the
 * paths on disk first and passes only those that exist, with their kinds.
 *
 * Why bubblewrap directly, not @anthropic-ai/sandbox-runtime (evaluated, 0.0.83): the runtime takes a
 * shell string (our commands are argv, checked as argv by the policy — a shell in between re-opens what
 * the policy closed), routes any network through host proxies that need socat and honour only proxy-aware
 * clients (a boolean grant must be the real network or none), keeps its policy in a process-wide
 * singleton, and asks for Node 22. bubblewrap takes the per-step policy as plain arguments, in ~5 ms.
 *
 * Mount order matters — a later mount covers an earlier one:
 *   namespaces (user without nested user namespaces, pid, ipc, uts, cgroup, and net unless granted — a
 *   granted network of its own is made around bubblewrap instead, see ownNetwork.ts);
 *   the whole file system read-only; fresh /dev and /proc (the parent's /proc is not visible), and in that
 *   /dev a staged command's rename helper (renameShim.ts), preloaded through LD_PRELOAD;
 *   hidden areas outside the workspace (empty tmpfs, or /dev/null over a file); the private HOME and /tmp;
 *   toolchains shown again read-only; the workspace read-only; its writable paths, the read-only paths
 *   inside them and the private build outputs (each a copy bound over its folder), together, shallowest first (a folder root's subfolder is read-only, a write root below it
 *   writable again); hidden workspace entries; and last, every hiding tmpfs remounted read-only (only then:
 *   mounts that land inside one need to create their mount points first).
 * `--die-with-parent` and the pid namespace make sure nothing the command starts outlives it;
 * `--new-session` keeps it from pushing keystrokes into our terminal (TIOCSTI).
 */
import * as posix from 'node:path/posix';
import { OWN_NETWORK_FDS } from './ownNetwork';
import { isBelow } from '../../core/primitives/paths';

export interface BwrapMounts {
  root: string;
  /** Absolute paths, existing. */
  writable: string[];
  readOnly: string[];
  hidden: { path: string; kind: 'file' | 'directory' }[];
  hiddenOutside: { path: string; kind: 'file' | 'directory' }[];
  visibleOutside: string[];
  /** Absolute, existing; bound writable after the visible ones, then `readOnlyOutside` inside them. */
  writableOutside?: string[];
  readOnlyOutside?: string[];
  network: boolean;
  /**
   * Private build outputs (privateOutputs.ts): each private copy `from`, bound writable at the workspace
   * path `at` — layered with the writable and read-only paths, so a write root inside one is bound after it.
   */
  privateOutputs?: { from: string; at: string }[];
  /** Where the private home is mounted (the user's real home path), and its host directory. */
  home: { at: string; from: string } | undefined;
  /** The host directory mounted at /tmp. */
  tmp: string;
  /** Files to show again read-only when the network is granted (the resolver config behind a symlink). */
  networkFiles: string[];
  /**
   * A granted network that is the command's own (ownNetwork.ts): bubblewrap then runs inside a user
   * namespace that already owns a fresh network namespace, keeps the user's ids, waits for slirp4netns,
   * and gets a resolver naming slirp's DNS forwarder instead of `networkFiles`.
   */
  ownNetwork?: { uid: number; gid: number; resolver: { from: string; at: string } };
  /**
   * The user's own ids inside, when bubblewrap starts in a user namespace where it is root (a staged
   * command's, stagedLaunch.ts): the command then sees the ids it has outside, as without staging.
   */
  keepIds?: { uid: number; gid: number };
  /** The descriptor bubblewrap reads the seccomp filter from (seccomp.ts), when there is one. */
  seccompFd?: number;
  /** A library every process of the command preloads (a staged command's rename helper, renameShim.ts): bound read-only at `at`. */
  preload?: { from: string; at: string };
  cwd: string;
}

/**
 * Hides one entry: a file under /dev/null, a folder under an empty tmpfs. The tmpfs is made read-only
 * only at the very end (`remounts`): mounts that land inside it later (the workspace when its parent is
 * hidden, a toolchain under a hidden folder) need to create their mount points first.
 */
function hide(entry: { path: string; kind: 'file' | 'directory' }, remounts: string[]): string[] {
  if (entry.kind === 'file') return ['--ro-bind', '/dev/null', entry.path];
  remounts.push(entry.path);
  return ['--tmpfs', entry.path];
}

const depth = (p: string): number => p.split('/').length;
const shallowFirst = <T extends { path: string } | string>(items: T[]): T[] =>
  [...items].sort((a, b) => {
    const pa = typeof a === 'string' ? a : a.path;
    const pb = typeof b === 'string' ? b : b.path;
    return depth(pa) - depth(pb) || (pa < pb ? -1 : pa > pb ? 1 : 0);
  });

function idArgs(m: BwrapMounts): string[] {
  const ids = m.network && m.ownNetwork ? m.ownNetwork : m.keepIds;
  return ids ? ['--uid', String(ids.uid), '--gid', String(ids.gid)] : [];
}

/** The options (mounts, namespaces); the command follows them after `--`. */
export function bwrapOptions(m: BwrapMounts): string[] {
  const args = [
    '--unshare-user',
    '--disable-userns',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(m.network ? [] : ['--unshare-net']),
    ...(m.network && m.ownNetwork ? OWN_NETWORK_FDS : []),
    ...idArgs(m),
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    ...(m.seccompFd !== undefined ? ['--seccomp', String(m.seccompFd)] : []),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...(m.preload ? ['--ro-bind', m.preload.from, m.preload.at, '--setenv', 'LD_PRELOAD', m.preload.at] : []),
  ];
  const remounts: string[] = [];
  const inVisible = (p: string): boolean => m.visibleOutside.some((v) => isBelow(p, v));
  // Hidden areas and the private /tmp and home, shallowest first: /home is hidden before the private home
  // lands in it, and the private /tmp before a hidden folder inside it (the workspace's parent).
  const areas: { path: string; args: () => string[] }[] = [
    ...m.hiddenOutside.filter((e) => !(m.home && e.path === m.home.at) && !inVisible(e.path)).map((e) => ({ path: e.path, args: () => hide(e, remounts) })),
    { path: '/tmp', args: () => ['--bind', m.tmp, '/tmp'] },
    ...(m.home ? [{ path: m.home.at, args: () => ['--bind', m.home!.from, m.home!.at] }] : []),
  ];
  for (const area of shallowFirst(areas)) args.push(...area.args());
  for (const dir of shallowFirst(m.visibleOutside)) args.push('--ro-bind', dir, dir);
  for (const dir of shallowFirst(m.writableOutside ?? [])) args.push('--bind', dir, dir);
  for (const p of shallowFirst(m.readOnlyOutside ?? [])) args.push('--ro-bind', p, p);
  // A toolchain's own secret files (e.g. a credentials file in its root) stay hidden.
  for (const entry of shallowFirst(m.hiddenOutside)) if (inVisible(entry.path)) args.push(...hide(entry, remounts));
  if (m.network && m.ownNetwork) args.push('--ro-bind', m.ownNetwork.resolver.from, m.ownNetwork.resolver.at);
  else if (m.network) for (const file of m.networkFiles) args.push('--ro-bind', file, file);
  args.push('--ro-bind', m.root, m.root);
  // At equal depth two mounts never share a path (the spec drops a write root that a read-only path covers).
  const layered = [
    ...m.writable.map((path) => ({ path, flag: '--bind', from: path })),
    ...m.readOnly.map((path) => ({ path, flag: '--ro-bind', from: path })),
    ...(m.privateOutputs ?? []).map((p) => ({ path: p.at, flag: '--bind', from: p.from })),
  ];
  for (const { path, flag, from } of shallowFirst(layered)) args.push(flag, from, path);
  for (const h of shallowFirst(m.hidden)) args.push(...hide(h, remounts));
  // Deepest first: a read-only parent would not let its child be remounted.
  for (const dir of [...remounts].sort((a, b) => depth(b) - depth(a))) args.push('--remount-ro', dir);
  args.push('--chdir', m.cwd);
  return args;
}

export function bwrapArgs(m: BwrapMounts, argv: readonly string[]): string[] {
  return [...bwrapOptions(m), '--', ...argv];
}

/** Absolute path of a workspace-relative spec path. */
export function inWorkspace(root: string, rel: string): string {
  return rel === '' ? root : posix.join(root, rel);
}
