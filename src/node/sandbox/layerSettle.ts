/**
 * After the engine has judged a command's staged changes, the layer keeps only what stays private to the
 * step (build outputs, caches): what was applied to the workspace is there now, what was refused is
 * dropped. Rebuilt, not edited in place: a fresh upper folder receives each kept entry by rename (cheap,
 * same file system; a whiteout or an opaque folder keeps what it means), its parents made as plain folders
 * with the workspace's modes — so a folder the command replaced but may not keep shows the workspace's
 * content again. Runs only while no command has the layer mounted (one command at a time per step). What
 * the old upper folder still holds is removed in the background (nothing mounts or reads it any more).
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { discardLayerTree, removeLayerTree } from './stagingLayers';
import { errorText } from '../../core/primitives/errorText';
import { isDenied, isMissing, whenMissing } from '../fsErrors';
import { isWithinAny } from '../../core/primitives/paths';

function modeOf(abs: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(abs);
  } catch (error) {
    // Not there, or behind a folder we may not search: nothing to take a mode from, nothing to keep.
    if (!isMissing(error) && !isDenied(error)) throw error;
    return undefined;
  }
}

/** Keeps `keep` (workspace-relative paths, each with what is below it) in `upper`; returns what went wrong, each with why. */
export function settleLayer(root: string, upper: string, keep: readonly string[]): string[] {
  const problems: string[] = [];
  const next = `${upper}.next`;
  // What the layer held besides what it keeps is removed in the background: a command that rewrote 1,000
  // files leaves 1,000 files to unlink, which on a disk mounted with `discard` costs more than applying them.
  const old = `${upper}.old-${process.pid}-${++settled}`;
  removeLayerTree(next);
  const rootStat = modeOf(root);
  fs.mkdirSync(next, { mode: 0o700 });
  if (rootStat) fs.chmodSync(next, rootStat.mode & 0o7777);
  const sorted = wholeFolders(root, upper, keep);
  const moved = new Set<string>();
  for (const rel of sorted) {
    if (rel === '' || isWithinAny(parentOf(rel), moved)) continue;
    const from = nodePath.join(upper, rel);
    if (!modeOf(from)) continue;
    try {
      const parts = rel.split('/');
      for (let i = 1; i < parts.length; i++) {
        const sub = parts.slice(0, i).join('/');
        const dir = nodePath.join(next, sub);
        if (modeOf(dir)) continue;
        fs.mkdirSync(dir);
        const like = modeOf(nodePath.join(root, sub)) ?? modeOf(nodePath.join(upper, sub));
        if (like?.isDirectory()) {
          fs.chmodSync(dir, like.mode & 0o7777);
          fs.utimesSync(dir, like.atime, like.mtime);
        }
      }
      fs.renameSync(from, nodePath.join(next, rel));
      moved.add(rel);
    } catch (error) {
      problems.push(`${rel} (could not be kept for the step: ${errorText(error)})`);
    }
  }
  fs.renameSync(upper, old);
  fs.renameSync(next, upper);
  discardLayerTree(old);
  return problems;
}

let settled = 0;

const parentOf = (rel: string): string => (rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');

/**
 * The kept paths, fewest renames first: a folder the command made (the workspace has none there) whose every
 * entry is kept is kept whole — 16,000 new folders in one new folder are one rename, not 16,000. Sorted.
 */
function wholeFolders(root: string, upper: string, keep: readonly string[]): string[] {
  const kept = new Set(keep.filter((k) => k !== ''));
  for (let changed = true; changed;) {
    changed = false;
    const children = new Map<string, string[]>();
    for (const rel of kept) {
      const parent = parentOf(rel);
      if (parent === '' || isWithinAny(parent, kept)) continue;
      const held = children.get(parent);
      if (held) held.push(rel);
      else children.set(parent, [rel]);
    }
    for (const [parent, held] of children) {
      if (modeOf(nodePath.join(root, parent))) continue; // the workspace's folder: its own mode and content stay
      let names: string[];
      try {
        names = fs.readdirSync(nodePath.join(upper, parent));
      } catch (error) {
        whenMissing(error, undefined); // not a folder of the layer (gone, or a file): not kept whole
        continue;
      }
      if (names.length !== held.length) continue;
      for (const rel of held) kept.delete(rel);
      kept.add(parent);
      changed = true;
    }
  }
  return [...kept].sort();
}
