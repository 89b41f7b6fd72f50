import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/**
 * No import circle between the folders of src/core (docs/architecture.md, "Which way imports run"): if
 * folder A imports folder B, nothing B imports — directly or through other folders — reaches back to A.
 * Found by walking every relative import, so a new folder is covered without naming it here.
 */
const coreDir = join(__dirname, '..', '..', '..', 'src', 'core');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The top-level unit of src/core a file belongs to: its folder, or the file itself at the top. */
function unitOf(abs: string): string {
  return relative(coreDir, abs).split(sep)[0] ?? '';
}

function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of filesUnder(coreDir)) {
    const from = unitOf(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.[^']*)'/g)) {
      const to = unitOf(normalize(join(dirname(file), m[1] as string)));
      if (to === from || to.startsWith('..')) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, relative(coreDir, file));
      graph.set(from, edges);
    }
  }
  return graph;
}

/** A path of folders from `start` to `goal` along imports, or undefined. */
function pathBetween(graph: Map<string, Map<string, string>>, start: string, goal: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (at: string): string[] | undefined => {
    if (at === goal) return [at];
    seen.add(at);
    for (const next of graph.get(at)?.keys() ?? []) {
      if (seen.has(next)) continue;
      const rest = walk(next);
      if (rest) return [at, ...rest];
    }
    return undefined;
  };
  return walk(start);
}

describe('architecture: no import circle between the folders of src/core', () => {
  it('finds every folder it should (the walk is not vacuous)', () => {
    const graph = folderGraph();
    for (const unit of ['mission', 'tools', 'policy', 'contracts', 'mcp', 'trace']) {
      assert.ok(graph.has(unit) || [...graph.values()].some((e) => e.has(unit)), `${unit} is in the graph`);
    }
    assert.ok(graph.get('mission')?.has('tools'), 'mission imports tools');
  });

  it('has no folder that imports, through any chain, a folder importing it', () => {
    const graph = folderGraph();
    const circles: string[] = [];
    for (const [from, edges] of graph) {
      for (const [to, file] of edges) {
        const back = pathBetween(graph, to, from);
        if (back) circles.push(`${from} → ${to} (${file}), and back: ${back.join(' → ')}`);
      }
    }
    assert.deepEqual(circles, []);
  });
});
