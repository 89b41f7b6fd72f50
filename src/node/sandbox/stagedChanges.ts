/**
 * Lists what a command changed in its staging layer, by walking the layer's upper folder — so the cost
 * follows what changed, not the size of the workspace: one visit per entry of the layer (and one listing of
 * the workspace's folder for each folder the command wrote into), never a pass per entry over the others.
 * Every name is read as raw bytes; one that is not UTF-8 or holds a control character cannot be judged and
 * is reported as such (never skipped, never applied). Nothing is followed: links are read as links, never
 * opened.
 *
 * How overlayfs records a change in the upper folder, and what each becomes here:
 *   1. a regular file — created, or changed when the workspace has one there too (its bytes are compared:
 *      a file the command only opened read-write, or touched, is no change at all); its mode likewise;
 *   2. a symbolic link — created, or changed when its target differs;
 *   3. a character device 0:0 — a whiteout: the workspace's entry there was removed (a removed folder is one
 *      change; what it held is listed by the engine when it needs to judge it);
 *   4. a folder — new, or the workspace's folder "copied up" because something below it changed; a folder
 *      the command removed and made again is "opaque": everything the workspace held in it is gone. The
 *      opaque mark is an extended attribute, which Node cannot read; instead, for each copied-up folder
 *      with workspace entries the layer does not mention, one of them is looked up in a read-only view of
 *      layer over workspace (`probeVisible`, one mount for the whole listing, only when such a folder
 *      exists): not there means the folder, or one above it, hides the workspace's content, and each such
 *      entry is reported removed. The layer's root is never opaque (a mount's root cannot be removed);
 *   5. anything else (FIFO, socket, other devices) — reported as `other`, which the engine never applies.
 * A renamed folder is no special case: the kernel cannot rename a workspace folder unprivileged (EXDEV,
 * no `redirect_dir` with `userxattr`), so a rename reaches the layer as a copy and a removal (the rename
 * shim, renameShim.ts, or the tool's own fallback) — a whiteout or an opaque folder plus new entries.
 * Caps (`ListingOptions`): past `maxEntries` entries walked, or `maxBytes` bytes read to compare, the listing
 * stops and says which cap — the engine then fails the call closed, applying and keeping nothing.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { EntryKind, ListingCap, ListingOptions, StagedChange, StagedListing } from '../../core/contracts/staging';
import { HOST_PATH, hostTool } from './hostTools';
import { errorText } from '../../core/primitives/errorText';
import { isMissing } from '../fsErrors';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A name the engine can judge: valid UTF-8, no control characters, not `.`/`..`, no slash. */
function nameOf(raw: Buffer): string | undefined {
  let name: string;
  try {
    name = utf8.decode(raw);
  } catch {
    // TypeError from the fatal decoder: the name is not UTF-8 (the caller makes it unjudgeable).
    return undefined;
  }
  if (name === '' || name === '.' || name === '..' || name.includes('/') || /[\u0000-\u001f\u007f]/.test(name)) return undefined;
  return name;
}

/** A name as it can be shown: printable characters kept, every other byte escaped. */
function shownName(raw: Buffer): string {
  let out = '';
  for (const b of raw) out += b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  return out;
}

function kindOf(s: fs.Stats): EntryKind {
  return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : s.isSymbolicLink() ? 'symlink' : 'other';
}

function readLink(abs: Buffer): string | undefined {
  try {
    return fs.readlinkSync(abs, { encoding: 'buffer' }).toString('utf8');
  } catch {
    // Any error fails closed: a layer link with no readable target is unjudgeable, a workspace one counts as changed.
    return undefined;
  }
}

/** overlayfs marks a removed entry with a character device 0:0. */
function isWhiteout(s: fs.Stats): boolean {
  return s.isCharacterDevice() && s.rdev === 0;
}

const CHUNK = 1 << 20;
/** The two buffers every comparison reads into (it is synchronous: one at a time), allocated once. */
let scratch: [Buffer, Buffer] | undefined;

/** Whether two regular files hold the same bytes (sizes are known equal); read in chunks, never followed. */
function sameBytes(a: Buffer, b: string | Buffer): boolean {
  const flags = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
  let fa: number | undefined;
  let fb: number | undefined;
  try {
    fa = fs.openSync(a, flags);
    fb = fs.openSync(b, flags);
    const [ba, bb] = (scratch ??= [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)]);
    for (;;) {
      const na = fs.readSync(fa, ba, 0, CHUNK, null);
      const nb = fs.readSync(fb, bb, 0, CHUNK, null);
      if (na !== nb) return false;
      if (na === 0) return true;
      if (ba.compare(bb, 0, nb, 0, na) !== 0) return false;
    }
  } catch {
    return false; // unreadable: counted as changed, and judged as such
  } finally {
    if (fa !== undefined) fs.closeSync(fa);
    if (fb !== undefined) fs.closeSync(fb);
  }
}

const join = (dir: Buffer, name: Buffer): Buffer => Buffer.concat([dir, Buffer.from('/'), name]);
const under = (rel: string, name: string): string => (rel === '' ? name : `${rel}/${name}`);

