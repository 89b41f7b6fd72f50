/**
 * The board's graph layout, pure (no DOM): steps in waves by dependency depth — wave 1 needs nothing, a
 * step sits one wave below the deepest step it depends on — so the steps of one wave could run side by
 * side once the waves above are done. Within a wave the plan's order is kept. Unknown dependencies are
 * ignored and a cycle (the plan validator refuses them; a stale trace might not) cannot loop.
 */
export interface LayoutStep {
  id: string;
  dependsOn: readonly string[];
}

export interface GraphLayout {
  /** Step ids per wave, top to bottom. */
  waves: string[][];
  /** One edge per dependency: from the step depended on, to the step that needs it. */
  edges: { from: string; to: string }[];
  /** The wave index of each step. */
  waveOf: Map<string, number>;
}

export function layoutGraph(steps: readonly LayoutStep[]): GraphLayout {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const depthOf = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const step = byId.get(id);
    if (!step || visiting.has(id)) return -1;
    visiting.add(id);
    let d = 0;
    for (const dep of step.dependsOn) if (dep !== id && byId.has(dep)) d = Math.max(d, depthOf(dep) + 1);
    visiting.delete(id);
    depth.set(id, d);
    return d;
  };
  // Iterative warm-up from the front keeps the recursion shallow for long chains (each call finds its
  // dependencies already measured when the plan lists them first, as plans do).
  for (const s of steps) depthOf(s.id);
  const waves: string[][] = [];
  for (const s of steps) {
    const d = depth.get(s.id) ?? 0;
    (waves[d] ??= []).push(s.id);
  }
  const edges = steps.flatMap((s) => s.dependsOn.filter((dep) => dep !== s.id && byId.has(dep)).map((dep) => ({ from: dep, to: s.id })));
  return { waves: waves.filter((w) => w !== undefined), edges, waveOf: depth };
}
