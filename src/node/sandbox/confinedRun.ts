/**
 * Turns a sandbox spec into the command to spawn on this machine, and cleans up after it. Before: the
 * spec's paths are checked on disk (what is missing is left out, except writable paths, which are created
 * empty so they can be mounted; a writable path whose real location is outside the workspace is dropped),
 * and a private HOME and temp directory are taken (privateDirs.ts). After: the private directories are
 * emptied or removed, and so are the empty placeholders the command did not touch.
 * The spec decides; this file only refuses to go wider than the spec (never narrower is silent either: a
 * path that cannot be confined as asked makes the run fail, with the reason). The platform's own part —
 * bubblewrap's mounts, a Seatbelt profile — is one launcher per platform behind one interface
 * (platformLauncher.ts); this file checks the spec for both, picks the launcher and owns the clean-up.
 * Every catch here names what it decides when the disk does not answer: fail closed (the path stays
 * read-only or hidden, or the command does not run) or, for clean-up only, best effort.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { SandboxSpec, SandboxSupport } from '../../core/contracts/sandbox';
import { err, ok, type Result } from '../../core/contracts/result';
import { inWorkspace } from './bwrapArgs';
import { bubblewrapLauncher } from './bubblewrapLauncher';
import { gitSetupFor, nodeGitSetupPorts, type GitSetup } from './gitSetup';
import type { CheckedSpec, Launched, PlatformLauncher } from './platformLauncher';
import { takePrivateDirs, type PrivateDirs } from './privateDirs';
import { preparePrivateOutputs, type PreparedOutputs } from './privateOutputs';
import { seatbeltLauncher } from './seatbeltLauncher';
import type { StagedLayer } from './stagedLaunch';
import { errorText } from '../../core/primitives/errorText';
import { isBelow, isWithin } from '../../core/primitives/paths';

/** The process to spawn (the platform's launcher), its environment, and what to undo after it. */
export interface Prepared extends Launched {
  env: Record<string, string>;
  /** What the sandbox had to narrow, shown above the command's output. */
  notes: string[];
  /** After the command (and everything it started) is gone; returns what it undid, to show below the output. */
  cleanup(): string[];
}

/** What preparing made that the clean-up must undo, filled in as it is made. */
interface Undo {
  placeholders?: { created: Placeholder[]; parents: string[] };
  outputs?: PreparedOutputs;
  gitDirsOutside: string[];
  resumableBefore: Set<string>;
}

type Kind = 'file' | 'directory';

function kindOf(abs: string): Kind | 'symlink' | 'other' | undefined {
  try {
    const s = fs.lstatSync(abs);
    return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : s.isSymbolicLink() ? 'symlink' : 'other';
  } catch {
    // Not there, or not reachable by this user — nor then by the command, which runs as the same user: it is left out of the mounts.
    return undefined;
  }
}

interface Placeholder {
  path: string;
  kind: Kind;
  /** Signature right after creation: unchanged means the command did not touch it. */
  signature: string;
}

function signatureOf(abs: string): string {
  try {
    const s = fs.lstatSync(abs, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    // Best effort, on the safe side: a placeholder that cannot be read no longer matches, so it is never removed on a guess.
    return '';
  }
}

/** Whether an existing path is where it says: no symbolic link anywhere on it. */
function isReal(abs: string): boolean {
  try {
    return fs.realpathSync.native(abs) === abs;
  } catch {
    // Fail closed: a path that does not resolve is not trusted as real (it stays read-only, or is not created).
    return false;
  }
}

/**
 * The writable paths to mount, after checking each on disk: an existing one must have no link on its path
 * (a repository can ship `out -> ../neighbour`); a missing one is created, with its missing parents, only
 * below a real folder of the workspace. Anything else is left read-only, and said so.
 */
function writablePaths(root: string, spec: SandboxSpec, notes: string[]): { paths: string[]; created: Placeholder[]; parents: string[] } {
  const paths: string[] = [];
  const created: Placeholder[] = [];
  const parents: string[] = [];
  for (const w of spec.writable) {
    const abs = inWorkspace(root, w.path);
    const kind = kindOf(abs);
    if (kind !== undefined) {
      // A write root is a folder: a file (or anything else) at its path stays as it is.
      if (kind === w.kind && isReal(abs)) paths.push(abs);
      else if (kind === 'symlink' || kind === w.kind)
        notes.push(`${w.path || '.'} is ${kind === 'symlink' ? 'a symbolic link' : 'reached through a symbolic link'}: it stays read-only`);
      else notes.push(`${w.path || '.'} is not a ${w.kind === 'directory' ? 'folder' : 'file'}: it stays read-only`);
      continue;
    }
    let dir = nodePath.dirname(abs);
    const missing: string[] = [];
    while (isBelow(dir, root) && kindOf(dir) === undefined) {
      missing.unshift(dir);
      dir = nodePath.dirname(dir);
    }
    if (!isWithin(dir, root) || kindOf(dir) !== 'directory' || !isReal(dir)) {
      notes.push(`${w.path} cannot be created (a symbolic link or a file is on its path): it stays read-only`);
      continue;
    }
    for (const m of missing) {
      // Another step's sandbox may have made the same parent a moment ago: then it is not ours to remove.
      try {
        fs.mkdirSync(m);
        parents.push(m);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || kindOf(m) !== 'directory' || !isReal(m)) throw error;
      }
    }
    if (w.kind === 'directory') fs.mkdirSync(abs);
    else fs.writeFileSync(abs, '', { flag: 'wx' });
    created.push({ path: abs, kind: w.kind, signature: signatureOf(abs) });
    paths.push(abs);
  }
  return { paths, created, parents };
}

