/**
 * git's side of a staged command. A step granted git writes commits, stages and makes refs in its layer;
 * before any of it reaches the workspace, what git records there is compared with the workspace itself —
 * not with the layer's working tree, whose changes outside the edit globs never reach the user
 * (gitRecord.ts `gitRecordedSince`). git then reads the layer's data through a read-only view: a user
 * namespace of its own where the layer is mounted over the workspace at a private mount point, and git
 * runs inside bubblewrap there (no network, nothing writable), with:
 *   - `GIT_DIR` the view's `.git`, `GIT_WORK_TREE` the real workspace;
 *   - the user's own `.git/config` bound over the layer's (a config the step rewrote — a filter or a
 *     textconv naming a program — never runs: git runs what the user's own git would);
 *   - no system or global config, no hooks, no fsmonitor, no replace refs (gitRecord.ts SAFE_GIT_OPTIONS).
 * Which config keys the layer changed is read with `git config --file --no-includes` (which runs nothing).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { err, ok, type Result } from '../../core/contracts/result';
import { errorText } from '../../core/primitives/errorText';
import { isMissing } from '../fsErrors';
import { SAFE_GIT_OPTIONS, safeGitEnv, type GitRun } from '../gitRecord';
import { bwrapPath } from './detect';
import { HOST_PATH, hostTool } from './hostTools';

/** `section.key` → its values, from a config file (no includes followed, nothing run). */
function configEntries(file: string): Map<string, string[]> | undefined {
  const git = hostTool('git');
  if (git === undefined || !fs.existsSync(file)) return new Map();
  const r = spawnSync(git, ['config', '--file', file, '--no-includes', '--list', '-z'], { encoding: 'utf8', timeout: 10_000, env: safeGitEnv('/') });
  if (r.status !== 0) return undefined;
  const out = new Map<string, string[]>();
  for (const item of r.stdout.split('\0')) {
    if (item === '') continue;
    const nl = item.indexOf('\n');
    const key = (nl === -1 ? item : item.slice(0, nl)).toLowerCase();
    out.set(key, [...(out.get(key) ?? []), nl === -1 ? '' : item.slice(nl + 1)]);
  }
  return out;
}

/** The config keys the layer's `.git/config` adds, changes or removes ([] when it has none of its own). */
export function configChanges(root: string, upper: string): string[] {
  const staged = nodePath.join(upper, '.git', 'config');
  let s: fs.Stats;
  try {
    s = fs.lstatSync(staged);
  } catch (error) {
    // Missing: the layer has no config of its own. Anything else fails closed: reported as unreadable.
    if (isMissing(error)) return [];
    return [`(.git/config could not be read: ${errorText(error)})`];
  }
  if (!s.isFile()) return ['(.git/config is no longer a file)'];
  const before = configEntries(nodePath.join(root, '.git', 'config'));
  const after = configEntries(staged);
  if (before === undefined || after === undefined) return ['(.git/config could not be read)'];
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => JSON.stringify(before.get(k) ?? []) !== JSON.stringify(after.get(k) ?? [])).sort();
}

const SCRIPT = [
  'root=$1 upper=$2 at=$3 mnt=$4',
  'shift 4',
  'exec 7<"$root" 8<"$upper" || exit 120',
  '"$mnt" -t overlay overlay -o ro,userxattr,lowerdir=/proc/self/fd/8:/proc/self/fd/7 "$at" || exit 121',
  'exec 7<&- 8<&-',
  'exec "$@"',
].join('\n');

/** git on the layer's view, and how to release the view's mount point. */
export interface View {
  git: GitRun;
  release(): void;
}

/** Why git's record could not be reviewed through a view (a tool missing). */
export interface ViewUnavailable {
  reason: string;
}

/** git on the layer's view (git data from the layer, working tree the real workspace), confined. */
export function viewGit(root: string, upper: string): Result<View, ViewUnavailable> {
  const unshare = hostTool('unshare');
  const mount = hostTool('mount');
  const sh = hostTool('sh');
  const git = hostTool('git');
  const bwrap = bwrapPath();
  if (!unshare || !mount || !sh || !git || !bwrap) return err({ reason: "git, util-linux or bubblewrap is missing: git's record could not be reviewed" });
  const base = nodePath.dirname(nodePath.dirname(upper));
  const at = fs.mkdtempSync(nodePath.join(base, 'gitview-'));
  const realConfig = nodePath.join(root, '.git', 'config');
  const hasConfig = fs.existsSync(realConfig);
  const run: GitRun = (args, input) => {
    const confined = [
      bwrap,
      '--unshare-user',
      '--unshare-pid',
      '--unshare-net',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-cgroup-try',
      '--disable-userns',
      '--die-with-parent',
      '--new-session',
      '--cap-drop',
      'ALL',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      ...(hasConfig ? ['--ro-bind', realConfig, nodePath.join(at, '.git', 'config')] : []),
      '--chdir',
      root,
      '--',
      git,
      ...SAFE_GIT_OPTIONS,
      ...args,
    ];
    const r = spawnSync(unshare, ['--user', '--map-root-user', '--mount', '--', sh, '-c', SCRIPT, 'sh', root, upper, at, mount, ...confined], {
      encoding: 'utf8',
      timeout: 60_000,
      maxBuffer: 64 * 1024 * 1024,
      env: {
        ...safeGitEnv('/nonexistent'),
        PATH: HOST_PATH,
        GIT_DIR: nodePath.join(at, '.git'),
        GIT_WORK_TREE: root,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
      },
      ...(input !== undefined ? { input } : {}),
    });
    if (process.env.PE_DEBUG_GITVIEW) process.stderr.write(`gitview ${args.join(' ')} → ${r.status} ${r.stderr}\n`);
    return { ok: r.status === 0, out: r.stdout ?? '' };
  };
  return ok({ git: run, release: () => fs.rmSync(at, { recursive: true, force: true }) });
}
