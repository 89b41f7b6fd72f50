/**
 * The sandbox spec for one command: pure data from the step's policy, a listing of the workspace and a few
 * host facts (no I/O of its own; the lister is injected). Platform runners enforce it (src/node/sandbox).
 * Rules, in order — a later rule wins over an earlier one for the same path:
 *   1. Everything readable, nothing writable (the system, toolchains, the workspace).
 *   2. writable  — the step's write scope (writeScopeOf: edit globs' literal roots, `.git` for git write
 *                  commands), each root a directory; none for the verifier, which only checks. Writes
 *                  inside it that miss the edit globs are rolled back after the command
 *                  (src/core/tools/commandEffects.ts).
 *   3. read-only — every existing subfolder of a `folder` root (it may write that folder's direct entries
 *                  only), unless it is a write root itself; protected paths inside a writable one
 *                  (node_modules, .vscode, .husky, …; in `.git`, the hooks and config, which run code),
 *                  unless an `allowSensitive` glob grants them; and any file there with more than one hard
 *                  link (its other paths may lie outside).
 *   4. hidden    — secrets (.env*, keys, credentials) unless `allowSensitive` grants them or a read glob names
 *                  them; paths `.planexecuteignore` excludes; our own store `.plan-execute`.
 *   5. outside   — the root from an allow list (outsideView.ts): the system and the workspace; the user's
 *                  home, other users' homes, the workspace's neighbours at every depth and runtime sockets
 *                  are hidden; toolchains on PATH that live there are shown again, read-only, without their
 *                  top-level secret files, and so are the folders the workspace's links lead to (`npm
 *                  link`, a linked `node_modules`); so is a worktree's repository (linkedGitOf), whose git
 *                  data a step granted git writes may write, and a local remote's git data for a step that may
 *                  fetch (gitRemotes.ts).
 *   6. network   — only when the step's authority grants it; loopback always works.
 *   7. private   — build outputs (buildOutputs.ts: the folders git ignores, existing or named by a pattern)
 *                  that are not writable already, not protected, not a dependency folder and not hidden:
 *                  each command writes a private copy of them, which never reaches the workspace
 *                  (src/node/sandbox/privateOutputs.ts; read-only where the platform cannot bind one).
 * A writable root that lies inside a protected or hidden path is dropped (the stricter rule wins). A write
 * root may lie inside a folder root's read-only subfolder (`src/a.js` with `src/gen/**`): mounts then
 * nest, and the deepest one that holds a path decides it (`writableAt`; at equal depth, read-only wins).
 */
import picomatch from 'picomatch';
import * as posix from 'node:path/posix';
import type { HostFacts, SandboxEntry, SandboxSpec } from '../contracts/sandbox';
import type { ScanEntry } from '../ports';
import { gitIgnoredFolders, ignoreFilesIn } from './buildOutputs';
import { globMatcher } from './globMatcher';
import type { Policy } from './policy';
import { isSecret, isSecretFolder, PEEK_BYTES } from './secrets';
import { hiddenOutsideOf, linkedOutsideOf, SECRET_AREAS, toolRootsOf } from './outsideView';
import { PROTECTED_RULES } from './sensitivePaths';
import { GIT_DATA_NAMES, isWorktreeData } from './gitData';
import { localRemotesShown } from './gitRemotes';
import { patternWritesGit, writeScopeOf, type WriteRoot } from './writeScope';
import { isWithin, isWithinAny } from '../primitives/paths';
import { err, ok, type Result } from '../contracts/result';

/** More overlay mounts than this make the sandbox slow to start (mounts cost grows with their number). */
const MAX_OVERLAYS = 256;

export type { HostFacts } from '../contracts/sandbox';

/** Facts for a terminal that gives none (tests' fakes): no home, no PATH, nothing to read. */
export function noHostFacts(platform: NodeJS.Platform): HostFacts {
  return { platform, home: undefined, pathEntries: [], listDir: () => [] };
}

/** A git worktree's repository, outside the workspace: its own git folder and the shared one. */
interface LinkedGit {
  gitDir: string;
  commonDir: string;
}

