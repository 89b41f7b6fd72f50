/**
 * Installs code-server into the cache (hostPaths.cacheRoot) once, so later runs and fresh clones reuse it.
 *
 * Order of events: take the lock → if the marker is there, done → otherwise wipe the half install →
 * `npm install code-server@VERSION` → check it runs → write the marker → release the lock. The marker is
 * written last, so an interrupted install is redone; the lock keeps two concurrent runs from installing
 * into the same directory at once.
 *
 * Why the environment below: npm ≥ 11 skips dependency install scripts unless approved, and code-server is
 * nothing without its postinstall (which runs a nested `npm install` for VS Code's own modules, then
 * builds node-pty, kerberos and others); the nested install inherits only environment config, so the
 * approval goes there. node-pty's build runs `npx node-gyp`, which must not prompt. @vscode/ripgrep
 * downloads `rg` from the internet unless its cache file in os.tmpdir() exists, so a private TMPDIR is
 * seeded with the system `rg`.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODE_SERVER_VERSION, codeServerEntry, codeServerInstallDir, onPath } from './hostPaths';
import { spawnGroup } from './processGroups';
import { ensureSystemPackages, type Log } from './systemPackages';

const MARKER = '.plan-execute-installed';
const LOCK_POLL_MS = 2000;
/** @vscode/ripgrep 1.15.11 (code-server 4.100.3's) looks for this file before downloading. */
const RIPGREP_CACHE = { dir: 'vscode-ripgrep-cache-1.15.11', file: 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz' };

export interface InstallOptions {
  log: Log;
  /** How long to wait for another run's install, and for our own npm install. */
  timeoutMs?: number;
}

/** Returns the path of code-server's entry script, installing it first when the cache has none. */
export async function ensureCodeServer(options: InstallOptions): Promise<string> {
  const dir = codeServerInstallDir();
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  if (isInstalled(dir)) {
    ensureSystemPackages({ forBuild: false, log: options.log });
    return codeServerEntry(dir);
  }
  ensureSystemPackages({ forBuild: true, log: options.log });
  const release = await acquireLock(`${dir}.lock`, timeoutMs, options.log);
  try {
    if (!isInstalled(dir)) await install(dir, timeoutMs, options.log);
  } finally {
    release();
  }
  return codeServerEntry(dir);
}

function isInstalled(dir: string): boolean {
  const marker = join(dir, MARKER);
  return existsSync(marker) && readFileSync(marker, 'utf8').startsWith(`${CODE_SERVER_VERSION} `) && existsSync(codeServerEntry(dir));
}

async function install(dir: string, timeoutMs: number, log: Log): Promise<void> {
  const started = Date.now();
  log(`installing code-server ${CODE_SERVER_VERSION} into ${dir} (once; later runs reuse it)`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'plan-execute-test-host', private: true, dependencies: { 'code-server': CODE_SERVER_VERSION } }, null, 2)}\n`,
  );
  const tmp = mkdtempSync(join(dir, '.tmp-'));
  seedRipgrepCache(tmp, log);
  const env = installEnv(tmp);
  const logFile = join(dir, 'npm-install.log');
  const status = await runLogged('npm', ['install', '--no-audit', '--no-fund', '--loglevel=warn'], { cwd: dir, env, logFile, timeoutMs });
  if (status !== 0) {
    throw new Error(`npm install code-server@${CODE_SERVER_VERSION} failed (${status}); last lines of ${logFile}:\n${tail(logFile, 40)}`);
  }
  verify(dir);
  rmSync(tmp, { recursive: true, force: true });
  writeFileSync(join(dir, MARKER), `${CODE_SERVER_VERSION} node ${process.version} ${new Date().toISOString()}\n`);
  log(`code-server installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function installEnv(tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // `npm test` exports its own package's lifecycle context; the install is a different project.
    if (/^npm_(package_|lifecycle_|command$|config_local_prefix$)/i.test(key) || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  env.TMPDIR = tmp;
  env.npm_config_yes = 'true';
  // code-server's postinstall.sh refuses to run as root unless this is set (npm ≥ 7 no longer reads it).
  env.npm_config_unsafe_perm = 'true';
  env.npm_config_dangerously_allow_all_scripts = 'true';
  env.npm_config_update_notifier = 'false';
  // Node's headers ship with Debian's nodejs: build against them rather than downloading them.
  const debianHeaders = process.execPath === '/usr/bin/node' && existsSync('/usr/include/node/node.h');
  if (debianHeaders && !hasNpmConfig('nodedir')) env.npm_config_nodedir = '/usr';
  return env;
}

function hasNpmConfig(key: string): boolean {
  if (Object.keys(process.env).some((name) => name.toLowerCase() === `npm_config_${key}`)) return true;
  const result = spawnSync('npm', ['config', 'get', key], { encoding: 'utf8' });
  const value = result.stdout.trim();
  return result.status === 0 && value !== '' && value !== 'undefined' && value !== 'null';
}

function seedRipgrepCache(tmp: string, log: Log): void {
  const rg = onPath('rg');
  if (!rg) {
    log('no rg on PATH: @vscode/ripgrep will try to download one (fails offline; install the ripgrep package)');
    return;
  }
  const stage = join(tmp, 'rg-stage');
  mkdirSync(stage, { recursive: true });
  copyFileSync(rg, join(stage, 'rg'));
  const cacheDir = join(tmp, RIPGREP_CACHE.dir);
  mkdirSync(cacheDir, { recursive: true });
  const result = spawnSync('tar', ['-czf', join(cacheDir, RIPGREP_CACHE.file), '-C', stage, 'rg'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`could not seed the ripgrep cache: ${result.stderr}`);
}

function verify(dir: string): void {
  const entry = codeServerEntry(dir);
  // XDG dirs pointed into the install: even `--version` writes a default config and logs under them.
  const env = { ...process.env, XDG_CONFIG_HOME: join(dir, '.verify'), XDG_DATA_HOME: join(dir, '.verify') };
  const version = spawnSync(process.execPath, [entry, '--version'], { encoding: 'utf8', timeout: 60_000, env });
  rmSync(join(dir, '.verify'), { recursive: true, force: true });
  if (version.status !== 0 || !version.stdout.includes(CODE_SERVER_VERSION)) {
    throw new Error(`the installed code-server does not run: ${version.stdout}${version.stderr}`);
  }
  // Both come from install scripts; without them terminals and search silently break.
  const vscodeModules = join(dir, 'node_modules', 'code-server', 'lib', 'vscode', 'node_modules');
  for (const file of ['node-pty/build/Release/pty.node', '@vscode/ripgrep/bin/rg']) {
    if (!existsSync(join(vscodeModules, file))) throw new Error(`the code-server install lacks ${file}: an install script did not run`);
  }
}

interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
  timeoutMs: number;
}

/** Runs a command in its own process group with output to a file; kills the group on timeout. */
async function runLogged(command: string, args: string[], options: RunOptions): Promise<number | string> {
  const fd = openSync(options.logFile, 'w');
  try {
    const group = spawnGroup(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', fd, fd] });
    const timer = setTimeout(() => void group.stop(), options.timeoutMs);
    const status = await group.exited;
    clearTimeout(timer);
    return status;
  } finally {
    closeSync(fd);
  }
}

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * A directory lock (mkdir is atomic). A lock whose owner process is gone is stale and taken over; a live
 * owner is waited for, up to `timeoutMs`.
 */
async function acquireLock(lockDir: string, timeoutMs: number, log: Log): Promise<() => void> {
  const deadline = Date.now() + timeoutMs;
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lockDir, { recursive: false });
      writeFileSync(join(lockDir, 'owner'), String(process.pid));
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          mkdirSync(join(lockDir, '..'), { recursive: true });
          continue;
        }
        throw error;
      }
    }
    const owner = Number.parseInt(readOr(join(lockDir, 'owner'), ''), 10);
    if (!Number.isFinite(owner) || !isAlive(owner)) {
      // The owner died (or had not written its pid yet: give it one poll before calling it stale).
      if (Number.isFinite(owner) || announced) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
    }
    if (!announced) {
      log(`waiting for another run (pid ${Number.isFinite(owner) ? owner : '?'}) to finish installing code-server`);
      announced = true;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for the install lock ${lockDir}`);
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
