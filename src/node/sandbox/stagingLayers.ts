/**
 * Where staged commands write: each layer is a pair of folders (`upper`, `work`) for kernel overlayfs,
 * mounted over the workspace inside the command's own user namespace (stagedLaunch.ts). What a command
 * writes lands in the layer's `upper`; the workspace is never written by a command.
 *
 * The layers live under one base folder per user, outside every workspace (`candidates`), on a file
 * system that can hold an overlay's upper layer — probed once per process by mounting a small overlay and
 * making a whiteout and an opaque folder in it: tmpfs before Linux 6.6 has no user extended attributes, an
 * overlay or NFS cannot be an upper, and a kernel older than 5.11 mounts no overlay in a user namespace at
 * all. The first candidate that works is used; where none does, commands write the workspace directly
 * (and the card and the trace say why).
 *
 * A layer's name comes from the engine (mission, step, attempt); it is hashed into a folder name, so no
 * name can reach outside the base. Layers are removed when their step ends and, for whatever a crash left,
 * when they are older than a day at the next start.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { err, ok, type Result } from '../../core/contracts/result';
import { sha256Hex } from '../../core/primitives/hash';
import { HOST_PATH, hostTool, removeTree } from './hostTools';
import { SHIM_PREFIX } from './renameShim';
import * as os from 'node:os';
import { errorText } from '../../core/primitives/errorText';
import { hasCode, isMissing, whenMissing } from '../fsErrors';
import { reportToHostLog } from '../hostLog';

export interface LayerDirs {
  /** The overlay's upper folder: everything the layer's commands wrote, deleted (whiteouts) or replaced. */
  upper: string;
  /** The overlay's work folder (same file system as `upper`). */
  work: string;
}

/** Why commands cannot write a staging layer here (they then write the workspace, and the card says why). */
interface StagingUnavailable {
  reason: string;
}

/** The base folder layers live in, or why there is none. */
type StagingProbe = Result<string, StagingUnavailable>;

/** Layers untouched for longer than this are a crash's leftovers and are removed at the next start. */
const STALE_MS = 24 * 60 * 60 * 1000;

/** Makes `dir` (0700, ours, not a link), or says why it cannot be used. */
function ownedFolder(dir: string): string | undefined {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const s = fs.lstatSync(dir);
    if (!s.isDirectory() || fs.realpathSync.native(dir) !== dir) return `${dir} is not a folder of its own`;
    if (process.getuid && s.uid !== process.getuid()) return `${dir} belongs to another user`;
    return undefined;
  } catch (error) {
    return `${dir}: ${errorText(error)}`;
  }
}

/**
 * Mounts a throwaway overlay under `base` in a user namespace, and deletes and re-creates a lower folder
 * through it: the layer must hold a whiteout and an opaque folder, or deletions could not be staged.
 */
function probeBase(base: string): string | undefined {
  const unshare = hostTool('unshare');
  const mount = hostTool('mount');
  const sh = hostTool('sh');
  if (!unshare || !mount || !sh) return 'util-linux (unshare, mount) is not installed';
  const dir = fs.mkdtempSync(nodePath.join(base, 'probe-'));
  try {
    for (const d of ['lower/d', 'upper', 'work', 'merged']) fs.mkdirSync(nodePath.join(dir, d), { recursive: true });
    fs.writeFileSync(nodePath.join(dir, 'lower', 'd', 'f'), 'x');
    const script = [
      'exec 7<"$1/lower" 8<"$1/upper" 9<"$1/work" || exit 3',
      `${mount} -t overlay overlay -o lowerdir=/proc/self/fd/7,upperdir=/proc/self/fd/8,workdir=/proc/self/fd/9,userxattr "$1/merged" || exit 4`,
      'rm -r "$1/merged/d" && mkdir "$1/merged/d" && [ ! -e "$1/merged/d/f" ] || exit 5',
    ].join('\n');
    const r = spawnSync(unshare, ['--user', '--map-root-user', '--mount', '--', sh, '-c', script, 'sh', dir], {
      encoding: 'utf8',
      timeout: 10_000,
      env: { PATH: HOST_PATH },
    });
    if (r.status === 0) return undefined;
    const said = (r.stderr || r.error?.message || '').trim().split('\n').pop() ?? '';
    return `the file system of ${base} cannot hold an overlay's upper layer (step ${r.status ?? r.signal})${said ? `: ${said}` : ''}`;
  } finally {
    removeLayerTree(dir);
  }
}

