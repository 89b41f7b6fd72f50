// `npm run bench [-- NAME ...]`: builds the production bundles, then runs every bench/<name>/index.ts (or
// only the named ones), one after another — they share 2 cores, and parallel benches would measure each
// other. Each bench prints its own figures (ratios measured within one run); this script only reports
// which benches ran and which failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = dirname(benchDir);
const wanted = process.argv.slice(2);

const available = readdirSync(benchDir)
  .filter((name) => statSync(join(benchDir, name)).isDirectory() && existsSync(join(benchDir, name, 'index.ts')))
  .sort();
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`no such bench: ${unknown.join(', ')} (available: ${available.join(', ') || 'none'})`);
  process.exit(2);
}
const chosen = wanted.length > 0 ? available.filter((name) => wanted.includes(name)) : available;

const build = spawnSync(process.execPath, [join(root, 'esbuild.mjs'), '--production'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const failed = [];
for (const name of chosen) {
  console.log(`\n━━ bench/${name} ${'━'.repeat(Math.max(0, 56 - name.length))}`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(benchDir, name, 'index.ts')], { cwd: root, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) failed.push(name);
  console.log(`bench/${name}: ${result.status === 0 ? 'done' : `FAILED (exit ${result.status ?? result.signal})`} in ${seconds} s`);
}
console.log(`\nbenches run: ${chosen.length}, failed: ${failed.length}${failed.length ? ` (${failed.join(', ')})` : ''}`);
process.exit(failed.length > 0 ? 1 : 0);
