/**
 * The staging layers of the Node runner (the Terminal port's `staging`, shared by the CLI and the VS Code
 * terminal adapter): where each layer lives (stagingLayers.ts), what a command changed in it
 * (stagedChanges.ts), settling it after the engine's judgement (layerSettle.ts), and git's side: the record
 * a step granted git writes left in its layer, reviewed with git run confined on a read-only view
 * (gitView.ts), and git's data copied into the workspace once the engine accepts it.
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { LayerSettlement, ListingOptions, StagedListing, StagingSupport } from '../../core/contracts/staging';
import type { GitJudgeOptions, GitReview, StagingLayers } from '../../core/ports';
import { gitRecordedSince, markGitRecord } from '../gitRecord';
import { forgedObjects } from './gitObjects';
import { configChanges, viewGit } from './gitView';
import { settleLayer } from './layerSettle';
import { undoGitPrep } from './layerGitPrep';
import { listStagedChanges } from './stagedChanges';
import { dropLayer, layerDirs, layerExists, layerUpper, stagingBase } from './stagingLayers';
import { errorText } from '../../core/primitives/errorText';
import { isWithin } from '../../core/primitives/paths';

const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/** A workspace-relative path as a list of plain segments, or undefined. */
function segments(rel: string): string[] | undefined {
  const parts = rel.split('/');
  return rel !== '' && parts.every((p) => p !== '' && p !== '.' && p !== '..' && !p.includes('\0')) ? parts : undefined;
}

export class NodeStagingLayers implements StagingLayers {
  #base(root: string): string {
    const probe = stagingBase(root);
    if (!probe.ok) throw new Error(`no staging here: ${probe.error.reason}`);
    return probe.value;
  }

  #upper(root: string, layer: string): string | undefined {
    const base = this.#base(root);
    return layerExists(base, layer) ? layerDirs(base, layer).upper : undefined;
  }

  async support(root: string): Promise<StagingSupport> {
    const probe = stagingBase(root);
    return probe.ok ? { available: true, detail: `overlayfs layers in ${probe.value}` } : { available: false, reason: probe.error.reason };
  }

  async changes(layer: string, root: string, options: ListingOptions = {}): Promise<StagedListing> {
    const upper = this.#upper(root, layer);
    if (upper === undefined) return { changes: [], unjudgeable: [], notes: [] };
    const problems = undoGitPrep(root, upper);
    const listing = listStagedChanges(root, upper, undefined, options);
    return { ...listing, notes: [...problems, ...listing.notes] };
  }

  async read(layer: string, root: string, path: string): Promise<Uint8Array> {
    const parts = segments(path);
    if (parts === undefined) throw new Error(`${path} is not in the layer`);
    // Called once per applied file: the path alone (a missing layer fails the open), and one check after it.
    const abs = nodePath.join(layerUpper(this.#base(root), layer), ...parts);
    const fd = fs.openSync(abs, READ_FLAGS);
    try {
      // No link on the way: what was opened is the file at exactly this path (the kernel names it from its dentries).
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) !== abs) throw new Error(`${path}: a link is on its path in the layer`);
      if (!fs.fstatSync(fd).isFile()) throw new Error(`${path} is not a regular file in the layer`);
      return new Uint8Array(fs.readFileSync(fd));
    } finally {
      fs.closeSync(fd);
    }
  }

  async settle(layer: string, root: string, settlement: LayerSettlement): Promise<string[]> {
    const upper = this.#upper(root, layer);
    return upper === undefined ? [] : settleLayer(root, upper, settlement.keep);
  }

  async drop(layer: string, root: string): Promise<void> {
    const probe = stagingBase(root);
    if (probe.ok) dropLayer(probe.value, layer);
  }

  async gitReview(layer: string, root: string, options?: GitJudgeOptions): Promise<GitReview | null> {
    const upper = this.#upper(root, layer);
    if (upper === undefined) return { recorded: [], configKeys: [], problems: [] };
    const mark = markGitRecord(root);
    if (mark === null) return null;
    const configKeys = configChanges(root, upper);
    const view = viewGit(root, upper);
    if (!view.ok) return { recorded: [], configKeys, problems: [view.error.reason] };
    try {
      const { git } = view.value;
      const format = git(['rev-parse', '--show-object-format']).out.trim() === 'sha256' ? 'sha256' : 'sha1';
      return {
        recorded: [...forgedObjects(upper, nodePath.join(root, '.git'), format), ...gitRecordedSince(root, mark, git, options)],
        configKeys,
        problems: [],
      };
    } finally {
      view.value.release();
    }
  }

  async applyGitData(layer: string, root: string, paths: string[], removed: string[] = []): Promise<string[]> {
    const upper = this.#upper(root, layer);
    if (upper === undefined) return paths.map((p) => `${p} (the layer is gone)`);
    const gitDir = nodePath.join(root, '.git');
    if (fs.realpathSync.native(gitDir) !== gitDir || !fs.lstatSync(gitDir).isDirectory()) return [".git (not a folder of the workspace's own)"];
    // Objects before what names them: a ref or an index never points at an object the repository lacks.
    const ordered = [...paths].sort((a, b) => Number(!a.startsWith('.git/objects/')) - Number(!b.startsWith('.git/objects/')) || (a < b ? -1 : a > b ? 1 : 0));
    const problems: string[] = [];
    for (const rel of ordered) {
      const parts = segments(rel);
      if (parts === undefined || parts[0] !== '.git') {
        problems.push(`${rel} (not in git's folder)`);
        continue;
      }
      try {
        copyIn(nodePath.join(upper, ...parts), nodePath.join(root, ...parts), gitDir);
      } catch (error) {
        problems.push(`${rel} (${errorText(error)})`);
      }
    }
    // Removals last: what git dropped (refs/stash after `git stash pop`, a deleted branch and its log).
    for (const rel of removed) {
      const parts = segments(rel);
      if (parts === undefined || parts[0] !== '.git' || ['objects', 'hooks', 'info', 'config'].includes(parts[1] ?? '')) {
        problems.push(`${rel} (not git data a command may remove)`);
        continue;
      }
      const at = nodePath.join(root, ...parts);
      try {
        if (fs.realpathSync.native(nodePath.dirname(at)) !== nodePath.dirname(at)) throw new Error('a link is on its path');
        const s = fs.lstatSync(at);
        if (s.isFile()) fs.unlinkSync(at);
        // A removed worktree's own git folder, whole (rm never follows a link inside it).
        else if (s.isDirectory() && parts[1] === 'worktrees' && parts.length === 3) fs.rmSync(at, { recursive: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${rel} (${errorText(error)})`);
      }
    }
    return problems;
  }
}

/** Copies one regular file from the layer to `to` (inside `within`): folders made, temp file, rename. */
function copyIn(from: string, to: string, within: string): void {
  const dir = nodePath.dirname(to);
  fs.mkdirSync(dir, { recursive: true });
  if (fs.realpathSync.native(dir) !== dir || !isWithin(dir, within)) throw new Error('a link is on its path');
  const fd = fs.openSync(from, READ_FLAGS);
  try {
    const s = fs.fstatSync(fd);
    if (!s.isFile()) throw new Error('not a regular file in the layer');
    const temp = nodePath.join(dir, `.${nodePath.basename(to)}.pe-stage.tmp`);
    fs.writeFileSync(temp, fs.readFileSync(fd), { mode: s.mode & 0o777 });
    fs.renameSync(temp, to);
  } finally {
    fs.closeSync(fd);
  }
}