/**
 * Candidate bases, most preferred first: `PLAN_EXECUTE_LAYERS` (packagers, tests), the user's cache (on
 * disk: a step's build outputs can be large, and the system's temporary folder is often memory), then the
 * system's temporary folder. Never inside a workspace: a layer is stacked over the workspace as a lower
 * layer for the verifier and the change probe, and overlayfs refuses a lower layer inside another.
 */
function candidates(): string[] {
  const out: string[] = [];
  const own = process.env.PLAN_EXECUTE_LAYERS;
  if (own && nodePath.isAbsolute(own)) out.push(own);
  const xdg = process.env.XDG_CACHE_HOME;
  const cache = xdg && nodePath.isAbsolute(xdg) ? xdg : nodePath.join(os.homedir(), '.cache');
  out.push(nodePath.join(cache, 'plan-execute', 'layers'));
  out.push(nodePath.join(os.tmpdir(), `plan-execute-layers-${process.getuid?.() ?? 'user'}`));
  return out;
}

/** Folders this process made for its bases, removed at exit when nothing is left in them. */
const madeFolders: string[] = [];
let exitHook = false;

/** Layer folders are named in mount options, where `,` `:` `\\` and spaces would split them. */
const PLAIN_PATH = /^[A-Za-z0-9._/+@-]+$/;

function makeBase(dir: string): string | undefined {
  if (!PLAIN_PATH.test(dir)) return `${dir} has characters mount options cannot carry`;
  const missing: string[] = [];
  for (let d = dir; !fs.existsSync(d) && d !== nodePath.dirname(d); d = nodePath.dirname(d)) missing.unshift(d);
  const bad = ownedFolder(dir);
  if (bad) return bad;
  madeFolders.push(...missing);
  if (!exitHook) {
    exitHook = true;
    // Nothing of ours stays in the user's cache when no layer is left (each goes with its step).
    process.once('exit', () => {
      for (const d of [...madeFolders].reverse()) {
        try {
          fs.rmdirSync(d);
        } catch (error) {
          // Not empty (a layer is left in it) or gone: it stays as it is. Anything else goes to the host log.
          if (!isMissing(error) && !hasCode(error, 'ENOTEMPTY', 'EEXIST')) reportToHostLog(`${d} could not be removed at exit: ${errorText(error)}`);
        }
      }
    });
  }
  return undefined;
}

let probed: StagingProbe | undefined;

/** Where layers can live on this machine (probed once per process; Linux only). */
export function stagingBase(_root?: string): StagingProbe {
  if (probed) return probed;
  if (process.platform !== 'linux') return (probed = err({ reason: 'staged writes need Linux overlayfs' }));
  if (process.env.PLAN_EXECUTE_STAGING === 'off') return (probed = err({ reason: 'staging is turned off (PLAN_EXECUTE_STAGING=off)' }));
  const reasons: string[] = [];
  for (const base of candidates()) {
    const bad = makeBase(base);
    if (bad) {
      reasons.push(bad);
      continue;
    }
    const failed = probeBase(base);
    if (failed === undefined) {
      sweepStale(base);
      return (probed = ok(base));
    }
    reasons.push(failed);
  }
  return (probed = err({ reason: reasons.join('; ') }));
}

/** The folder name of a layer: a hash, so that no mission or step id can name a path. */
function layerName(id: string): string {
  return sha256Hex(id).slice(0, 32);
}

/** Where a layer's upper folder is, made or not (no file system call: for reads that fail when it is missing). */
export function layerUpper(base: string, id: string): string {
  return nodePath.join(base, layerName(id), 'upper');
}

