/**
 * The edit corpus: real code changes between two published versions of a few npm packages. Each package
 * pair is fetched with `npm pack` into a cache directory (never committed), source files present in both
 * versions are line-diffed, and every change block becomes one str_replace edit with one line of context
 * on each side — the shape models send. The expected result of an edit is the OLD file with exactly that
 * block replaced.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { diffLines } from '../../src/core/edits/lineDiff';

export const PACKAGES = [
  { name: 'semver', from: '7.5.4', to: '7.6.3' },
  { name: 'commander', from: '11.1.0', to: '12.1.0' },
  { name: 'express', from: '4.18.2', to: '4.21.2' },
  { name: 'yargs-parser', from: '20.2.9', to: '21.1.1' },
  { name: 'debug', from: '4.3.4', to: '4.4.0' },
  { name: 'picomatch', from: '2.3.1', to: '4.0.2' },
  { name: 'ignore', from: '5.2.4', to: '7.0.0' },
] as const;

export interface BaseEdit {
  id: string;
  /** package@from → to : file */
  source: string;
  /** The old file (LF line endings). */
  file: string;
  /** 0-based index of the first changed old line, and the block. */
  at: number;
  removed: string[];
  added: string[];
}

const MAX_BLOCK_LINES = 30;

export function cacheDir(): string {
  return process.env.PE_BENCH_CACHE ?? path.join(os.tmpdir(), 'pe-bench-edits-cache');
}

function fetchPackage(name: string, version: string): string | undefined {
  const dir = path.join(cacheDir(), `${name}-${version}`);
  if (fs.existsSync(path.join(dir, 'package'))) return path.join(dir, 'package');
  fs.mkdirSync(dir, { recursive: true });
  try {
    const out = execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', dir, '--silent'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tarball = out.trim().split('\n').pop() ?? '';
    execFileSync('tar', ['-xzf', path.join(dir, tarball), '-C', dir]);
    return path.join(dir, 'package');
  } catch (err) {
    console.error(`[corpus] could not fetch ${name}@${version}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    return undefined;
  }
}

function sourceFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...sourceFiles(dir, r));
    else if (/\.(js|cjs|mjs|ts)$/.test(e.name) && !/\.min\.js$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(r);
  }
  return out;
}

export function buildCorpus(): BaseEdit[] {
  const edits: BaseEdit[] = [];
  for (const p of PACKAGES) {
    const a = fetchPackage(p.name, p.from);
    const b = fetchPackage(p.name, p.to);
    if (!a || !b) continue;
    for (const rel of sourceFiles(a)) {
      const newPath = path.join(b, rel);
      if (!fs.existsSync(newPath)) continue;
      const oldText = fs.readFileSync(path.join(a, rel), 'utf8');
      const newText = fs.readFileSync(newPath, 'utf8');
      if (oldText === newText || oldText.includes('\r') || newText.includes('\r') || oldText.length > 200_000) continue;
      edits.push(...editsBetween(`${p.name}/${rel}`, `${p.name}@${p.from}→${p.to}:${rel}`, oldText, newText, edits.length));
    }
  }
  return edits;
}

/** Every change block between two versions of one file, as str_replace edits (ids numbered from `n`). */
export function editsBetween(name: string, source: string, oldText: string, newText: string, n: number): BaseEdit[] {
  const edits: BaseEdit[] = [];
  const oldLines = oldText.split('\n');
  const ops = diffLines(oldLines, newText.split('\n'));
  let oi = 0;
  for (let i = 0; i < ops.length;) {
    const op = ops[i];
    if (!op) break;
    if (op.op === 'equal') {
      oi++;
      i++;
      continue;
    }
    const removed: string[] = [];
    const added: string[] = [];
    const at = oi;
    while (i < ops.length && ops[i]?.op !== 'equal') {
      const o = ops[i] as { op: string; line: string };
      if (o.op === 'delete') {
        removed.push(o.line);
        oi++;
      } else added.push(o.line);
      i++;
    }
    if (removed.length + added.length > MAX_BLOCK_LINES) continue;
    if (removed.join('').trim() === '' && added.join('').trim() === '') continue;
    edits.push({ id: `${name}#${n + edits.length}`, source, file: oldText, at, removed, added });
  }
  return edits;
}