function removePlaceholders(created: Placeholder[], parents: string[]): void {
  for (const p of created) {
    if (signatureOf(p.path) !== p.signature) continue; // the command wrote it: it stays
    try {
      if (p.kind === 'directory') fs.rmdirSync(p.path);
      else fs.unlinkSync(p.path);
    } catch {
      // Best effort: not empty (the command wrote it), or gone.
    }
  }
  for (const dir of [...parents].reverse()) {
    try {
      fs.rmdirSync(dir);
    } catch {
      // Best effort: not empty (the command put something there).
    }
  }
}

/** Real path of an existing spec path, or undefined when it resolves outside `root` (or nowhere). */
function realInside(root: string, abs: string): string | undefined {
  try {
    const real = fs.realpathSync.native(abs);
    return isWithin(real, root) ? real : undefined;
  } catch {
    // Fail closed: a path that does not resolve is not inside the workspace (the caller refuses or leaves it out).
    return undefined;
  }
}

/** The git setup carried into a private home, per workspace, with the files it came from and how they stood. */
const gitSetups = new Map<string, { setup: GitSetup; said: string; watched: string[]; signature: string }>();

/** How the files a git setup was read from stand now (a change to any of them means reading it again). */
function filesSignature(paths: readonly string[]): string {
  return paths
    .map((p) => {
      const st = fs.statSync(p, { throwIfNoEntry: false });
      return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : '-';
    })
    .join('|');
}

/** The user's git setup for a workspace: read again whenever their global config or a file it carried changed. */
function gitSetupOf(root: string): { setup: GitSetup; said: string; watched: string[]; signature: string } {
  const cached = gitSetups.get(root);
  if (cached && filesSignature(cached.watched) === cached.signature) return cached;
  const home = os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME;
  const read: string[] = [];
  const ports = nodeGitSetupPorts({ home, workspace: root, ...(xdg ? { xdgConfigHome: xdg } : {}) });
  const setup = gitSetupFor({
    ...ports,
    readFile: (abs) => {
      read.push(abs);
      return ports.readFile(abs);
    },
  });
  // git's own global config files (includes they name are read through by git and not watched: a change
  // there alone shows at the next change to these, or a reload), and every file the setup carried.
  const watched = [...new Set([nodePath.join(home, '.gitconfig'), nodePath.join(xdg ?? nodePath.join(home, '.config'), 'git', 'config'), ...read])];
  const entry = { setup, said: cached?.said ?? '', watched, signature: filesSignature(watched) };
  gitSetups.set(root, entry);
  return entry;
}

/**
 * The user's git behaviour without their secrets (gitSetup.ts: identity, global excludes and attributes,
 * signing, an allowlist of keys), written into the command's private home, so that a granted `git commit`
 * is theirs. What was left out is said once per workspace, and again when it changes.
 */
function writeGitSetup(root: string, privateHome: string, notes: string[]): void {
  const entry = gitSetupOf(root);
  for (const f of entry.setup.files) {
    const at = nodePath.join(privateHome, f.relPath);
    fs.mkdirSync(nodePath.dirname(at), { recursive: true, mode: 0o700 });
    fs.writeFileSync(at, f.content, { mode: 0o600 });
  }
  const said = entry.setup.notes.join('\n');
  if (said !== entry.said) notes.push(...entry.setup.notes);
  entry.said = said;
}

function realHome(): string | undefined {
  try {
    const home = fs.realpathSync.native(os.homedir());
    return home === '/' ? undefined : home;
  } catch {
    // Fail closed: no real home to mount the private one over; the spec's hiddenOutside still hides the home.
    return undefined;
  }
}