/** The layer's folders, made when missing (0700). */
export function layerDirs(base: string, id: string): LayerDirs {
  const dir = nodePath.join(base, layerName(id));
  const upper = nodePath.join(dir, 'upper');
  const work = nodePath.join(dir, 'work');
  for (const d of [dir, upper, work]) {
    try {
      fs.mkdirSync(d, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const s = fs.lstatSync(d);
    if (!s.isDirectory()) throw new Error(`the staging layer folder ${d} is not a folder`);
  }
  const now = new Date();
  fs.utimesSync(dir, now, now);
  return { upper, work };
}

/** Whether a layer exists (has been written by a command). */
export function layerExists(base: string, id: string): boolean {
  return fs.existsSync(nodePath.join(base, layerName(id), 'upper'));
}

/** A fresh, empty upper for a command whose writes are thrown away (the verifier's), with its work folder. */
export function scratchLayer(base: string): LayerDirs & { release(): void } {
  const dir = fs.mkdtempSync(nodePath.join(base, 'scratch-'));
  const upper = nodePath.join(dir, 'upper');
  const work = nodePath.join(dir, 'work');
  fs.mkdirSync(upper, { mode: 0o700 });
  fs.mkdirSync(work, { mode: 0o700 });
  return { upper, work, release: () => removeLayerTree(dir) };
}

/**
 * Removes a layer and everything in it: renamed aside at once (a step's next attempt starts empty), removed
 * in the background — a layer can hold a build's hundred thousand files. What a crash leaves goes at the
 * next start (`sweepStale`).
 */
export function dropLayer(base: string, id: string): void {
  const dir = nodePath.join(base, layerName(id));
  const aside = nodePath.join(base, `${TRASH_PREFIX}${layerName(id)}-${process.pid}-${++dropped}`);
  try {
    fs.renameSync(dir, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    removeLayerTree(dir);
    return;
  }
  discardLayerTree(aside);
}

/** Layers being removed in the background carry this prefix: the sweep at the next start removes any left. */
const TRASH_PREFIX = 'trash-';
let dropped = 0;

/**
 * Removes a tree the kernel or a command made hard to remove: overlayfs leaves `work/work` at mode 000,
 * and a command may leave read-only folders in its upper layer. Links are removed, never followed.
 */
export function removeLayerTree(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true });
    return;
  } catch {
    // fall through: open every folder, then try again
  }
  const open = (d: string): void => {
    try {
      fs.chmodSync(d, 0o700);
      for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) open(nodePath.join(d, e.name));
    } catch {
      // Gone, or not ours: left to the removal below, which throws whatever still stands in its way.
    }
  };
  open(dir);
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch (error) {
    // A path past PATH_MAX (a command nested folders that deep): Node names every entry by its whole path
    // and cannot reach it; `rm` walks by folder descriptor (removeTree). Anything else is thrown as it was.
    if (!hasCode(error, 'ENAMETOOLONG')) throw error;
    removeTree(dir);
  }
}

/**
 * Removes a tree in the background, for a caller that no longer needs it and should not wait for the
 * unlinks: what a command left in its layer and the workspace now holds. A folder a command made
 * read-only is opened first; whatever stays (a crash) goes with its layer or with the stale sweep.
 */
export function discardLayerTree(dir: string): void {
  const open = async (d: string): Promise<void> => {
    await fs.promises.chmod(d, 0o700).catch(() => undefined);
    const names = await fs.promises.readdir(d, { withFileTypes: true }).catch(() => []);
    for (const n of names) if (n.isDirectory()) await open(nodePath.join(d, n.name));
  };
  void fs.promises
    .rm(dir, { recursive: true, force: true, maxRetries: 2 })
    .catch(async () => {
      await open(dir);
      await fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 2 });
    })
    .catch((error: unknown) => {
      // Past PATH_MAX: `rm` reaches what Node cannot (removeTree); anything else is logged below.
      if (!hasCode(error, 'ENAMETOOLONG')) throw error;
      removeTree(dir);
    })
    .catch((error: unknown) => reportToHostLog(`${dir} could not be removed (left for the stale sweep): ${errorText(error)}`));
}

function sweepStale(base: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(base);
  } catch (error) {
    return whenMissing(error, undefined); // the base went away since its probe: nothing to sweep
  }
  const now = Date.now();
  for (const name of names) {
    if (name.startsWith(SHIM_PREFIX)) continue; // the rename helper is built once per machine (renameShim.ts)
    const abs = nodePath.join(base, name);
    try {
      if (name.startsWith(TRASH_PREFIX)) discardLayerTree(abs);
      else if (now - fs.lstatSync(abs).mtimeMs > STALE_MS) removeLayerTree(abs);
    } catch (error) {
      // Gone (another process removed it): nothing to do. Anything else leaves it for the next sweep, logged.
      if (!isMissing(error)) reportToHostLog(`a stale staging layer ${abs} could not be removed: ${errorText(error)}`);
    }
  }
}