/** The workspace's `.git` entry: a scan lists the root's names first, so the search stops there (a path comes once). */
function gitEntryOf(entries: readonly ScanEntry[]): ScanEntry | undefined {
  return entries.find((e) => e.path === '.git');
}

/**
 * The repository behind a worktree's `.git` file (`gitdir: …`), trusted only when it points back: the
 * folder's own `gitdir` file must name this workspace's `.git`, and it must sit in the shared folder's
 * `worktrees/`. A repository can ship any `.git` file; this way one naming `~/.ssh` shows nothing.
 */
function linkedGitOf(root: string, entries: readonly ScanEntry[], host: HostFacts): LinkedGit | undefined {
  if (!host.readText || gitEntryOf(entries)?.kind !== 'file') return undefined;
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(host.readText(posix.join(root, '.git')) ?? '')?.[1];
  if (!pointer) return undefined;
  const gitDir = posix.resolve(root, pointer);
  if (host.readText(posix.join(gitDir, 'gitdir'))?.trim() !== posix.join(root, '.git')) return undefined;
  const common = host.readText(posix.join(gitDir, 'commondir'))?.trim();
  const commonDir = common ? posix.resolve(gitDir, common) : gitDir;
  if (commonDir !== gitDir && posix.dirname(gitDir) !== posix.join(commonDir, 'worktrees')) return undefined;
  return { gitDir, commonDir };
}

export interface SandboxSpecInput {
  policy: Policy;
  /**
   * The command writes a staging layer (src/node/sandbox/stagedLaunch.ts), not the workspace: the whole
   * workspace is writable in the layer — the judge, not the mounts, decides what reaches the user
   * (src/core/tools/stagedJudge.ts) — save what stays read-only or hidden (rules 3–4); no private outputs
   * (the layer keeps them for the step).
   */
  staged?: boolean;
  /** The workspace listing (src/core/tools/workspaceScan.ts), protected and ignored directories not entered. */
  entries: readonly ScanEntry[];
  env: Record<string, string>;
  host: HostFacts;
  /** Kept by the caller between the commands of one step (see SpecMemo); the entries must come from a memoized scan. */
  memo?: SpecMemo;
}

/** The spec, or why the sandbox cannot be built for this step (a sentence for the user). */
export type SandboxSpecResult = Result<SandboxSpec, string>;

const SENSITIVE = { dot: true, nocase: true } as const;
/** A folder that is a secret as a whole (a credential store such as `.ssh`); other folders are judged file by file. */
const secretFolder = (rel: string): boolean => isSecretFolder(rel).secret;
const protectedMatch = globMatcher(
  PROTECTED_RULES.filter((r) => r.name !== 'git').flatMap((r) => r.globs),
  SENSITIVE,
);
/**
 * Staged, installed dependencies are writable in the layer: what a command writes there (a tool's cache in
 * node_modules/.cache, a rebuilt native module) stays private to the step (stagedJudge.ts), never the workspace's.
 */
const protectedStagedMatch = globMatcher(
  PROTECTED_RULES.filter((r) => r.name !== 'git' && r.name !== 'dependencies').flatMap((r) => r.globs),
  SENSITIVE,
);
const gitMatch = globMatcher(
  PROTECTED_RULES.filter((r) => r.name === 'git').flatMap((r) => r.globs),
  SENSITIVE,
);

/** Our own store: never visible to a command (it holds every checkpoint and tool output). */
const STORE_DIR = '.plan-execute';

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

/** Verdicts `isSecret` reached from a path's name alone, kept across commands (a spec is built per command). */
const secretByName = new Map<string, boolean>();
const SECRET_BY_NAME_MAX = 400_000;

/**
 * Whether a workspace file is a secret (secrets.ts). A verdict reached without a peek is a pure function of
 * the path, so it is remembered: a command over a workspace of 50,000 files does not judge 50,000 names
 * again. One that needed the file's content is judged anew each time (the content may have changed).
 */
function secretFile(path: string, peek: (rel: string) => string | undefined): boolean {
  const known = secretByName.get(path);
  if (known !== undefined) return known;
  let peeked = false;
  const secret = isSecret(path, (r) => {
    peeked = true;
    return peek(r);
  }).secret;
  if (!peeked) {
    if (secretByName.size >= SECRET_BY_NAME_MAX) secretByName.clear();
    secretByName.set(path, secret);
  }
  return secret;
}

