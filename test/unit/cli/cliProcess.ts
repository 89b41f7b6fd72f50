/**
 * The CLI as a user runs it: bundled like dist/cli.js (built once per suite) and run as a child process,
 * on copies of a small workspace.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Bundles src/node/cli.ts into `dir` and returns the script's path. */
export async function buildCli(dir: string): Promise<string> {
  const cli = join(dir, 'cli.js');
  await build({ entryPoints: ['src/node/cli.ts'], bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: cli, logLevel: 'silent' });
  return cli;
}

/** Runs the CLI with only PATH and `env` in its environment; stdin gets `stdin` (and stays open if asked). */
export function runCli(cli: string, args: string[], env: Record<string, string>, stdin = '', keepStdinOpen = false): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    if (keepStdinOpen) child.stdin.write(stdin);
    else child.stdin.end(stdin);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface CliFixture {
  /** A temp folder for the suite (traces go here). */
  readonly dir: string;
  /** The bundled CLI. */
  readonly cli: string;
  /** A fresh copy of the small workspace (package.json, src/index.js printing 'start'), named `name`. */
  fresh(name: string): string;
}

/** Mocha hooks for a suite that runs the CLI: built once into a temp folder, removed after the suite. */
export function useCliFixture(prefix: string): CliFixture {
  let dir = '';
  let cli = '';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    cli = await buildCli(dir);
    const template = join(dir, 'template');
    mkdirSync(join(template, 'src'), { recursive: true });
    writeFileSync(join(template, 'package.json'), '{"name":"demo"}\n');
    writeFileSync(join(template, 'src', 'index.js'), "console.log('start');\n");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  return {
    get dir() {
      return dir;
    },
    get cli() {
      return cli;
    },
    fresh(name) {
      const ws = join(dir, name);
      cpSync(join(dir, 'template'), ws, { recursive: true });
      return ws;
    },
  };
}
