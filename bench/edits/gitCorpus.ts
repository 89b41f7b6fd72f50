/**
 * A second corpus, for code other than the npm packages' JavaScript: the last commits of local git
 * repositories (Python, Go, Rust, TypeScript… — any clone or mirror passed with `--git DIR[,DIR…]`). Every
 * source file a commit changes gives the blocks of its diff, as buildCorpus does between two package
 * versions. Nothing is fetched or committed here: the repositories are the caller's.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { editsBetween, type BaseEdit } from './corpus';

const SOURCE = /\.(py|go|rs|ts|tsx|js|mjs|cjs|java|kt|c|h|cc|cpp|rb|swift|cs)$/;
const MAX_FILES_PER_COMMIT = 6;

function git(dir: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined; // a path absent on one side (added or deleted file): no edit there
  }
}

/** Edits from the last `commits` non-merge commits of each repository (a bare or .git directory). */
export function gitCorpus(dirs: string[], commits: number): BaseEdit[] {
  const edits: BaseEdit[] = [];
  for (const dir of dirs) {
    const name = path.basename(path.resolve(dir, dir.endsWith('repo') ? '..' : '.'));
    const shas = (git(dir, ['log', '--no-merges', `-n${commits}`, '--format=%H']) ?? '').split('\n').filter(Boolean);
    for (const sha of shas) {
      const files = (git(dir, ['show', '--name-only', '--format=', sha]) ?? '')
        .split('\n')
        .filter((f) => SOURCE.test(f))
        .slice(0, MAX_FILES_PER_COMMIT);
      for (const f of files) {
        const oldText = git(dir, ['show', `${sha}^:${f}`]);
        const newText = git(dir, ['show', `${sha}:${f}`]);
        if (oldText === undefined || newText === undefined || oldText === newText) continue;
        if (oldText.includes('\r') || newText.includes('\r') || oldText.includes('\0') || oldText.length > 200_000) continue;
        edits.push(...editsBetween(`${name}/${f}`, `${name}@${sha.slice(0, 10)}:${f}`, oldText, newText, edits.length));
      }
    }
  }
  return edits;
}