/** A copied-up folder whose workspace entries the layer does not mention: opaque, or merely merged. */
interface Candidate {
  /** The folder (workspace-relative). */
  dir: string;
  lowerDir: Buffer;
  /** The workspace's names the layer does not mention (raw bytes). */
  unmentioned: Buffer[];
  /** One of them that can be named, looked up in the view. */
  sample: string;
}

/** Caps that would not bind: what a caller that sets none gets. */
const UNCAPPED = Number.MAX_SAFE_INTEGER;

class Walk {
  readonly changes: StagedChange[] = [];
  readonly unjudgeable: string[] = [];
  readonly notes: string[] = [];
  readonly keptWhole: string[] = [];
  readonly candidates: Candidate[] = [];
  capped: ListingCap | undefined;
  #entries = 0;
  #bytes = 0;

  constructor(private readonly options: ListingOptions) {}

  /** Counts entries walked; false (and `capped`) past the cap. */
  count(n: number): boolean {
    this.#entries += n;
    const limit = this.options.maxEntries ?? UNCAPPED;
    if (this.#entries > limit) this.capped ??= { cap: 'entries', limit };
    return this.capped === undefined;
  }

  /** Counts bytes read to compare; false (and `capped`) past the cap. */
  read(n: number): boolean {
    this.#bytes += n;
    const limit = this.options.maxBytes ?? UNCAPPED;
    if (this.#bytes > limit) this.capped ??= { cap: 'bytes', limit };
    return this.capped === undefined;
  }

  folder(rel: string, upperDir: Buffer, lowerDir: Buffer | null): void {
    let names: Buffer[];
    try {
      names = fs.readdirSync(upperDir, { encoding: 'buffer' });
    } catch (error) {
      this.unjudgeable.push(`${rel || '.'}/ (its staged content could not be listed: ${errorText(error)})`);
      return;
    }
    if (!this.count(names.length)) return;
    if (lowerDir !== null && rel !== '') this.#candidate(rel, lowerDir, names);
    for (const raw of names) {
      if (this.capped) return;
      this.#entry(rel, raw, upperDir, lowerDir);
    }
  }

  /** Records a copied-up folder whose workspace entries the layer does not all mention (opaque or not: the probe says). */
  #candidate(rel: string, lowerDir: Buffer, names: Buffer[]): void {
    let lowerNames: Buffer[];
    try {
      lowerNames = fs.readdirSync(lowerDir, { encoding: 'buffer' });
    } catch {
      return; // the workspace's folder is gone or unreadable: nothing of it to hide
    }
    if (lowerNames.length === 0) return;
    const inUpper = new Set(names.map((n) => n.toString('latin1')));
    const unmentioned = lowerNames.filter((n) => !inUpper.has(n.toString('latin1')));
    if (unmentioned.length === 0) return;
    const sample = unmentioned.map(nameOf).find((n): n is string => n !== undefined);
    if (sample === undefined) {
      this.notes.push(`${rel}: workspace entries whose names cannot be judged were kept as they are`);
      return;
    }
    this.candidates.push({ dir: rel, lowerDir, unmentioned, sample: under(rel, sample) });
  }

  /** The entry's lstat; null when it is not there. One that cannot be read is unjudgeable (never applied): undefined. */
  #lstat(abs: Buffer, rel: string, raw: Buffer): fs.Stats | null | undefined {
    try {
      // A missing entry is the common case (what the command made): answered without an exception.
      return fs.lstatSync(abs, { throwIfNoEntry: false }) ?? null;
    } catch (error) {
      if (isMissing(error)) return null;
      this.unjudgeable.push(`${under(rel, shownName(raw))} (could not be read: ${errorText(error)})`);
      return undefined;
    }
  }

