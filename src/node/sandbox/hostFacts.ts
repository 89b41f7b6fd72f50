/**
 * The few facts about the machine the sandbox spec needs (the user's home, where toolchains live, ignore
 * files). Read here, in the Node runner, once per command, and handed to the engine through the Terminal
 * port, so `sandboxSpec` and the staged judge stay pure functions that tests feed by hand.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { HostFacts } from '../../core/policy/sandboxSpec';
import { hostTool, HOST_PATH } from './hostTools';
import { spawnSync } from 'node:child_process';
import { hasCode, isDenied, isMissing } from '../fsErrors';

export function hostFacts(env: Record<string, string>): HostFacts {
  let home: string | undefined;
  try {
    home = fs.realpathSync(os.homedir());
  } catch (error) {
    // No home folder, or one we may not resolve: the spec then knows no home (nothing of it is bound).
    if (!isMissing(error) && !isDenied(error)) throw error;
    home = undefined;
  }
  return {
    platform: process.platform,
    home,
    pathEntries: (env.PATH ?? env.Path ?? '').split(nodePath.delimiter).filter((e) => nodePath.isAbsolute(e)),
    ...(env.XDG_RUNTIME_DIR && nodePath.isAbsolute(env.XDG_RUNTIME_DIR) ? { runtimeDir: env.XDG_RUNTIME_DIR } : {}),
    readText: (abs) => {
      try {
        return fs.readFileSync(abs, 'utf8').slice(0, 4096);
      } catch (error) {
        // Missing, unreadable, or a folder: no text there (the worktree check then finds no link).
        if (!isMissing(error) && !isDenied(error) && !hasCode(error, 'EISDIR')) throw error;
        return undefined;
      }
    },
    readIgnoreFile,
    globalExcludes,
    linkTarget: (abs) => {
      try {
        if (!fs.lstatSync(abs).isSymbolicLink()) return undefined;
        const real = fs.realpathSync.native(abs);
        return fs.statSync(real).isDirectory() ? real : undefined;
      } catch (error) {
        // Missing, dangling, a loop or behind a folder we may not search: not a linked folder.
        if (!isMissing(error) && !isDenied(error) && !hasCode(error, 'ELOOP')) throw error;
        return undefined;
      }
    },
    linkHop: (abs) => {
      try {
        return nodePath.resolve(nodePath.dirname(abs), fs.readlinkSync(abs));
      } catch (error) {
        // Not a link (EINVAL), missing, or behind a folder we may not search: no hop.
        if (!isMissing(error) && !isDenied(error) && !hasCode(error, 'EINVAL')) throw error;
        return undefined;
      }
    },
    listDir: (abs) => {
      try {
        return fs.readdirSync(abs);
      } catch (error) {
        // Missing, not a folder, or one we may not list: no entries to consider.
        if (!isMissing(error) && !isDenied(error)) throw error;
        return [];
      }
    },
  };
}

/** Ignore files past this size are not read (a real one is a few kilobytes). */
const IGNORE_FILE_MAX = 256 * 1024;

/**
 * An ignore file's text: opened without following a link, a regular file with no other hard link, small.
 * A repository can ship `.gitignore -> ~/.ssh/id_rsa`; its lines would become folder names in the workspace.
 */
function readIgnoreFile(abs: string): string | undefined {
  let fd: number | undefined;
  try {
    // Not through a linked folder either (a `.git/info` that points elsewhere).
    if (fs.realpathSync.native(nodePath.dirname(abs)) !== nodePath.dirname(abs)) return undefined;
    fd = fs.openSync(abs, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
    const s = fs.fstatSync(fd);
    if (!s.isFile() || s.nlink !== 1 || s.size > IGNORE_FILE_MAX) return undefined;
    return fs.readFileSync(fd, 'utf8');
  } catch (error) {
    // Missing, unreadable, a link (ELOOP from O_NOFOLLOW), a socket (ENXIO): fails closed, no ignore lines.
    if (!isMissing(error) && !isDenied(error) && !hasCode(error, 'ELOOP', 'ENXIO')) throw error;
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

let userExcludes: { text: string | undefined } | undefined;

/**
 * The user's global git excludes (`core.excludesFile`, else `$XDG_CONFIG_HOME/git/ignore`), read once per
 * process: what git ignores for them everywhere (`.DS_Store`, `.idea/`) is private to a step too.
 */
function globalExcludes(): string | undefined {
  if (userExcludes) return userExcludes.text;
  const home = os.homedir();
  let file: string | undefined;
  const git = hostTool('git');
  if (git) {
    const r = spawnSync(git, ['config', '--global', '--path', '--get', 'core.excludesFile'], {
      encoding: 'utf8',
      timeout: 5000,
      env: { PATH: HOST_PATH, HOME: home },
    });
    if (r.status === 0 && r.stdout.trim() !== '') file = r.stdout.trim();
  }
  const xdg = process.env.XDG_CONFIG_HOME && nodePath.isAbsolute(process.env.XDG_CONFIG_HOME) ? process.env.XDG_CONFIG_HOME : nodePath.join(home, '.config');
  file ??= nodePath.join(xdg, 'git', 'ignore');
  userExcludes = { text: nodePath.isAbsolute(file) ? readIgnoreFile(file) : undefined };
  return userExcludes.text;
}
