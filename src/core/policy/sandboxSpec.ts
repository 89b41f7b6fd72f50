/**
 * The sandbox spec for one command: pure data from the step's policy, a listing of the workspace and a few
 * host facts (no I/O of its own; the lister is injected). Platform runners enforce it (src/node/sandbox).
 * Rules, in order — a later rule wins over an earlier one for the same path:
 *   1. Everything readable, nothing writable (the system, toolchains, the workspace).
 *   2. writable  — the step's write scope (writeScopeOf: edit globs' literal roots, `.git` for git write
 *                  commands); none for the verifier, which only checks. Writes inside it that miss the
 *                  edit globs are rolled back after the command (src/core/tools/commandEffects.ts).
 *   3. read-only — protected paths inside a writable one (node_modules, .vscode, .husky, …; in `.git`, the
 *                  hooks and config, which run code), unless an `allowSensitive` glob grants them.
 *   4. hidden    — secrets (.env*, keys, credentials) unless `allowSensitive` grants them or a read glob names
 *                  them; paths `.planexecuteignore` excludes; our own store `.plan-execute`.
 *   5. outside   — the user's home, other users' homes, the workspace's neighbouring folders and runtime
 *                  sockets are hidden; toolchains on PATH that live there are shown again, read-only,
 *                  without their top-level secret files.
 *   6. network   — only when the step's authority grants it; loopback always works.
 * A writable path that lies inside a read-only or hidden one is dropped (the stricter rule wins).
 */
import picomatch from 'picomatch';
import * as posix from 'node:path/posix';
import type { SandboxEntry, SandboxSpec } from '../contracts/sandbox';
import type { ScanEntry } from '../ports';
import type { Policy } from './policy';
import { PROTECTED_RULES, SECRET_RULES } from './sensitivePaths';
import { pathWithin, patternWritesGit, writeScopeOf } from './writeScope';

/** More overlay mounts than this make the sandbox slow to start (mounts cost grows with their number). */
export const MAX_OVERLAYS = 256;

export interface HostFacts {
  platform: NodeJS.Platform;
  /** The user's real home directory (absolute), if known. */
  home: string | undefined;
  /** PATH entries (absolute). */
  pathEntries: string[];
  /** Names in an absolute directory outside the workspace ([] when unreadable). Used for tool roots only. */
  listDir(abs: string): string[];
}

export interface SandboxSpecInput {
  policy: Policy;
  /** The workspace listing (src/core/tools/workspaceScan.ts), protected and ignored directories not entered. */
  entries: readonly ScanEntry[];
  env: Record<string, string>;
  host: HostFacts;
}

export type SandboxSpecResult = { ok: true; spec: SandboxSpec } | { ok: false; reason: string };

const SENSITIVE = { dot: true, nocase: true } as const;
const secretMatch = picomatch(SECRET_RULES.flatMap((r) => r.globs), SENSITIVE);
const protectedMatch = picomatch(PROTECTED_RULES.filter((r) => r.name !== 'git').flatMap((r) => r.globs), SENSITIVE);
const gitMatch = picomatch(PROTECTED_RULES.filter((r) => r.name === 'git').flatMap((r) => r.globs), SENSITIVE);

/** Our own store: never visible to a command (it holds every checkpoint and tool output). */
export const STORE_DIR = '.plan-execute';

/** True when a directory is, or lies inside, something the glob set protects. */
function coversDir(match: (p: string) => boolean, rel: string): boolean {
  return match(rel) || match(`${rel}/x`);
}

/** A read glob names a secret when it matches it and its last segment is more than wildcards (`**` does not). */
function namedBy(globs: readonly string[], rel: string): boolean {
  return globs.some((g) => {
    const last = g.split('/').pop() ?? '';
    return /[^*?]/.test(last) && picomatch(g, { dot: true })(rel);
  });
}

/** Whether a secret, protected or ignored path is exposed by the mission's explicit grant. */
function granted(policy: Policy, rel: string): boolean {
  return policy.allowSensitiveMatch(rel);
}

/** Where commands may not look: home directories, the workspace's siblings, runtime sockets. */
export function hiddenOutsideOf(root: string, host: HostFacts): string[] {
  const parent = posix.dirname(root);
  const common = [host.home, parent === '/' ? undefined : parent];
  const perPlatform = host.platform === 'darwin' ? ['/Users', '/Volumes'] : ['/home', '/root', '/run', '/var/run', '/mnt', '/media', '/var/tmp'];
  const out = [...common, ...perPlatform].filter((p): p is string => p !== undefined && p !== '/' && posix.isAbsolute(p));
  // An area that IS the workspace or lies inside it is not hidden (the workspace is shown on top anyway).
  return [...new Set(out)].filter((p) => !pathWithinAbs(p, root)).sort();
}

function pathWithinAbs(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith('/') ? outer : `${outer}/`);
}

/**
 * Toolchains on PATH inside a hidden area (nvm, pyenv, cargo under the home): their install root (the
 * parent of a `bin`/`shims` entry) is shown again, read-only. Never the home itself or a hidden area root.
 */
export function toolRootsOf(hiddenOutside: readonly string[], host: HostFacts): { visible: string[]; secrets: string[] } {
  const roots = new Set<string>();
  for (const entry of host.pathEntries) {
    if (!posix.isAbsolute(entry) || !hiddenOutside.some((h) => pathWithinAbs(entry, h))) continue;
    const parent = posix.dirname(entry);
    const useParent = ['bin', 'sbin', 'shims'].includes(posix.basename(entry)) && !hiddenOutside.includes(parent) && parent !== host.home;
    roots.add(useParent ? parent : entry);
  }
  const sorted = [...roots].sort();
  const visible = sorted.filter((r) => !sorted.some((o) => o !== r && pathWithinAbs(r, o)));
  const secrets = visible.flatMap((r) => host.listDir(r).filter((name) => secretMatch(name)).map((name) => posix.join(r, name)));
  return { visible, secrets };
}

