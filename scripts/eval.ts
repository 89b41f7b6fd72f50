/**
 * `npm run eval -- [options]`: builds the CLI when any source is newer than dist/cli.js (build output on
 * stderr, so the summary on stdout stays clean), then runs `node dist/cli.js eval [options]` in the
 * foreground — `npm run eval -- --help` for the options, `npm run eval -- merge a.json b.json` to merge.
 * Ctrl-C reaches the eval (same process group), which cancels its missions and keeps what it measured.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const cli = join(root, 'dist', 'cli.js');
if (!existsSync(cli) || statSync(cli).mtimeMs < newestMtime(join(root, 'src'))) {
  process.stderr.write('eval: building the CLI first (npm run build)\n');
  const build = spawnSync(process.execPath, [join(root, 'esbuild.mjs')], { cwd: root, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const child = spawn(process.execPath, [cli, 'eval', ...process.argv.slice(2)], { stdio: 'inherit' });
// The eval handles Ctrl-C itself (it cancels, then writes what it has); this wrapper just waits for it.
process.on('SIGINT', () => undefined);
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