/**
 * Without a network grant, package managers are told they are offline, so that one that needs the network
 * fails at once ("not in the cache") instead of retrying until the command times out (`npx` of a package
 * not installed waited out the whole timeout). A value the user set wins.
 */
const OFFLINE_ENV: Record<string, string> = {
  npm_config_offline: 'true',
  npm_config_fetch_retries: '0',
  YARN_ENABLE_OFFLINE_MODE: '1',
  PIP_RETRIES: '0',
  PIP_TIMEOUT: '3',
  UV_OFFLINE: '1',
  CARGO_NET_OFFLINE: 'true',
  GOPROXY: 'off',
};

/** The command's environment: the scrubbed one, minus variables that point into hidden places. */
function sandboxEnv(env: Record<string, string>, network: boolean): Record<string, string> {
  const out: Record<string, string> = network ? {} : { ...OFFLINE_ENV };
  for (const [name, value] of Object.entries(env)) {
    if (name === 'XDG_RUNTIME_DIR' || name === 'HOME' || name === 'TMPDIR' || name === 'TMP' || name === 'TEMP') continue;
    out[name] = value;
  }
  return out;
}

/** Directories whose contents are installed packages: a bundled `cacert.pem` there is no user secret. */
const DEPENDENCY_DIRS = new Set([
  'node_modules',
  '.venv',
  'venv',
  '.tox',
  '.nox',
  'site-packages',
  'dist-packages',
  'vendor',
  'bower_components',
  '.yarn',
  '.gradle',
  '.bundle',
  'Pods',
]);

function underDependencyDir(rel: string): boolean {
  return rel
    .split('/')
    .slice(0, -1)
    .some((segment) => DEPENDENCY_DIRS.has(segment));
}

/** Folders never made private, whatever git says: installed code and environments (large, and run). */
const NEVER_PRIVATE = new Set([...DEPENDENCY_DIRS, '.direnv'].map((d) => d.toLowerCase()));

/** More private outputs than this, and the rest stay read-only (each is a copy and a mount per command). */
const MAX_PRIVATE_OUTPUTS = 16;

/**
 * The build outputs a command writes privately (rule 7): the folders git ignores, minus what is writable
 * already (the write scope), protected (`.git`, `.vscode`, node_modules…), a dependency folder, hidden
 * (secrets, `.planexecuteignore`, our store) or inside one of those. A repository that names `src` in its
 * `.gitignore` only gets a private copy of `src` for its commands — nothing reaches the workspace.
 */
function privateOutputsOf(
  input: SandboxSpecInput,
  inScope: (rel: string) => boolean,
  hidden: readonly SandboxEntry[],
  linked: LinkedGit | undefined,
): string[] {
  const { policy, host, entries } = input;
  const read = host.readIgnoreFile;
  if (read === undefined) return [];
  const files = ignoreFilesIn(entries).flatMap((rel) => {
    const text = read(posix.join(policy.root, rel));
    const dir = posix.dirname(rel);
    return text === undefined ? [] : [{ dir: dir === '.' ? '' : dir, text }];
  });
  const gitDir = linked?.commonDir ?? (entries.some((e) => e.path === '.git' && e.kind === 'directory') ? posix.join(policy.root, '.git') : undefined);
  const exclude = gitDir === undefined ? undefined : read(posix.join(gitDir, 'info', 'exclude'));
  if (files.length === 0 && exclude === undefined) return [];
  const { folders } = gitIgnoredFolders(entries, files, exclude);
  return folders
    .filter(
      (rel) =>
        !inScope(rel) &&
        !rel.split('/').some((segment) => NEVER_PRIVATE.has(segment.toLowerCase())) &&
        !coversDir(protectedMatch, rel) &&
        !coversDir(gitMatch, rel) &&
        !secretFolder(rel) &&
        !isWithin(rel, STORE_DIR) &&
        !policy.ignored(rel, true) &&
        !hidden.some((h) => isWithin(rel, h.path)),
    )
    .slice(0, MAX_PRIVATE_OUTPUTS);
}

