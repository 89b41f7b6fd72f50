/**
 * A run's workspace: a fresh copy of the task's `repo/` made a git repository (one commit, "task start"),
 * the npm packages the task asks for copied in from the harness's own node_modules (tasks get no network),
 * and fingerprints of the files the task's `untouched` globs name, taken before and after the mission.
 *
 * Git runs with no system or global config and no hooks, under a private HOME: the user's git setup never
 * shapes a task's starting state.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { sha256Hex } from '../../core/primitives/hash';
import type { Task } from './taskSpec';

/** Top-level folders never fingerprinted: git's data and the extension's store (the mission's own records). */
const SKIPPED_AT_ROOT = new Set(['.git', '.plan-execute']);
/**
 * Bytecode and test-runner caches, anywhere: running the tests (as a step should) writes them, which is no
 * change to a test. The check runs Python with its own bytecode cache (hiddenCheck.ts), so none of these
 * can steer it.
 */
const CACHES = new Set(['__pycache__', '.pytest_cache']);

function git(cwd: string, args: string[], home: string): Promise<void> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    LANG: 'C.UTF-8',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'eval',
    GIT_AUTHOR_EMAIL: 'eval@localhost',
    GIT_COMMITTER_NAME: 'eval',
    GIT_COMMITTER_EMAIL: 'eval@localhost',
  };
  return new Promise((done, fail) => {
    execFile(
      'git',
      ['-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args],
      { cwd, env },
      (error, _out, stderr) => {
        if (error) fail(new Error(`git ${args[0]} failed: ${stderr.trim() || error.message}`));
        else done();
      },
    );
  });
}

/** The harness's copy of an npm package: node_modules/<name> in the CLI's folder or any folder above it. */
function findPackageDir(name: string, from: string = __dirname): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', ...name.split('/'));
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Copies a package into the workspace's node_modules and links its programs into node_modules/.bin. */
function providePackage(ws: string, name: string): void {
  const source = findPackageDir(name);
  if (!source) throw new Error(`the task needs the npm package "${name}", which this installation does not have (npm ci in the project first)`);
  const target = join(ws, 'node_modules', ...name.split('/'));
  cpSync(source, target, { recursive: true, dereference: true });
  const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { name?: string; bin?: string | Record<string, string> };
  const bins = typeof manifest.bin === 'string' ? { [name.split('/').pop()!]: manifest.bin } : (manifest.bin ?? {});
  const binDir = join(ws, 'node_modules', '.bin');
  mkdirSync(binDir, { recursive: true });
  for (const [program, path] of Object.entries(bins)) {
    const link = join(binDir, program);
    if (existsSync(link)) continue;
    chmodSync(join(target, path), 0o755);
    symlinkSync(relative(binDir, join(target, path)), link);
  }
}

/**
 * Copies the task's repo/ to `ws` and commits it. A repo/ that already holds a .git keeps its history.
 * Returns the folders the harness added (provided packages), which fingerprints skip.
 */
export async function prepareWorkspace(task: Task, ws: string, home: string): Promise<string[]> {
  mkdirSync(home, { recursive: true });
  cpSync(task.repo, ws, { recursive: true, verbatimSymlinks: true });
  if (!existsSync(join(ws, '.git'))) {
    await git(ws, ['init', '-q'], home);
    await git(ws, ['add', '-A'], home);
    await git(ws, ['commit', '-q', '--allow-empty', '-m', 'task start'], home);
  }
  const exclude = join(ws, '.git', 'info', 'exclude');
  mkdirSync(dirname(exclude), { recursive: true });
  appendFileSync(exclude, `\n# added by plan-execute eval\n.plan-execute/\n${task.meta.packages.length > 0 ? 'node_modules/\n' : ''}`);
  for (const name of task.meta.packages) providePackage(ws, name);
  return task.meta.packages.map((name) => posix.join('node_modules', name));
}

/** Path → sha256 (or "link:<target>") of every file under `root` that an untouched glob matches. */
export function fingerprint(root: string, globs: readonly string[], skip: readonly string[] = []): Map<string, string> {
  const out = new Map<string, string>();
  if (globs.length === 0 || !existsSync(root)) return out;
  const match = picomatch([...globs], { dot: true });
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const abs = join(dir, entry.name);
      const rel = relative(root, abs).split(sep).join('/');
      if ((dir === root && SKIPPED_AT_ROOT.has(entry.name)) || (entry.isDirectory() && CACHES.has(entry.name))) continue;
      if (skip.includes(rel)) continue;
      if (entry.isDirectory()) walk(abs);
      else if (match(rel)) {
        const stat = lstatSync(abs);
        out.set(rel, stat.isSymbolicLink() ? `link:${readlinkSync(abs)}` : sha256Hex(readFileSync(abs)));
      }
    }
  };
  walk(root);
  return out;
}

/** Files an untouched glob names that were changed, added or removed, sorted. */
export function changedFiles(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
}
