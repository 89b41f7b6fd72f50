/**
 * What a command sees of the machine outside the workspace (part of the sandbox spec, sandboxSpec.ts rule
 * 5). Pure: the host facts are passed in. The root is built from an allow list:
 *   1. the system — top-level folders that are the system's or its toolchains' (`SYSTEM_TOP`), and of /var
 *      only caches and package databases; every other top-level folder (`/srv`, `/data`, `/work`…) is hidden;
 *   2. the workspace, with nothing beside it at any depth: its parent is hidden, and so is the shallowest of
 *      its folders whose children are not each a part of the system (`SYSTEM_PARENTS`) — for a workspace
 *      at /opt/x/acme/ws that is /opt/x, so another checkout at /opt/x/globex is as invisible as /opt/x/acme's
 *      other children, while /opt's other installs stay (the workspace is shown again on top);
 *   3. the user's home, other users' homes, runtime sockets — hidden;
 *   4. shown again, read-only: toolchains on PATH inside a hidden area (nvm, pyenv, cargo) without their
 *      top-level secret files; folders the workspace's links lead to (packages linked with `npm link`, and a
 *      dependency folder that is itself a link: `node_modules -> /shared/installs/node_modules`) without
 *      theirs — never the home itself, a hidden area's root, or where credentials live (`SECRET_AREAS`).
 */
import * as posix from 'node:path/posix';
import type { HostFacts } from '../contracts/sandbox';
import type { ScanEntry } from '../ports';
import { isSecret } from './secrets';
import { isWithin, pathsOverlap } from '../primitives/paths';

/** Top-level folders a command sees: the system and its toolchains. Every other one is hidden (`hiddenOutsideOf`). */
const SYSTEM_TOP = new Set([
  'bin',
  'boot',
  'dev',
  'etc',
  'gnu',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'nix',
  'opt',
  'proc',
  'sbin',
  'snap',
  'sys',
  'tmp',
  'usr',
  'var',
]);
/** What a command sees of /var: caches and package databases — not spools, runtime state or services' data. */
const VAR_SHOWN = new Set(['lib', 'cache', 'local', 'opt', 'db', 'empty']);
/** Services in /var/lib whose folders hold their data and sockets. */
const VAR_LIB_HIDDEN = ['docker', 'containerd', 'containers', 'mysql', 'postgresql', 'libvirt', 'lxd', 'lxc', 'redis', 'mongodb', 'rabbitmq', 'snapd'];

/**
 * Folders each of whose children is a part of the system or an install of its own (a toolchain in /opt, a
 * package's state in /var/lib). Below any other folder the children are someone's files — checkouts beside
 * the workspace, a service's data — and the shallowest such folder above the workspace is hidden whole.
 * (/tmp is the command's own private one; a folder in it is hidden inside that.)
 */
const SYSTEM_PARENTS = new Set([
  '/',
  '/usr',
  '/usr/local',
  '/usr/share',
  '/usr/lib',
  '/opt',
  '/var',
  '/var/lib',
  '/var/cache',
  '/var/local',
  '/var/opt',
  '/nix',
  '/nix/store',
  '/gnu',
  '/gnu/store',
  '/snap',
  '/tmp',
]);

/** The shallowest folder above `root` whose children are not the system's (undefined when every one is). */
export function enclosingArea(root: string): string | undefined {
  const parts = root.split('/').filter((p) => p !== '');
  for (let depth = 1; depth < parts.length; depth++) {
    const folder = `/${parts.slice(0, depth).join('/')}`;
    if (!SYSTEM_PARENTS.has(folder)) return folder;
  }
  return undefined;
}

/**
 * Where commands may not look: home directories, the workspace's neighbours at every depth (its parent, and
 * the shallowest non-system folder above it), runtime sockets — and, on Linux, a root built from an allow
 * list: every top-level folder that is not the system's (`/srv`, `/data`, `/work`…) and most of `/var`, so
 * that a unix socket a service keeps at some host path (a database's, an agent's) cannot be reached by a
 * step without network. The workspace and toolchains on PATH are shown again on top where they lie inside.
 */
export function hiddenOutsideOf(root: string, host: HostFacts): string[] {
  const parent = posix.dirname(root);
  const area = host.platform === 'linux' ? enclosingArea(root) : undefined;
  const common = [host.home, parent === '/' || (area !== undefined && isWithin(parent, area)) ? undefined : parent, area, host.runtimeDir];
  const perPlatform = host.platform === 'darwin' ? ['/Users', '/Volumes'] : ['/home', '/root', '/run', '/var/run', '/mnt', '/media', '/var/tmp'];
  const allowList =
    host.platform === 'linux'
      ? [
          ...host
            .listDir('/')
            .filter((n) => !SYSTEM_TOP.has(n))
            .map((n) => `/${n}`),
          ...host
            .listDir('/var')
            .filter((n) => !VAR_SHOWN.has(n))
            .map((n) => `/var/${n}`),
          ...VAR_LIB_HIDDEN.map((n) => `/var/lib/${n}`).filter((p) => host.listDir(posix.dirname(p)).includes(posix.basename(p))),
        ]
      : [];
  // /tmp is never hidden on Linux: the command's own private /tmp replaces it (a tmpfs under it would be
  // remounted read-only, and so would the private one on top).
  const out = [...common, ...perPlatform, ...allowList].filter(
    (p): p is string => p !== undefined && p !== '/' && posix.isAbsolute(p) && !(host.platform === 'linux' && p === '/tmp'),
  );
  // An area that IS the workspace or lies inside it is not hidden (the workspace is shown on top anyway).
  return [...new Set(out)].filter((p) => !isWithin(p, root)).sort();
}