/** The command's environment: the scrubbed one, minus variables that point into hidden places. */
function sandboxEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name === 'XDG_RUNTIME_DIR' || name === 'HOME' || name === 'TMPDIR' || name === 'TMP' || name === 'TEMP') continue;
    out[name] = value;
  }
  return out;
}

/** Directories whose contents are installed packages: a bundled `cacert.pem` there is no user secret. */
const DEPENDENCY_DIRS = new Set(['node_modules', '.venv', 'venv', '.tox', '.nox', 'site-packages', 'dist-packages', 'vendor', 'bower_components', '.yarn', '.gradle', '.bundle', 'Pods']);

function underDependencyDir(rel: string): boolean {
  return rel.split('/').slice(0, -1).some((segment) => DEPENDENCY_DIRS.has(segment));
}

/** What a command's write scope is: none for the verifier, which only checks. */
export function commandWriteScope(policy: Policy): string[] {
  return policy.role === 'verifier' ? [] : writeScopeOf(policy.authority);
}

/**
 * Directories the workspace listing need not enter: our store, ignored and protected directories (they
 * are mounted whole), secret directories, git internals below `.git`'s first level, and dependency
 * directories that no write scope reaches (nothing in them is hidden or rolled back).
 */
export function scanPrune(policy: Policy, scope: readonly string[]): (rel: string) => boolean {
  return (rel) => {
    if (rel === STORE_DIR || policy.ignored(rel, true)) return true;
    if (rel === '.git') return false;
    if (rel.startsWith('.git/') || coversDir(gitMatch, rel) || coversDir(protectedMatch, rel) || coversDir(secretMatch, rel)) return true;
    const reached = scope.some((w) => pathWithin(rel, w) || pathWithin(w, rel));
    return DEPENDENCY_DIRS.has(posix.basename(rel)) && !reached;
  };
}

/** An existing entry's kind; a missing one is a file when an edit glob names exactly it, else a directory. */
function writableKind(path: string, entries: readonly ScanEntry[], edit: readonly string[]): 'file' | 'directory' {
  if (path === '' || path === '.git') return 'directory';
  const existing = entries.find((e) => e.path === path);
  if (existing) return existing.kind === 'file' ? 'file' : 'directory';
  return edit.some((g) => g.replace(/^\.\//, '') === path) ? 'file' : 'directory';
}

export function sandboxSpec(input: SandboxSpecInput): SandboxSpecResult {
  const { policy, host } = input;
  const scope = commandWriteScope(policy);
  const inScope = (rel: string): boolean => scope.some((w) => pathWithin(rel, w));
  const gitWritable = scope.length > 0 && policy.authority.commands.some(patternWritesGit);

  const hidden: SandboxEntry[] = [];
  const readOnly: SandboxEntry[] = [];
  for (const e of input.entries) {
    if (e.kind !== 'file' && e.kind !== 'directory') continue; // symlinks: the kernel resolves them inside the sandbox
    const entry: SandboxEntry = { path: e.path, kind: e.kind };
    const isDir = e.kind === 'directory';
    if (hidden.some((h) => pathWithin(e.path, h.path))) continue;
    if (e.path === STORE_DIR || (policy.ignored(e.path, isDir) && !granted(policy, e.path))) {
      hidden.push(entry);
      continue;
    }
    const secret = isDir ? coversDir(secretMatch, e.path) : secretMatch(e.path);
    if (secret && !underDependencyDir(e.path) && !granted(policy, e.path) && !namedBy(policy.authority.read, e.path)) {
      hidden.push(entry);
      continue;
    }
    if (!inScope(e.path) || readOnly.some((r) => pathWithin(e.path, r.path))) continue;
    if (granted(policy, e.path)) continue;
    if (isDir ? coversDir(gitMatch, e.path) : gitMatch(e.path)) {
      // A writable .git keeps only what runs code or redirects git read-only; elsewhere git data is read-only whole.
      const codeRunning = e.path === '.git/hooks' || e.path === '.git/config' || e.path === '.git/modules' || e.path === '.git/info';
      if (!gitWritable || !(e.path === '.git' || e.path.startsWith('.git/')) || codeRunning) readOnly.push(entry);
      continue;
    }
    if (isDir ? coversDir(protectedMatch, e.path) : protectedMatch(e.path)) readOnly.push(entry);
  }
  const blocked = [...readOnly, ...hidden];
  if (blocked.length > MAX_OVERLAYS) {
    return { ok: false, reason: `the sandbox would need ${blocked.length} separate mounts for secret, ignored and protected paths (limit ${MAX_OVERLAYS}); list whole directories in .planexecuteignore instead of single files` };
  }
  const hiddenOutside = hiddenOutsideOf(policy.root, host);
  const tools = toolRootsOf(hiddenOutside, host);
  const byDepth = (a: SandboxEntry, b: SandboxEntry): number => a.path.split('/').length - b.path.split('/').length || a.path.localeCompare(b.path);
  return {
    ok: true,
    spec: {
      root: policy.root,
      writable: scope.filter((w) => !blocked.some((b) => pathWithin(w, b.path))).map((w) => ({ path: w, kind: writableKind(w, input.entries, policy.authority.edit) })),
      readOnly: readOnly.sort(byDepth),
      hidden: hidden.sort(byDepth),
      hiddenOutside: [...hiddenOutside, ...tools.secrets],
      visibleOutside: tools.visible,
      network: policy.authority.network,
      env: sandboxEnv(input.env),
    },
  };
}
