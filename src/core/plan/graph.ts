/**
 * Dependency-graph helpers shared by validation and the scheduler: cycle detection that names the steps
 * in each cycle, and a longest-path measure used by the benchmark's lower bound.
 */

/** One dependency edge list per step id (ids that are not keys are ignored: validation reports them). */
export type DependencyMap = ReadonlyMap<string, readonly string[]>;

/**
 * Every strongly connected component with more than one step, each reported as one concrete cycle
 * (first id repeated at the end: ["s2", "s3", "s2"]). Self-dependencies are reported separately by the
 * caller. Iterative Tarjan, so a 10,000-step chain cannot overflow the stack.
 */
export function findCycles(deps: DependencyMap): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const successors = (id: string): string[] => (deps.get(id) ?? []).filter((d) => deps.has(d) && d !== id);

  for (const root of deps.keys()) {
    if (index.has(root)) continue;
    const work: { id: string; next: number }[] = [{ id: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const succ = successors(frame.id);
      if (frame.next < succ.length) {
        const w = succ[frame.next++]!;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ id: w, next: 0 });
        } else if (onStack.has(w)) {
          low.set(frame.id, Math.min(low.get(frame.id)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.id, Math.min(low.get(parent.id)!, low.get(frame.id)!));
      if (low.get(frame.id) === index.get(frame.id)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== frame.id);
        if (component.length > 1) components.push(component);
      }
    }
  }
  return components.map((component) => cycleWithin(new Set(component), deps));
}

/** A concrete cycle inside one strongly connected component, by walking edges that stay inside it. */
function cycleWithin(component: Set<string>, deps: DependencyMap): string[] {
  const start = [...component].sort()[0]!;
  const path: string[] = [start];
  const seenAt = new Map<string, number>([[start, 0]]);
  let current = start;
  for (;;) {
    const next = (deps.get(current) ?? []).find((d) => component.has(d) && d !== current)!;
    const earlier = seenAt.get(next);
    if (earlier !== undefined) return [...path.slice(earlier), next];
    seenAt.set(next, path.length);
    path.push(next);
    current = next;
  }
}

/**
 * Longest path through the DAG, where each step weighs `weight(id)`. Assumes no cycles (validated).
 */
export function longestPath(deps: DependencyMap, weight: (id: string) => number): number {
  const memo = new Map<string, number>();
  const order = topologicalOrder(deps);
  let best = 0;
  for (const id of order) {
    const before = Math.max(0, ...(deps.get(id) ?? []).map((d) => memo.get(d) ?? 0));
    const total = before + weight(id);
    memo.set(id, total);
    best = Math.max(best, total);
  }
  return best;
}

/** Dependencies first. Assumes no cycles. */
export function topologicalOrder(deps: DependencyMap): string[] {
  const remaining = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const [id, ds] of deps) {
    const known = ds.filter((d) => deps.has(d));
    remaining.set(id, known.length);
    for (const d of known) (dependents.get(d) ?? dependents.set(d, []).get(d)!).push(id);
  }
  const queue = [...remaining].filter(([, n]) => n === 0).map(([id]) => id);
  const order: string[] = [];
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    order.push(id);
    for (const dep of dependents.get(id) ?? []) {
      const left = remaining.get(dep)! - 1;
      remaining.set(dep, left);
      if (left === 0) queue.push(dep);
    }
  }
  return order;
}
