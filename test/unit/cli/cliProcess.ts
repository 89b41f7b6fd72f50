/**
 * The CLI as a user runs it (test/support/cliBinary.ts: dist/cli.js when fresh, else a bundle made once)
 * run as a child process, on copies of a small workspace.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath, spawnCli, type CliExit } from '../../support/cliBinary';

export type CliRun = CliExit;

/** Runs the CLI with only PATH and `env` in its environment; stdin gets `stdin` (and stays open if asked). */
export function runCli(cli: string, args: string[], env: Record<string, string>, stdin = '', keepStdinOpen = false): Promise<CliRun> {
  return spawnCli(cli, args, { PATH: process.env.PATH ?? '', ...env }, { stdin, keepStdinOpen });
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
    cli = await cliPath();
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