/** What a command's write scope is: none for the verifier, which only checks. */
export function commandWriteScope(policy: Policy): WriteRoot[] {
  return policy.role === 'verifier' ? [] : writeScopeOf(policy.authority);
}

/**
 * What git writes as data, accepted after a direct command as it is (not checkpointed): git's data names
 * (gitData.ts), the lock files a command that was stopped leaves beside them, and what `git gc` leaves.
 * Anything else new or changed in `.git` is undone, the state of an unfinished rebase included.
 */
const GIT_DATA = new Set([...GIT_DATA_NAMES, 'index.lock', 'HEAD.lock', 'packed-refs.lock', 'gc.pid', 'gc.log', 'lost-found']);

/** Whether a path is git's own data in the workspace's `.git` folder. */
export function isGitData(rel: string): boolean {
  if (!rel.startsWith('.git/')) return false;
  return GIT_DATA.has(rel.slice('.git/'.length).split('/')[0] ?? '') || isWorktreeData(rel);
}

/**
 * Whether this step's commands may write the repository (`git commit`, …) — its scope then holds `.git`.
 * Only an existing repository: a `.git` a command creates is judged path by path like any other new
 * folder (and, being protected, undone whole — never half a repository).
 */
export function gitWritableFor(policy: Policy, entries?: readonly ScanEntry[]): boolean {
  const mayWriteGit = commandWriteScope(policy).length > 0 && policy.authority.commands.some(patternWritesGit);
  return mayWriteGit && (entries === undefined || gitEntryOf(entries)?.kind === 'directory');
}

/**
 * Directories the workspace listing need not enter: our store and ignored paths (hidden whole), secret
 * folders (hidden whole), dependency folders no write scope reaches (node_modules is mounted read-only
 * whole), git's data, and `.git` itself unless the step may write it. Protected folders such as `.vscode`
 * or `.devcontainer` ARE entered: a `.env` inside them must be found to be hidden.
 */
export function scanPrune(policy: Policy, scope: readonly WriteRoot[], staged = false): (rel: string) => boolean {
  const gitWritable = gitWritableFor(policy);
  return (rel) => {
    if (rel === STORE_DIR || policy.ignored(rel, true) || secretFolder(rel)) return true;
    if (rel === '.git') return !gitWritable;
    if (rel.startsWith('.git/')) return isGitData(rel) || rel === '.git/modules' || rel === '.git/worktrees';
    if (coversDir(gitMatch, rel)) return true; // a nested repository's .git
    const base = posix.basename(rel);
    if (base === 'node_modules') return true;
    // A folder root reaches no existing subfolder (each is mounted read-only whole); a tree root reaches all.
    const reached = scope.some((w) => isWithin(w.path, rel) || (w.kind === 'tree' && isWithin(rel, w.path)));
    // Staged, nothing needs a dependency folder's content listed: a write there stays in the layer or is judged there.
    return DEPENDENCY_DIRS.has(base) && (staged || !reached);
  };
}

/** Depth of a workspace path: '' is 0, `src` 1, `src/a` 2. */
const depthOf = (rel: string): number => (rel === '' ? 0 : rel.split('/').length);

/**
 * Whether the mounts leave a path writable: the deepest mount that holds it decides, and at equal depth a
 * read-only or hidden one wins over a writable one (a folder root's subfolder is read-only, a write root
 * below it writable again).
 */
function writableAt(rel: string, writable: readonly string[], blocked: readonly string[]): boolean {
  let w = -1;
  let b = -1;
  for (const p of writable) if (isWithin(rel, p)) w = Math.max(w, depthOf(p));
  for (const p of blocked) if (isWithin(rel, p)) b = Math.max(b, depthOf(p));
  return w >= 0 && w > b;
}

/** What, inside the write scope, a command cannot change: what its mounts keep (read-only, hidden), our store, git's data. */
export function untouchableIn(spec: Pick<SandboxSpec, 'writable' | 'readOnly' | 'hidden'>, gitWritable: boolean): (rel: string) => boolean {
  const writable = spec.writable.map((e) => e.path);
  const blocked = [...spec.readOnly, ...spec.hidden].map((e) => e.path);
  return (rel) => isWithin(rel, STORE_DIR) || !writableAt(rel, writable, blocked) || (gitWritable && isGitData(rel));
}