/**
 * Whether a folder is there and empty: hiding it would show the same nothing, at the cost of two mounts
 * (a tmpfs and its remount) — it stays read-only under the read-only root all the same. Unreadable
 * counts as not empty.
 */
function emptyFolder(abs: string): boolean {
  try {
    const dir = fs.opendirSync(abs);
    try {
      return dir.readSync() === null;
    } finally {
      dir.closeSync();
    }
  } catch {
    // Fail closed: a folder that cannot be read counts as not empty, so it is hidden all the same.
    return false;
  }
}

/**
 * The folders between a write root and a path inside it that the sandbox keeps read-only or hidden (a
 * `.env`, a nested repository's `.git`, `node_modules`, `.vscode`), each bound onto itself, still writable
 * (red-team F29). A mount point cannot be renamed or removed (EBUSY): without this, a command renames the
 * folder that holds such a path (`mv src/conf src/conf2`), the mount travels with it, and after the command
 * the kept content sits at a path that is new — which the rollback undoes by removing it: the user's `.env`,
 * a nested repository's history, deleted by a step that could never touch them.
 */
function pinnedFolders(writable: readonly string[], kept: readonly string[]): string[] {
  const pinned = new Set<string>();
  for (const path of kept) {
    const root = writable.filter((w) => isBelow(path, w)).sort((a, b) => b.length - a.length)[0];
    if (root === undefined) continue;
    for (let dir = nodePath.dirname(path); isBelow(dir, root); dir = nodePath.dirname(dir)) {
      // A folder inside a read-only or hidden path stays as it is (binding it writable would widen the scope).
      if (kept.some((k) => isWithin(dir, k)) || writable.includes(dir)) continue;
      if (kindOf(dir) === 'directory' && isReal(dir)) pinned.add(dir);
    }
  }
  return [...pinned];
}

/**
 * The state of an unfinished rebase, cherry-pick or revert in a git folder: its todo list can hold `exec`
 * lines, which the user's `git rebase --continue` (or their editor's Git view) runs on the host. In the
 * workspace's own `.git` the rollback undoes it (sandboxSpec.ts, GIT_DATA); a worktree's git folder lies
 * outside the workspace, so what appears there is removed here.
 */
const GIT_RESUMABLE = ['rebase-merge', 'rebase-apply', 'sequencer'];

function resumableStateIn(gitDirs: readonly string[]): string[] {
  return gitDirs.flatMap((d) => GIT_RESUMABLE.map((n) => nodePath.join(d, n))).filter((p) => kindOf(p) !== undefined);
}

/** Removes the resumable git state that appeared in `gitDirs` since `before`; returns a line for each. */
function removeNewResumableState(gitDirs: readonly string[], before: ReadonlySet<string>): string[] {
  return resumableStateIn(gitDirs)
    .filter((p) => !before.has(p))
    .map((p) => {
      try {
        fs.rmSync(p, { recursive: true, force: true }); // a link is unlinked, never followed
        return `${p} (an unfinished git operation the command left in the worktree's git folder) was removed: continuing it would run its todo list outside the sandbox`;
      } catch (error) {
        return `${p} (an unfinished git operation the command left in the worktree's git folder) could not be removed: ${errorText(error)} — do not continue it`;
      }
    });
}

function existing(paths: readonly string[]): { path: string; kind: Kind }[] {
  return paths.flatMap((p) => {
    const k = kindOf(p);
    return k === 'file' || k === 'directory' ? [{ path: p, kind: k }] : [];
  });
}

/** The platform's launcher for what this machine supports (platformLauncher.ts). */
function launcherFor(support: Extract<SandboxSupport, { available: true }>): PlatformLauncher {
  return support.kind === 'bubblewrap' ? bubblewrapLauncher(support.ownNetwork === true) : seatbeltLauncher;
}

/**
 * The process to spawn for `argv` confined by `spec`, or why it cannot be confined here (then nothing
 * runs: every refusal here fails closed). The spec is checked on disk first (checkedSpec), then handed to
 * the platform's launcher. `staged`: the command writes that layer over the workspace (a launcher that
 * stages only; stagedLaunch.ts), and the spec is a staged one (sandboxSpec.ts: the whole workspace writable
 * in the layer, no private outputs).
 */
