/**
 * The compact workspace summary the planner reads: a shallow tree, the package scripts, and which key
 * files exist. Built through the Workspace port, so the CLI and VS Code produce the same summary; bounded
 * in size so it can sit in the cached prefix of every planner call.
 */
import type { Workspace } from '../ports';

const SKIP = new Set(['node_modules', '.git', 'dist', 'out', 'build', 'coverage', '.plan-execute', '.vscode-test']);
const KEY_FILES = ['package.json', 'tsconfig.json', 'README.md', 'Makefile', 'pyproject.toml', 'Cargo.toml', 'go.mod'];

export interface SummaryOptions {
  depth?: number;
  maxEntries?: number;
}

export async function summarizeWorkspace(ws: Workspace, options: SummaryOptions = {}): Promise<string> {
  const depth = options.depth ?? 2;
  const max = options.maxEntries ?? 80;
  const lines: string[] = [];
  let count = 0;
  let truncated = false;
  async function walk(dir: string, level: number): Promise<void> {
    let entries;
    try {
      entries = await ws.readDir(dir);
    } catch {
      return;
    }
    entries.sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'directory' ? -1 : 1));
    for (const e of entries) {
      if (SKIP.has(e.name)) continue;
      if (count >= max) {
        truncated = true;
        return;
      }
      count++;
      const path = dir === '.' ? e.name : `${dir}/${e.name}`;
      lines.push(`${'  '.repeat(level)}${e.name}${e.kind === 'directory' ? '/' : ''}`);
      if (e.kind === 'directory' && level + 1 < depth) await walk(path, level + 1);
    }
  }
  await walk('.', 0);
  const out = ['Tree (depth ' + depth + (truncated ? `, first ${max} entries` : '') + '):', ...lines];
  try {
    const pkg = JSON.parse(new TextDecoder().decode(await ws.readFile('package.json'))) as { scripts?: Record<string, string> };
    const scripts = Object.entries(pkg.scripts ?? {});
    if (scripts.length) out.push('', 'package.json scripts:', ...scripts.map(([k, v]) => `  ${k}: ${v}`));
  } catch {
    // no package.json, or not JSON: nothing to add
  }
  const present: string[] = [];
  for (const f of KEY_FILES) if (await ws.stat(f)) present.push(f);
  if (present.length) out.push('', `Key files: ${present.join(', ')}`);
  return out.join('\n');
}
