/**
 * Each command's private home and /tmp: empty when the command starts, gone (or emptied) when it ends.
 *
 * Why a pool: making and removing three folders under the system's temporary folder per command was
 * most of our own part of a command's cost on a test machine (ext4 mounted with `discard`: 3 ms per
 * rmdir, 10 ms per command). Under bubblewrap nothing the command started outlives it (its PID
 * namespace), so its folder can serve the next command: the home and /tmp it had are renamed away and
 * removed in the background, and new empty ones (0700) take their place — new inodes, because the command
 * owns those folders and can set extended attributes and times on them, which emptying them in place would
 * keep for the next command to read (red-team F30). Under Seatbelt a detached daemon can outlive the
 * command and keep writing, so there every command gets new folders, removed after it.
 * The pool lives in one folder per process (`pe-sandbox-*` in the system's temporary folder), removed
 * when the process exits.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { errorText } from '../../core/primitives/errorText';
import { reportToHostLog } from '../hostLog';

export interface PrivateDirs {
  /** The command's own folder: holds `home`, `tmp` and anything else the runner writes for it. */
  dir: string;
  home: string;
  tmp: string;
  /** Where the command's private build outputs are copied (privateOutputs.ts); made only when needed. */
  outputs: string;
  /** After the command (and every process it started) is gone. */
  release(): void;
}

let base: string | undefined;
const free: string[] = [];

function processBase(): string {
  if (base !== undefined && fs.existsSync(base)) return base;
  const made = fs.realpathSync.native(fs.mkdtempSync(nodePath.join(os.tmpdir(), 'pe-sandbox-')));
  base = made;
  free.length = 0;
  process.once('exit', () => fs.rmSync(made, { recursive: true, force: true }));
  return made;
}

function fresh(): string {
  const dir = fs.mkdtempSync(nodePath.join(processBase(), 'cmd-'));
  fs.mkdirSync(nodePath.join(dir, 'home'), { mode: 0o700 });
  fs.mkdirSync(nodePath.join(dir, 'tmp'), { mode: 0o700 });
  return dir;
}

/** Empties a folder the command may have changed (never following a link); true when it is empty and 0700 after. */
function emptied(dir: string, keep: readonly string[] = []): boolean {
  try {
    const s = fs.lstatSync(dir);
    if (!s.isDirectory()) return false;
    fs.chmodSync(dir, 0o700);
    for (const name of fs.readdirSync(dir)) if (!keep.includes(name)) fs.rmSync(nodePath.join(dir, name), { recursive: true, force: true });
    return fs.readdirSync(dir).every((name) => keep.includes(name));
  } catch {
    // Any failure to empty it fails closed: not reused, and release() removes it whole, which throws if it cannot.
    return false;
  }
}

let trashed = 0;

/**
 * Replaces a folder the command had by a new, empty one (0700): a new inode carries none of what the command
 * set on the old one (user extended attributes, times). The old one, with whatever the command left in it,
 * is renamed into the pool's base and removed in the background. False when it is not a real folder.
 */
function renewed(dir: string): boolean {
  try {
    if (!fs.lstatSync(dir).isDirectory()) return false;
    const trash = nodePath.join(processBase(), `trash-${++trashed}`);
    fs.renameSync(dir, trash);
    fs.mkdirSync(dir, { mode: 0o700 });
    void removeTree(trash);
    return true;
  } catch {
    // Any failure to renew it fails closed: not reused, and release() removes it whole, which throws if it cannot.
    return false;
  }
}

/**
 * Removes a tree the command had in the background, even one whose folders it made read-only (a copied
 * `dist` can be 0555). What still cannot be removed is reported to the host log; it goes when the process
 * exits, with the pool's base.
 */
async function removeTree(dir: string): Promise<void> {
  try {
    await fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    // A folder the command made read-only: open every folder (each that cannot be opened is left to the
    // second removal, which reports it), then remove again.
    const open = async (d: string): Promise<void> => {
      await fs.promises.chmod(d, 0o700).catch(() => undefined);
      const names = await fs.promises.readdir(d, { withFileTypes: true }).catch(() => []);
      for (const n of names) if (n.isDirectory()) await open(nodePath.join(d, n.name));
    };
    await open(dir);
    await fs.promises
      .rm(dir, { recursive: true, force: true, maxRetries: 2 })
      .catch((error: unknown) => reportToHostLog(`a sandboxed command's private folder ${dir} could not be removed: ${errorText(error)}`));
  }
}

/** Moves the private outputs out of the command's folder at once and removes them in the background. */
function trashOutputs(outputs: string): void {
  if (!fs.existsSync(outputs)) return;
  const trash = nodePath.join(processBase(), `trash-${++trashed}`);
  try {
    fs.renameSync(outputs, trash);
  } catch {
    // Not moved (any reason): it is removed with the command's folder below, which throws if it cannot.
    return;
  }
  void removeTree(trash);
}

/** Folders for one command; `reuse` only where nothing the command starts can outlive it (bubblewrap). */
export function takePrivateDirs(reuse: boolean): PrivateDirs {
  const dir = (reuse ? free.pop() : undefined) ?? fresh();
  const home = nodePath.join(dir, 'home');
  const tmp = nodePath.join(dir, 'tmp');
  const outputs = nodePath.join(dir, 'outputs');
  let released = false;
  return {
    dir,
    home,
    tmp,
    outputs,
    release: () => {
      if (released) return;
      released = true;
      trashOutputs(outputs);
      if (reuse && renewed(home) && renewed(tmp) && emptied(dir, ['home', 'tmp'])) free.push(dir);
      else fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    },
  };
}