/** The top-level secret files of folders shown again (cargo's `credentials.toml`, a stray `.npmrc`). */
function topSecrets(roots: readonly string[], host: HostFacts): string[] {
  return roots.flatMap((r) =>
    host
      .listDir(r)
      .filter((name) => isSecret(name).secret)
      .map((name) => posix.join(r, name)),
  );
}

/**
 * Toolchains on PATH inside a hidden area (nvm, pyenv, cargo under the home): their install root (the
 * parent of a `bin`/`shims` entry) is shown again, read-only, minus its top-level secret files (cargo's
 * credentials). Never the home itself, a hidden area root, or `~/.local` whole.
 */
export function toolRootsOf(hiddenOutside: readonly string[], host: HostFacts): { visible: string[]; secrets: string[] } {
  const roots = new Set<string>();
  for (const entry of host.pathEntries) {
    if (!posix.isAbsolute(entry) || !hiddenOutside.some((h) => isWithin(entry, h))) continue;
    const parent = posix.dirname(entry);
    const isBin = ['bin', 'sbin', 'shims'].includes(posix.basename(entry));
    if (!isBin || parent === host.home || hiddenOutside.includes(parent)) roots.add(entry);
    else if (posix.basename(parent) === '.local') {
      // ~/.local holds share/ and state/ (histories, keyrings): only its programs and their libraries.
      roots.add(entry);
      roots.add(posix.join(parent, 'lib'));
    } else roots.add(parent);
  }
  const sorted = [...roots].sort();
  const visible = sorted.filter((r) => !sorted.some((o) => o !== r && isWithin(r, o)));
  return { visible, secrets: topSecrets(visible, host) };
}

/** Areas outside the workspace never shown again, even as a link's target: where credentials live. */
export const SECRET_AREAS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config',
  '.docker',
  '.kube',
  '.azure',
  '.password-store',
  '.local/share/keyrings',
  '.netrc',
  '.npmrc',
  '.pypirc',
];

/** Dependency folders that are often a link to a shared install (containers, monorepos, shared caches). */
const LINKED_DEPENDENCY_DIRS = new Set(['node_modules', '.venv', 'venv', 'vendor', 'bower_components']);

/** Links looked at in one `node_modules`, at most (a link each is one mount). */
const LINKED_PACKAGES_MAX = 2000;

/**
 * Folders the workspace's links lead to outside it, shown again read-only so the links lead somewhere:
 * packages linked into `node_modules` (`npm link`, pnpm's and yarn's workspace links:
 * `node_modules/foo -> ../../elsewhere/foo`), and dependency folders that are themselves links
 * (`node_modules -> /shared/installs/node_modules`: `npx tsc` must find the shared install, not ask the
 * registry). Not the home itself, a hidden area's root, or where credentials live; each shown folder's
 * top-level secret files stay hidden.
 */
export function linkedOutsideOf(
  root: string,
  entries: readonly ScanEntry[],
  hiddenOutside: readonly string[],
  host: HostFacts,
): { visible: string[]; secrets: string[] } {
  const linkTarget = host.linkTarget;
  if (!linkTarget) return { visible: [], secrets: [] };
  const safe = (p: string): boolean =>
    !isWithin(p, root) &&
    p !== '/' &&
    p !== host.home &&
    !hiddenOutside.includes(p) &&
    !(host.home !== undefined && isWithin(host.home, p)) &&
    !(host.home !== undefined && SECRET_AREAS.some((a) => pathsOverlap(p, posix.join(host.home as string, a))));
  const out = new Set<string>();
  /** Shows where a link leads: its real folder, and its first hop (`npm link` goes through the global folder). */
  const follow = (link: string): void => {
    const real = linkTarget(link);
    if (real === undefined) return;
    const hop = host.linkHop?.(link);
    const shown = [real, ...(hop !== undefined && hop !== real ? [hop] : [])];
    if (!shown.every(safe)) return;
    for (const p of shown) if (hiddenOutside.some((h) => isWithin(p, h))) out.add(p); // else visible anyway
  };
  const linkedDirs = entries.filter((e) => e.kind === 'symlink' && LINKED_DEPENDENCY_DIRS.has(posix.basename(e.path))).map((e) => posix.join(root, e.path));
  for (const link of linkedDirs) follow(link);
  const modules = posix.join(root, 'node_modules');
  const names = host.listDir(modules).flatMap((n) => (n.startsWith('@') ? host.listDir(posix.join(modules, n)).map((m) => `${n}/${m}`) : [n]));
  for (const name of names.slice(0, LINKED_PACKAGES_MAX)) follow(posix.join(modules, name));
  const sorted = [...out].sort();
  const visible = sorted.filter((r) => !sorted.some((o) => o !== r && isWithin(r, o)));
  return { visible, secrets: topSecrets(visible, host) };
}
