/**
 * New objects checked against their names. git names an object by the hash of its content and, reading it,
 * believes the name (a checkout does not hash what it writes): a new loose object, or a new pack, whose
 * content is not what its id says would make an id the review judged as one content deliver another at the
 * user's next checkout — a pack is looked up before loose objects and older packs. So every object file a
 * staged command added is checked before any of git's data is taken: a loose object is inflated and hashed
 * here; a pack is handed to `git verify-pack`, which hashes each object against its index. Only what the
 * layer holds is read — what the command wrote — so the cost follows what is new. Changed object files and
 * alternates never get this far (policy/gitData.ts `objectsVerdict`).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { inflateSync } from 'node:zlib';
import type { GitRecorded } from '../../core/ports';
import { errorText } from '../../core/primitives/errorText';
import { safeGitEnv } from '../gitRecord';
import { hostTool } from './hostTools';

const LOOSE_FOLDER = /^[0-9a-f]{2}$/;
const LOOSE_NAME = /^[0-9a-f]{38}$|^[0-9a-f]{62}$/;
const FORGED = 'its content is not the object its name says: git would deliver other content than the review judged';

const forged = (path: string, why: string = FORGED): GitRecorded => ({ path, matchesWorktree: false, by: path, refused: why });

/** Whether a loose object file (zlib of `type size\0content`) hashes to the id its path names. */
function looseObjectHolds(file: string, id: string): boolean {
  const bytes = inflateSync(fs.readFileSync(file));
  return (
    createHash(id.length === 64 ? 'sha256' : 'sha1')
      .update(bytes)
      .digest('hex') === id
  );
}

/** The entries of a folder of the layer ([] when it is absent). */
function entries(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Each pack the layer added, checked whole by `git verify-pack` (outside any repository, nothing configured
 * runs). A pack the repository already has is not the layer's: git touches one it would write again, which
 * copies it up unchanged (changed bytes are refused by the judge, and unchanged ones are not taken).
 */
function forgedPacks(packDir: string, repoPackDir: string, format: 'sha1' | 'sha256'): GitRecorded[] {
  const git = hostTool('git');
  const out: GitRecorded[] = [];
  const names = new Set(entries(packDir).map((e) => e.name));
  for (const name of names) {
    const stem = /^(pack-[0-9a-f]+)\.(pack|idx)$/.exec(name)?.[1];
    if (stem === undefined || (name.endsWith('.pack') && names.has(`${stem}.idx`)) || fs.existsSync(nodePath.join(repoPackDir, name))) continue;
    const rel = `.git/objects/pack/${name}`;
    if (!names.has(`${stem}.pack`) || !names.has(`${stem}.idx`)) {
      out.push(forged(rel, 'a pack is taken only with its own index, both new'));
      continue;
    }
    if (git === undefined) {
      out.push(forged(rel, 'git is missing: the new pack could not be checked'));
      continue;
    }
    const r = spawnSync(git, ['verify-pack', `--object-format=${format}`, nodePath.join(packDir, `${stem}.idx`)], {
      cwd: '/',
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...safeGitEnv('/'), GIT_CEILING_DIRECTORIES: '/' },
    });
    if (r.status !== 0) out.push(forged(rel, `${FORGED} (${(r.stderr || r.error?.message || 'git verify-pack failed').trim().split('\n')[0]})`));
  }
  return out;
}

/**
 * The object files the layer `upper` added to `.git/objects` that are not what their names say (loose
 * objects, packs), each as a refused record; [] when every one holds. `gitDir`: the repository's own `.git`.
 */
export function forgedObjects(upper: string, gitDir: string, format: 'sha1' | 'sha256'): GitRecorded[] {
  const objects = nodePath.join(upper, '.git', 'objects');
  const out: GitRecorded[] = [];
  for (const dir of entries(objects)) {
    if (!dir.isDirectory() || !LOOSE_FOLDER.test(dir.name)) continue;
    for (const e of entries(nodePath.join(objects, dir.name))) {
      if (!LOOSE_NAME.test(e.name)) continue; // git's temporary files (tmp_obj_*) name no object
      const rel = `.git/objects/${dir.name}/${e.name}`;
      try {
        if (!e.isFile() || !looseObjectHolds(nodePath.join(objects, dir.name, e.name), dir.name + e.name)) out.push(forged(rel));
      } catch (error) {
        out.push(forged(rel, `it could not be read as an object (${errorText(error)})`));
      }
    }
  }
  return [...out, ...forgedPacks(nodePath.join(objects, 'pack'), nodePath.join(gitDir, 'objects', 'pack'), format)];
}