/** More read-only subfolders of folder roots than this, and the step is refused (each is one mount). */
const MAX_FOLDER_SUBFOLDERS = 256;

/**
 * The existing subfolders of each folder root, to be mounted read-only so the command writes the folder's
 * direct entries only — except those that are write roots themselves. Links are not bound (the kernel
 * resolves them inside the sandbox, where their targets are read-only anyway).
 */
function folderSubfolders(scope: readonly WriteRoot[], entries: readonly ScanEntry[]): SandboxEntry[] {
  const folders = new Set(scope.filter((r) => r.kind === 'folder').map((r) => r.path));
  if (folders.size === 0) return [];
  const roots = new Set(scope.map((r) => r.path));
  return entries
    .filter((e) => e.kind === 'directory' && folders.has(posix.dirname(e.path) === '.' ? '' : posix.dirname(e.path)) && !roots.has(e.path))
    .map((e) => ({ path: e.path, kind: 'directory' as const }));
}

/** What the spec does with one workspace entry, whatever lies above it. */
type EntryVerdict = 'hidden' | 'readOnly' | 'none';

/**
 * What the spec remembers between the commands of one step (same policy): the verdict on each entry object
 * the scan hands back again (ScanOptions.memo), for as long as git's writability stays the same. A verdict
 * that needed a peek at a file's content is never remembered.
 */
export interface SpecMemo {
  gitWritable?: boolean;
  verdicts: WeakMap<ScanEntry, EntryVerdict>;
  /**
   * The last entry list judged, and what it came to: a memoized scan of a workspace whose folders did not
   * move hands back the same (frozen) list, and then the walk below would meet the same entries, with the
   * same remembered verdicts, in the same order — only the verdicts that needed a peek are judged again.
   */
  last?: { entries: readonly ScanEntry[]; judged: Judged };
  /** The links of the last (frozen) list. */
  symlinks?: { entries: readonly ScanEntry[]; links: readonly ScanEntry[] };
}

/** What the walk over the entries comes to: what is hidden, what is read-only, and the verdicts a peek decided. */
interface Judged {
  hidden: SandboxEntry[];
  readOnly: SandboxEntry[];
  peeked: [ScanEntry, EntryVerdict][];
}

/**
 * The rules of the header (3, 4) for one entry, in their order: hidden (our store, ignored, secrets), then
 * read-only inside the write scope (hard links unstaged, git, protected paths, what git config runs).
 */
function entryJudge(
  input: SandboxSpecInput,
  inScope: (rel: string) => boolean,
  scope: readonly WriteRoot[],
  gitWritable: boolean,
): (e: ScanEntry) => { verdict: EntryVerdict; peeked: boolean } {
  const { policy } = input;
  const staged = input.staged === true;
  const protects = staged ? protectedStagedMatch : protectedMatch;
  return (e) => {
    const isDir = e.kind === 'directory';
    let peeked = false;
    const said = (verdict: EntryVerdict): { verdict: EntryVerdict; peeked: boolean } => ({ verdict, peeked });
    if (e.path === STORE_DIR || (policy.ignored(e.path, isDir) && !granted(policy, e.path))) return said('hidden');
    // What a file is, not its name alone (secrets.ts): a peek at its start where a rule needs it.
    const secret = isDir
      ? secretFolder(e.path)
      : secretFile(e.path, (r) => {
          peeked = true;
          return policy.fs.readTextSync(posix.join(policy.root, r), PEEK_BYTES);
        });
    if (secret && !underDependencyDir(e.path) && !granted(policy, e.path) && !namedBy(policy.authority.read, e.path)) return said('hidden');
    // Read-only matters inside the write scope, and for a protected folder that holds part of it.
    if (!(inScope(e.path) || scope.some((w) => isWithin(w.path, e.path)))) return said('none');
    // (In a staged layer a write copies the file up: its other paths are never written.)
    // A hard link: writing it in place writes its other paths too (outside the scope, even the home).
    if (!staged && e.kind === 'file' && (e.links ?? 1) > 1 && inScope(e.path)) return said('readOnly');
    if (granted(policy, e.path)) return said('none');
    if (isDir ? coversDir(gitMatch, e.path) : gitMatch(e.path)) {
      // A writable .git (a folder, not a worktree's .git file) keeps what runs code or redirects git
      // read-only (what appears there anew is undone after the command); elsewhere git paths are read-only whole.
      const ownGit = e.path === '.git' ? isDir : e.path.startsWith('.git/');
      // Staged, `.git/config` and `.git/worktrees` are writable in the layer: the judge takes only what a
      // branch operation or `git worktree add` writes (stagedJudge.ts, stagedWorktrees.ts).
      const codeRunning = ['.git/hooks', '.git/modules', '.git/info', '.git/commondir', ...(staged ? [] : ['.git/config', '.git/worktrees'])].includes(e.path);
      return said(!gitWritable || !ownGit || codeRunning ? 'readOnly' : 'none');
    }
    if (isDir ? coversDir(protects, e.path) : protects(e.path)) return said('readOnly');
    return said(policy.gitCodePaths.some((c) => isWithin(e.path, c)) ? 'readOnly' : 'none');
  };
}

