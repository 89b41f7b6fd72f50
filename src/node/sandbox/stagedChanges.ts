/**
 * Lists what a command changed in its staging layer, by walking the layer's upper folder — so the cost
 * follows what changed, not the size of the workspace. Every name is read as raw bytes; one that is not
 * UTF-8 or holds a control character cannot be judged and is reported as such (never skipped, never
 * applied). Nothing is followed: links are read as links, never opened.
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
 *      layer over workspace (`probeVisible`): not there means the folder, or one above it, hides the
 *      workspace's content, and each such entry is reported removed;
 *   5. anything else (FIFO, socket, other devices) — reported as `other`, which the engine never applies.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { EntryKind, StagedChange, StagedListing } from '../../core/contracts/staging';
import { HOST_PATH, hostTool } from './hostTools';
import { errorText } from '../../core/primitives/errorText';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A name the engine can judge: valid UTF-8, no control characters, not `.`/`..`, no slash. */
function nameOf(raw: Buffer): string | undefined {
  let name: string;
  try {
    name = utf8.decode(raw);
  } catch {
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

function lstatOrNull(abs: Buffer | string): fs.Stats | null {
  try {
    return fs.lstatSync(abs);
  } catch {
    return null;
  }
}

/** overlayfs marks a removed entry with a character device 0:0. */
function isWhiteout(s: fs.Stats): boolean {
  return s.isCharacterDevice() && s.rdev === 0;
}

const CHUNK = 1 << 20;

/** Whether two regular files hold the same bytes (sizes are known equal); read in chunks, never followed. */
function sameBytes(a: Buffer, b: string | Buffer): boolean {
  const flags = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
  let fa: number | undefined;
  let fb: number | undefined;
  try {
    fa = fs.openSync(a, flags);
    fb = fs.openSync(b, flags);
    const ba = Buffer.allocUnsafe(CHUNK);
    const bb = Buffer.allocUnsafe(CHUNK);
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

interface Probe {
  /** The folder (workspace-relative) whose workspace entries the layer does not mention. */
  dir: string;
  /** One of them, looked up in the view. */
  sample: string;
  /** All of them, with their kinds in the workspace. */
  hidden: { path: string; kind: EntryKind }[];
}

/**
 * Walks `upper` against the workspace `root`. `probe` answers, for workspace-relative paths, whether each
 * is visible in the layer's view (tests may inject it; by default `probeVisible`).
 */
export function listStagedChanges(
  root: string,
  upper: string,
  probe: (paths: string[]) => boolean[] | undefined = (p) => probeVisible(root, upper, p),
): StagedListing {
  const changes: StagedChange[] = [];
  const unjudgeable: string[] = [];
  const notes: string[] = [];
  const probes: Probe[] = [];

  const walk = (rel: string, upperDir: Buffer, lowerDir: Buffer | null): void => {
    let names: Buffer[];
    try {
      names = fs.readdirSync(upperDir, { encoding: 'buffer' });
    } catch (error) {
      unjudgeable.push(`${rel || '.'}/ (its staged content could not be listed: ${errorText(error)})`);
      return;
    }
    const inUpper = new Set(names.map((n) => n.toString('latin1')));
    if (lowerDir !== null) {
      // Workspace entries the layer does not mention: unchanged, unless this folder (or one above) is opaque.
      let lowerNames: Buffer[] = [];
      try {
        lowerNames = fs.readdirSync(lowerDir, { encoding: 'buffer' });
      } catch {
        lowerNames = [];
      }
      const hidden: { path: string; kind: EntryKind }[] = [];
      let unnamed = 0;
      for (const raw of lowerNames) {
        if (inUpper.has(raw.toString('latin1'))) continue;
        const name = nameOf(raw);
        const s = lstatOrNull(join(lowerDir, raw));
        if (!s) continue;
        if (name === undefined) unnamed += 1;
        else hidden.push({ path: rel === '' ? name : `${rel}/${name}`, kind: kindOf(s) });
      }
      if (hidden.length > 0) probes.push({ dir: rel, sample: hidden[0]!.path, hidden });
      else if (unnamed > 0) notes.push(`${rel || '.'}: workspace entries whose names cannot be judged were kept as they are`);
    }
    for (const raw of names) {
      const name = nameOf(raw);
      const upperAbs = join(upperDir, raw);
      const us = lstatOrNull(upperAbs);
      if (!us) continue;
      if (name === undefined) {
        unjudgeable.push(`${rel === '' ? '' : `${rel}/`}${shownName(raw)} (a name that is not UTF-8 or holds control characters)`);
        continue;
      }
      const path = rel === '' ? name : `${rel}/${name}`;
      const lowerAbs = lowerDir === null ? null : join(lowerDir, raw);
      const ls = lowerAbs === null ? null : lstatOrNull(lowerAbs);
      const was = ls ? kindOf(ls) : null;
      if (isWhiteout(us)) {
        if (was !== null) changes.push({ path, was, now: null, content: true });
        continue;
      }
      const now = kindOf(us);
      const nowMode = us.mode & 0o7777;
      if (now === 'directory') {
        if (was === 'directory' && ls) {
          const wasMode = ls.mode & 0o7777;
          if (wasMode !== nowMode) changes.push({ path, was, now, content: false, mode: { was: wasMode, now: nowMode }, nowMode });
          walk(path, upperAbs, lowerAbs);
        } else {
          changes.push({ path, was, now, content: true, nowMode });
          walk(path, upperAbs, null);
        }
        continue;
      }
      if (now === 'file') {
        if (was === 'file' && ls) {
          const wasMode = ls.mode & 0o7777;
          const content = us.size !== ls.size || !sameBytes(upperAbs, lowerAbs as Buffer);
          if (!content && wasMode === nowMode) continue; // opened or touched, not changed
          changes.push({
            path,
            was,
            now,
            content,
            ...(wasMode !== nowMode ? { mode: { was: wasMode, now: nowMode } } : {}),
            nowMode,
            size: us.size,
            allocated: us.blocks * 512,
          });
        } else {
          changes.push({ path, was, now, content: true, nowMode, size: us.size, allocated: us.blocks * 512 });
        }
        continue;
      }
      if (now === 'symlink') {
        let target: string;
        try {
          target = fs.readlinkSync(upperAbs, { encoding: 'buffer' }).toString('utf8');
        } catch {
          unjudgeable.push(`${path} (a link whose target could not be read)`);
          continue;
        }
        if (was === 'symlink' && lowerAbs) {
          const before = (() => {
            try {
              return fs.readlinkSync(lowerAbs, { encoding: 'buffer' }).toString('utf8');
            } catch {
              return undefined;
            }
          })();
          if (before === target) continue;
        }
        changes.push({ path, was, now, content: true, target });
        continue;
      }
      changes.push({ path, was, now: 'other', content: true });
    }
  };

  walk('', Buffer.from(upper), Buffer.from(root));

  if (probes.length > 0) {
    const visible = probe(probes.map((p) => p.sample));
    if (visible === undefined) {
      notes.push('whether the command removed what some folders held could not be checked: those entries were kept');
    } else {
      probes.forEach((p, i) => {
        if (visible[i] === false) for (const h of p.hidden) changes.push({ path: h.path, was: h.kind, now: null, content: true });
      });
    }
  }
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { changes, unjudgeable, notes };
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
  const script = [
    'exec 7<"$1" 8<"$2" || exit 3',
    `${mount} -t overlay overlay -o ro,userxattr,lowerdir=/proc/self/fd/8:/proc/self/fd/7 "$3" || exit 4`,
    'cd "$3" || exit 5',
    'shift 3',
    'for p in "$@"; do if [ -e "$p" ] || [ -L "$p" ]; then echo 1; else echo 0; fi; done',
  ].join('\n');
  const r = spawnSync(unshare, ['--user', '--map-root-user', '--mount', '--', sh, '-c', script, 'sh', root, upper, at, ...paths.map((p) => `./${p}`)], {
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