export function prepareConfined(
  spec: SandboxSpec,
  support: SandboxSupport,
  argv: readonly string[],
  cwd: string,
  staged?: Omit<StagedLayer, 'root'>,
): Result<Prepared, string> {
  if (!support.available) return err(`no OS sandbox: ${support.reason}`);
  const launcher = launcherFor(support);
  if (staged && !launcher.stages) return err('staged writes need bubblewrap');
  let root: string;
  try {
    root = fs.realpathSync.native(spec.root);
  } catch {
    // Fail closed: a root that cannot be resolved (missing, unreadable) is no root to confine a command to.
    return err(`the workspace root ${spec.root} does not exist`);
  }
  const realCwd = realInside(root, cwd);
  if (realCwd === undefined) return err('the working directory is not inside the workspace');
  const own = takePrivateDirs(launcher.binds);
  const notes: string[] = [];
  const undo: Undo = { gitDirsOutside: [], resumableBefore: new Set() };
  const cleanup = (): string[] => {
    undo.outputs?.release();
    if (undo.placeholders) removePlaceholders(undo.placeholders.created, undo.placeholders.parents);
    own.release();
    return removeNewResumableState(undo.gitDirsOutside, undo.resumableBefore);
  };
  try {
    const checked = checkedSpec(spec, { root, cwd: realCwd, argv, own, binds: launcher.binds }, notes, undo);
    const launched = launcher.launch(checked, notes, staged);
    if (!launched.ok) {
      cleanup();
      return err(`the sandbox could not be prepared: ${launched.error}`);
    }
    return ok({ ...launched.value, env: checked.env, notes, cleanup });
  } catch (error) {
    // Fail closed: any fault while the mounts are made ready (a placeholder, a private copy, the git setup,
    // the layer's mode) means the command does not run; what was made so far is undone and the reason said.
    cleanup();
    return err(`the sandbox could not be prepared: ${errorText(error)}`);
  }
}

/**
 * The spec as it stands on disk, for any launcher: writable paths made to exist (placeholders, undone after),
 * the user's git setup in the private home, the spec's paths resolved and left out where missing, and —
 * where the launcher binds — private build outputs and pinned folders. Throws on an I/O fault (the caller
 * fails closed); what it made is recorded in `undo` as it goes.
 */
function checkedSpec(
  spec: SandboxSpec,
  at: { root: string; cwd: string; argv: readonly string[]; own: PrivateDirs; binds: boolean },
  notes: string[],
  undo: Undo,
): CheckedSpec {
  const { root, own, binds } = at;
  const made = writablePaths(root, spec, notes);
  undo.placeholders = made;
  const writable = made.paths;
  writeGitSetup(root, own.home, notes);
  const inside = (rel: string): string | undefined => (kindOf(inWorkspace(root, rel)) === 'symlink' ? undefined : inWorkspace(root, rel));
  const hidden = existing(spec.hidden.map((e) => inside(e.path)).filter((p): p is string => p !== undefined));
  // Build outputs: private copies where the launcher binds; elsewhere (Seatbelt) they stay read-only.
  const outputs = binds
    ? preparePrivateOutputs(
        root,
        spec.privateOutputs,
        hidden.map((h) => h.path),
        own.outputs,
        notes,
      )
    : undefined;
  undo.outputs = outputs;
  const privateAt = new Set(outputs?.mounts.map((m) => m.at));
  const readOnly = [...spec.readOnly.map((e) => inside(e.path)).filter((p): p is string => p !== undefined && !privateAt.has(p)), ...(outputs?.readOnly ?? [])];
  const hiddenOutside = existing(spec.hiddenOutside).filter((e) => !binds || e.kind !== 'directory' || !emptyFolder(e.path));
  const visibleOutside = existing(spec.visibleOutside)
    .filter((e) => e.kind === 'directory')
    .map((e) => e.path);
  const writableOutside = existing(spec.writableOutside)
    .filter((e) => e.kind === 'directory' && isReal(e.path))
    .map((e) => e.path);
  undo.gitDirsOutside = writableOutside;
  undo.resumableBefore = new Set(resumableStateIn(writableOutside));
  const home = realHome();
  // Where the launcher binds, the private HOME is mounted at the real home's path and /tmp is private; elsewhere they are where they are.
  const homeInside = binds && home ? home : own.home;
  const tmpInside = binds ? '/tmp' : own.tmp;
  return {
    root,
    cwd: at.cwd,
    argv: at.argv,
    writable,
    pinned: binds ? pinnedFolders(writable, [...readOnly, ...hidden.map((h) => h.path)]) : [],
    readOnly,
    hidden,
    hiddenOutside,
    visibleOutside,
    writableOutside,
    readOnlyOutside: existing(spec.readOnlyOutside).map((e) => e.path),
    privateOutputs: outputs?.mounts ?? [],
    network: spec.network,
    home,
    own,
    env: { ...spec.env, HOME: homeInside, TMPDIR: tmpInside, TMP: tmpInside, TEMP: tmpInside },
  };
}
