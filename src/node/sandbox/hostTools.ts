/**
 * The programs the host side of the sandbox runs itself (git for its record check, rm, mount, unshare,
 * prlimit, sh): always by absolute path from the system's own folders, never through PATH. A workspace
 * folder can be on PATH (direnv's `PATH_add bin`, a project's `node_modules/.bin`), and a step may have
 * just written a `git` or `rm` there: found through PATH, it would run on the host, outside any sandbox.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { hasCode, isDenied, isMissing } from '../fsErrors';

/** The only folders host tools are taken from, in order. */
export const SYSTEM_BIN_DIRS: readonly string[] = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin', '/opt/homebrew/bin'];

const found = new Map<string, string | undefined>();

/** Absolute path of a system program, or undefined when none of the system folders has it. */
export function hostTool(name: string): string | undefined {
  if (found.has(name)) return found.get(name);
  let hit: string | undefined;
  for (const dir of SYSTEM_BIN_DIRS) {
    const candidate = nodePath.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) {
        hit = candidate;
        break;
      }
    } catch (error) {
      // Not there, not executable for us (EACCES), or a link loop: the next system folder.
      if (!isMissing(error) && !isDenied(error) && !hasCode(error, 'ELOOP')) throw error;
    }
  }
  found.set(name, hit);
  return hit;
}

/** The PATH host tools run with: the system folders only. */
export const HOST_PATH = SYSTEM_BIN_DIRS.join(':');

/**
 * Removes a whole tree without following links. `rm -rf` walks with file descriptors, so a tree buried
 * past PATH_MAX goes too (fs.rmSync gives up there); Windows has no such depth to fear. A folder the
 * command made read-only (which stops `rm` for a user who is not root) is opened first: `chmod -R` does not
 * follow links. Both by absolute path: a `rm` a step planted in a workspace folder on PATH never runs.
 */
export function removeTree(abs: string): void {
  if (process.platform === 'win32') {
    fs.rmSync(abs, { recursive: true, force: true });
    return;
  }
  const rm = hostTool('rm');
  const chmod = hostTool('chmod');
  if (rm === undefined) {
    fs.rmSync(abs, { recursive: true, force: true });
    return;
  }
  let r = spawnSync(rm, ['-rf', '--', abs], { stdio: 'ignore', timeout: 120_000, env: { PATH: HOST_PATH } });
  if ((r.status !== 0 || fs.existsSync(abs)) && chmod !== undefined) {
    spawnSync(chmod, ['-R', 'u+rwx', '--', abs], { stdio: 'ignore', timeout: 120_000, env: { PATH: HOST_PATH } });
    r = spawnSync(rm, ['-rf', '--', abs], { stdio: 'ignore', timeout: 120_000, env: { PATH: HOST_PATH } });
  }
  if (r.status !== 0 || fs.existsSync(abs)) throw new Error(`could not remove the tree (rm exit ${r.status ?? r.signal})`);
}
