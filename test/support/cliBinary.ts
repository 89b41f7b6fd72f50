/**
 * The real CLI, as a user runs it, for every test that drives it (the CLI tests, the escape suite, the eval
 * harness's tests): which bundle to run, and one way to run it — a child process in its own process group,
 * killed whole at a deadline, with only the environment the test gives it.
 *
 * dist/cli.js is used when it is newer than every source file (after `npm run build`, as `npm test` does);
 * otherwise the CLI is bundled once per test process into a folder under test-results/ (removed at exit), so a stale
 * build never tests old code.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const REPO = resolve(__dirname, '../..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

let bundled: Promise<string> | undefined;

/** The CLI to test: `override` when given, dist/cli.js when fresh, else a bundle made once per process. */
export function cliPath(override?: string): Promise<string> {
  if (override) return Promise.resolve(resolve(override));
  const dist = join(REPO, 'dist', 'cli.js');
  if (existsSync(dist) && statSync(dist).mtimeMs >= newestMtime(join(REPO, 'src'))) return Promise.resolve(dist);
  bundled ??= (async () => {
    // Inside the repository (test-results/ is git-ignored), so the bundle finds what dist/cli.js finds by
    // walking up from itself: the project's package.json, the bundled eval suite, node_modules.
    mkdirSync(join(REPO, 'test-results'), { recursive: true });
    const dir = mkdtempSync(join(REPO, 'test-results', 'cli-bundle-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const out = join(dir, 'cli.js');
    await build({
      entryPoints: [join(REPO, 'src/node/cli.ts')],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      outfile: out,
      logLevel: 'silent',
    });
    return out;
  })();
  return bundled;
}

export interface CliExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface SpawnOptions {
  /** Written to stdin, which is then closed (unless keepStdinOpen). */
  stdin?: string;
  keepStdinOpen?: boolean;
  /** Default 60 s; then the whole process group is killed. */
  timeoutMs?: number;
  /** Polled every 50 ms while the CLI runs; the first time it holds, the CLI gets SIGINT (Ctrl-C). */
  interruptWhen?: () => boolean;
  cwd?: string;
}

/** Runs `node CLI args…` with exactly `env`, in its own process group. */
export function spawnCli(cli: string, args: readonly string[], env: Record<string, string>, o: SpawnOptions = {}): Promise<CliExit> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true, ...(o.cwd ? { cwd: o.cwd } : {}) });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdin.on('error', () => undefined);
    if (o.keepStdinOpen) child.stdin.write(o.stdin ?? '');
    else child.stdin.end(o.stdin ?? '');
    const timer = setTimeout(() => {
      err += '\n[test: the CLI timed out and was killed]\n';
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // already gone
      }
    }, o.timeoutMs ?? 60_000);
    const poll = o.interruptWhen
      ? setInterval(() => {
          if (!o.interruptWhen?.()) return;
          clearInterval(poll);
          child.kill('SIGINT');
        }, 50)
      : undefined;
    child.on('close', (c) => {
      clearTimeout(timer);
      clearInterval(poll);
      done({ code: c, stdout: out, stderr: err });
    });
  });
}