  #entry(rel: string, raw: Buffer, upperDir: Buffer, lowerDir: Buffer | null): void {
    const upperAbs = join(upperDir, raw);
    const us = this.#lstat(upperAbs, rel, raw);
    if (!us) return;
    const name = nameOf(raw);
    if (name === undefined) {
      this.unjudgeable.push(`${rel === '' ? '' : `${rel}/`}${shownName(raw)} (a name that is not UTF-8 or holds control characters)`);
      return;
    }
    const path = under(rel, name);
    const lowerAbs = lowerDir === null ? null : join(lowerDir, raw);
    const ls = lowerAbs === null ? null : this.#lstat(lowerAbs, rel, raw);
    if (ls === undefined) return;
    const was = ls ? kindOf(ls) : null;
    const wasSize = ls?.isFile() ? { wasSize: ls.size } : {};
    if (isWhiteout(us)) {
      if (was !== null) this.changes.push({ path, was, now: null, content: true, ...wasSize });
      return;
    }
    const now = kindOf(us);
    const nowMode = us.mode & 0o7777;
    const mode = ls && was === now && (ls.mode & 0o7777) !== nowMode ? { mode: { was: ls.mode & 0o7777, now: nowMode } } : {};
    if (now === 'directory') {
      if ((was === null || was === 'directory') && this.options.keepWhole?.(path, was !== null) === true) {
        this.keptWhole.push(path);
        return;
      }
      if (was === 'directory') {
        if ('mode' in mode) this.changes.push({ path, was, now, content: false, ...mode, nowMode });
        this.folder(path, upperAbs, lowerAbs);
      } else {
        this.changes.push({ path, was, now, content: true, nowMode });
        this.folder(path, upperAbs, null);
      }
      return;
    }
    if (now === 'file') {
      const sized = { nowMode, size: us.size, allocated: us.blocks * 512, ...wasSize };
      if (was !== 'file' || lowerAbs === null || !ls) {
        this.changes.push({ path, was, now, content: true, ...sized });
        return;
      }
      if (us.size === ls.size && !this.read(us.size * 2)) return;
      const content = us.size !== ls.size || !sameBytes(upperAbs, lowerAbs);
      if (!content && !('mode' in mode)) return; // opened or touched, not changed
      this.changes.push({ path, was, now, content, ...mode, ...sized });
      return;
    }
    if (now === 'symlink') {
      const target = readLink(upperAbs);
      if (target === undefined) {
        this.unjudgeable.push(`${path} (a link whose target could not be read)`);
        return;
      }
      if (was === 'symlink' && lowerAbs && readLink(lowerAbs) === target) return;
      this.changes.push({ path, was, now, content: true, target, ...wasSize });
      return;
    }
    this.changes.push({ path, was, now: 'other', content: true, ...wasSize });
  }

  /** What the opaque folders hid: each workspace entry there, removed (one change per entry; a folder whole). */
  hidden(visible: readonly boolean[]): void {
    this.candidates.forEach((c, i) => {
      if (visible[i] !== false) return;
      if (!this.count(c.unmentioned.length)) return;
      let unnamed = 0;
      for (const raw of c.unmentioned) {
        const name = nameOf(raw);
        const s = this.#lstat(join(c.lowerDir, raw), c.dir, raw);
        if (!s) continue;
        if (name === undefined) unnamed += 1;
        else this.changes.push({ path: under(c.dir, name), was: kindOf(s), now: null, content: true });
      }
      if (unnamed > 0) this.notes.push(`${c.dir}: workspace entries whose names cannot be judged were kept as they are`);
    });
  }
}

/**
 * Walks `upper` against the workspace `root`. `probe` answers, for workspace-relative paths, whether each
 * is visible in the layer's view (tests may inject it; by default `probeVisible`).
 */
export function listStagedChanges(
  root: string,
  upper: string,
  probe: (paths: string[]) => boolean[] | undefined = (p) => probeVisible(root, upper, p),
  options: ListingOptions = {},
): StagedListing {
  const walk = new Walk(options);
  walk.folder('', Buffer.from(upper), Buffer.from(root));
  if (!walk.capped && walk.candidates.length > 0) {
    const visible = probe(walk.candidates.map((c) => c.sample));
    if (visible === undefined) walk.notes.push('whether the command removed what some folders held could not be checked: those entries were kept');
    else walk.hidden(visible);
  }
  if (walk.capped) return { changes: [], unjudgeable: walk.unjudgeable, notes: walk.notes, capped: walk.capped };
  const changes = walk.changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { changes, unjudgeable: walk.unjudgeable, notes: walk.notes, ...(walk.keptWhole.length > 0 ? { keptWhole: walk.keptWhole.sort() } : {}) };
}

/**
 * Whether each workspace-relative path is there in a read-only view of `upper` over the workspace, mounted
 * in a user namespace of its own (nothing runs there but a shell testing names). undefined when the view
 * could not be made.
 */
function probeVisible(root: string, upper: string, paths: string[]): boolean[] | undefined {
  const unshare = hostTool('unshare');
  const mount = hostTool('mount');
  const sh = hostTool('sh');
  if (!unshare || !mount || !sh) return undefined;
  // A throwaway mount point beside the layer (nothing is ever written there), removed after.
  const at = fs.mkdtempSync(nodePath.join(nodePath.dirname(nodePath.dirname(upper)), 'view-'));
  // The paths go on stdin, one per line (a name holds no newline: such names are unjudgeable and never probed).
  const script = [
    'exec 7<"$1" 8<"$2" || exit 3',
    `${mount} -t overlay overlay -o ro,userxattr,lowerdir=/proc/self/fd/8:/proc/self/fd/7 "$3" || exit 4`,
    'cd "$3" || exit 5',
    'while IFS= read -r p; do if [ -e "./$p" ] || [ -L "./$p" ]; then echo 1; else echo 0; fi; done',
  ].join('\n');
  const r = spawnSync(unshare, ['--user', '--map-root-user', '--mount', '--', sh, '-c', script, 'sh', root, upper, at], {
    input: `${paths.join('\n')}\n`,
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: HOST_PATH },
    maxBuffer: 16 * 1024 * 1024,
  });
  fs.rmSync(at, { recursive: true, force: true });
  if (r.status !== 0) return undefined;
  const lines = r.stdout.split('\n').filter((l) => l !== '');
  if (lines.length !== paths.length) return undefined;
  return lines.map((l) => l === '1');
}