/**
 * Walks the entries with the judge: what is hidden (and nothing below it), what is read-only (its topmost
 * entry only). With a memo, a verdict already given to an entry object is taken again (never one a peek
 * decided), and the same entry list as last time comes to the same result unless a peek now says otherwise.
 */
function judgeEntries(
  entries: readonly ScanEntry[],
  judge: (e: ScanEntry) => { verdict: EntryVerdict; peeked: boolean },
  given: SpecMemo | undefined,
  gitWritable: boolean,
): Pick<Judged, 'hidden' | 'readOnly'> {
  const memo = given && (given.gitWritable === gitWritable ? given : Object.assign(given, { gitWritable, verdicts: new WeakMap(), last: undefined }));
  const last = memo?.last;
  if (last?.entries === entries && last.judged.peeked.every(([e, verdict]) => judge(e).verdict === verdict))
    return { hidden: [...last.judged.hidden], readOnly: [...last.judged.readOnly] };
  const judged: Judged = { hidden: [], readOnly: [], peeked: [] };
  // Looked up by a path's own folders: linear in the entries however many are hidden or read-only.
  const hiddenAt = new Set<string>();
  const readOnlyAt = new Set<string>();
  for (const e of entries) {
    if (e.kind !== 'file' && e.kind !== 'directory') continue; // symlinks: the kernel resolves them inside the sandbox
    if (isWithinAny(e.path, hiddenAt)) continue;
    let verdict = memo?.verdicts.get(e);
    if (verdict === undefined) {
      const said = judge(e);
      verdict = said.verdict;
      if (said.peeked) judged.peeked.push([e, verdict]);
      else memo?.verdicts.set(e, verdict);
    }
    if (verdict === 'hidden') {
      judged.hidden.push({ path: e.path, kind: e.kind });
      hiddenAt.add(e.path);
    } else if (verdict === 'readOnly' && !isWithinAny(e.path, readOnlyAt)) {
      judged.readOnly.push({ path: e.path, kind: e.kind });
      readOnlyAt.add(e.path);
    }
  }
  // Only a frozen list (a memoized scan's) is remembered: no one can change it under the memo.
  if (memo) memo.last = Object.isFrozen(entries) ? { entries, judged } : undefined;
  return { hidden: [...judged.hidden], readOnly: [...judged.readOnly] };
}

/** The links among the entries (all that linkedOutsideOf looks at), taken again for the same list. */
function symlinksOf(entries: readonly ScanEntry[], memo: SpecMemo | undefined): readonly ScanEntry[] {
  if (memo?.symlinks?.entries === entries) return memo.symlinks.links;
  const links = entries.filter((e) => e.kind === 'symlink');
  if (memo) memo.symlinks = Object.isFrozen(entries) ? { entries, links } : undefined;
  return links;
}

/** The whole workspace, as one write root: a staged command's scope. */
export const STAGED_SCOPE: readonly WriteRoot[] = [{ path: '', kind: 'tree' }];

