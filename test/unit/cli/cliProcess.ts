/**
 * The CLI as a user runs it: bundled like dist/cli.js (built once per suite) and run as a child process.
 */
import { spawn } from 'node:child_process';
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
