/**
 * Where the test host lives and which versions it pins. code-server 4.100.3 is VS Code 1.100.3 on Node 20
 * (docs/development.md, "The test host"); later releases need Node 22+, so the pin moves with
 * `engines.vscode`.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';
/** The VS Code release inside that code-server (checked against `vscode.version` by the integration tier). */
export const VSCODE_VERSION = '1.100.3';

/** The repository root (this file is test/support/host/hostPaths.ts). */
export const repoRoot = resolve(__dirname, '..', '..', '..');

/**
 * The cache that holds the code-server install, outside the clone so a fresh clone reuses it.
 * `PLAN_EXECUTE_CACHE_DIR` overrides it (an empty directory measures a cold run honestly).
 */
export function cacheRoot(): string {
  const override = process.env.PLAN_EXECUTE_CACHE_DIR;
  if (override) return resolve(override);
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg ? resolve(xdg) : join(homedir(), '.cache'), 'plan-execute');
}

export function codeServerInstallDir(): string {
  return join(cacheRoot(), `code-server-${CODE_SERVER_VERSION}`);
}

/** code-server's Node entry point inside an install directory. */
export function codeServerEntry(installDir = codeServerInstallDir()): string {
  return join(installDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/** Debian's Chromium unless `PLAN_EXECUTE_CHROMIUM` names another Chromium-family binary. */
export function chromiumPath(): string {
  return process.env.PLAN_EXECUTE_CHROMIUM ?? '/usr/bin/chromium';
}

/** The absolute path of `name` on PATH, or undefined. */
export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}