export function sandboxSpec(input: SandboxSpecInput): SandboxSpecResult {
  const { policy, host } = input;
  const staged = input.staged === true;
  const scope = staged ? STAGED_SCOPE : commandWriteScope(policy);
  const rootPaths = scope.map((w) => w.path);
  const subfolders = staged ? [] : folderSubfolders(scope, input.entries);
  const subfolderPaths = subfolders.map((e) => e.path);
  // Writable once mounted: inside a root, and not inside a folder root's read-only subfolder (unless a deeper root).
  const inScope = (rel: string): boolean => writableAt(rel, rootPaths, subfolderPaths);
  const gitWritable = gitWritableFor(policy, input.entries);

  const judge = entryJudge(input, inScope, scope, gitWritable);
  const { hidden, readOnly } = judgeEntries(input.entries, judge, input.memo, gitWritable);
  const blocked = [...readOnly, ...hidden];
  if (blocked.length > MAX_OVERLAYS) {
    return err(
      `the sandbox would need ${blocked.length} separate mounts for secret, ignored and protected paths (limit ${MAX_OVERLAYS}); list whole directories in .planexecuteignore instead of single files`,
    );
  }
  const writable = scope.filter((w) => !blocked.some((b) => isWithin(w.path, b.path)) && (w.path !== '.git' || gitWritable));
  // A folder root's subfolders, bound back read-only — those already read-only or hidden need no second mount.
  const kept = new Set(writable.map((w) => w.path));
  const boundBack = subfolders.filter(
    (e) => kept.has(posix.dirname(e.path) === '.' ? '' : posix.dirname(e.path)) && !blocked.some((b) => isWithin(e.path, b.path)),
  );
  if (boundBack.length > MAX_FOLDER_SUBFOLDERS) {
    const folders = [...new Set(boundBack.map((e) => posix.dirname(e.path)))].map((f) => (f === '.' ? 'the workspace root' : f));
    return err(
      `${folders.join(', ')} holds ${boundBack.length} subfolders, each mounted read-only for a one-file edit glob there (limit ${MAX_FOLDER_SUBFOLDERS}); give the step a glob instead (for example ${folders[0] === 'the workspace root' ? '*.json' : `${folders[0]}/*`})`,
    );
  }
  const hiddenOutside = hiddenOutsideOf(policy.root, host);
  const tools = toolRootsOf(hiddenOutside, host);
  const links = linkedOutsideOf(policy.root, symlinksOf(input.entries, input.memo), hiddenOutside, host);
  // A worktree: its repository is shown read-only; a step granted git writes may write git's data there.
  const linked = linkedGitOf(policy.root, input.entries, host);
  const linkedWritable = linked !== undefined && commandWriteScope(policy).length > 0 && policy.authority.commands.some(patternWritesGit);
  const privateOutputs = staged ? [] : privateOutputsOf(input, inScope, hidden, linked);
  const byDepth = (a: SandboxEntry, b: SandboxEntry): number => a.path.split('/').length - b.path.split('/').length || a.path.localeCompare(b.path);
  return ok({
    root: policy.root,
    writable: writable.map((w) => ({ path: w.path, kind: 'directory' as const })),
    readOnly: [...readOnly, ...boundBack].sort(byDepth),
    hidden: hidden.sort(byDepth),
    hiddenOutside: [...hiddenOutside, ...tools.secrets, ...links.secrets],
    visibleOutside: [
      ...tools.visible,
      ...links.visible,
      ...localRemotesShown(policy.root, policy.authority.commands, hiddenOutside, SECRET_AREAS, host),
      ...(linked ? [linked.commonDir, linked.gitDir].filter((d, i, all) => all.indexOf(d) === i) : []),
    ],
    writableOutside:
      linked && linkedWritable
        ? [linked.gitDir, ...(linked.commonDir === linked.gitDir ? [] : ['objects', 'refs', 'logs'].map((d) => posix.join(linked.commonDir, d)))]
        : [],
    readOnlyOutside: linked && linkedWritable ? ['commondir', 'gitdir', 'config', 'config.worktree', 'hooks'].map((f) => posix.join(linked.gitDir, f)) : [],
    network: policy.authority.network,
    privateOutputs,
    env: sandboxEnv(input.env, policy.authority.network),
  });
}
