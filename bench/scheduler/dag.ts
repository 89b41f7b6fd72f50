/**
 * Random DAGs for the scheduler benchmark, and honest lower bounds on their makespan.
 *
 * Bounds (each is a valid lower bound for any schedule with unlimited parallelism):
 *  - the critical path: the heaviest dependency chain;
 *  - the write-conflict bound: steps whose edit globs overlap pairwise must run one at a time, so the
 *    earliest the first can start (its heaviest chain of predecessors, `head`), plus all their durations,
 *    plus the shortest chain that must follow the last one (`tail`) bounds the makespan from below.
 * The maximum of the two is still a lower bound, but not necessarily achievable: the true optimum of a
 * DAG with a conflict clique can be higher, so a ratio against it overstates the engine's loss.
 * About a third of the generated steps are command steps (an allowlisted command). Every step writes its
 * own folder, `out/<id>/**` (a tree root): a literal `out/<id>.txt` would give every command step the same
 * write root, the folder `out` (policy/writeScope.ts), and serialise them all, which measures nothing.
 * With commands confined to their write scope, a command step conflicts only where its scope overlaps
 * another step's writes, exactly like an edit step, so the same bounds hold. Unconfined, a command step
 * runs alone among writers, which these bounds do not model: index.ts reports that run against the
 * critical path only to show what confinement buys, not as a bound.
 */
import type { PlanInput, StepInput } from '../../src/core/contracts/plan';

/** Deterministic PRNG (mulberry32) so every run measures the same DAGs. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BenchDag {
  ids: string[];
  deps: Map<string, string[]>;
  /** Steps that write the shared area (a conflict clique). */
  shared: Set<string>;
  /** Steps that run a command (scope: their own output file, plus the shared area when they are in it). */
  commands: Set<string>;
  latencyMs: Map<string, number>;
}

export function randomDag(n: number, seed: number, options: { sharedFraction: number; minMs: number; maxMs: number; commandFraction?: number }): BenchDag {
  const random = rng(seed);
  const layers = Math.max(2, Math.ceil(Math.sqrt(n)));
  const ids = Array.from({ length: n }, (_, i) => `s${i}`);
  const layerOf = ids.map((_, i) => (i < layers ? i : Math.floor(random() * layers)));
  const order = ids.map((id, i) => ({ id, layer: layerOf[i]! })).sort((a, b) => a.layer - b.layer);
  const byLayer: string[][] = Array.from({ length: layers }, () => []);
  const deps = new Map<string, string[]>();
  for (const { id, layer } of order) {
    const chosen = new Set<string>();
    if (layer > 0) {
      const count = 1 + Math.floor(random() * 3);
      for (let k = 0; k < count; k++) {
        // Mostly the previous layer (depth), sometimes any earlier layer (long edges).
        const from = random() < 0.7 ? layer - 1 : Math.floor(random() * layer);
        const pool = byLayer[from]!;
        if (pool.length > 0) chosen.add(pool[Math.floor(random() * pool.length)]!);
      }
    }
    deps.set(id, [...chosen]);
    byLayer[layer]!.push(id);
  }
  const shared = new Set(ids.filter(() => random() < options.sharedFraction));
  const latencyMs = new Map(ids.map((id) => [id, options.minMs + random() * (options.maxMs - options.minMs)]));
  const commands = new Set(ids.filter(() => random() < (options.commandFraction ?? 0)));
  return { ids: order.map((o) => o.id), deps, shared, commands, latencyMs };
}

export function asPlan(dag: BenchDag, withOverlaps: boolean): PlanInput {
  const steps: StepInput[] = dag.ids.map((id) => ({
    id,
    title: `bench ${id}`,
    kind: dag.commands.has(id) ? 'command' : 'edit',
    dependsOn: dag.deps.get(id) ?? [],
    authority: {
      read: ['**'],
      edit: withOverlaps && dag.shared.has(id) ? ['shared/**', `out/${id}/**`] : [`out/${id}/**`],
      commands: dag.commands.has(id) ? [`node scripts/gen.js ${id}`] : [],
    },
    evidence: { checks: [{ kind: 'files_exist', paths: [`out/${id}/result.txt`] }] },
  }));
  return { goal: 'benchmark', steps };
}

/** Longest chain ending at each step (inclusive) and starting at each step (inclusive). */
function chains(dag: BenchDag): { head: Map<string, number>; tail: Map<string, number> } {
  const w = (id: string): number => dag.latencyMs.get(id)!;
  const head = new Map<string, number>();
  for (const id of dag.ids) head.set(id, Math.max(0, ...(dag.deps.get(id) ?? []).map((d) => head.get(d)!)) + w(id));
  const dependents = new Map<string, string[]>(dag.ids.map((id) => [id, []]));
  for (const id of dag.ids) for (const d of dag.deps.get(id) ?? []) dependents.get(d)!.push(id);
  const tail = new Map<string, number>();
  for (const id of [...dag.ids].reverse()) tail.set(id, Math.max(0, ...dependents.get(id)!.map((d) => tail.get(d)!)) + w(id));
  return { head, tail };
}

/** The same DAG with other step durations (e.g. what the executors actually took). */
export function withDurations(dag: BenchDag, durations: ReadonlyMap<string, number>): BenchDag {
  return { ...dag, latencyMs: new Map(dag.ids.map((id) => [id, durations.get(id) ?? dag.latencyMs.get(id)!])) };
}

export function criticalPathMs(dag: BenchDag): number {
  return Math.max(...chains(dag).head.values());
}

export function lowerBoundMs(dag: BenchDag, withOverlaps: boolean): number {
  const { head, tail } = chains(dag);
  const cp = Math.max(...head.values());
  if (!withOverlaps || dag.shared.size < 2) return cp;
  const clique = [...dag.shared];
  const w = (id: string): number => dag.latencyMs.get(id)!;
  const before = Math.min(...clique.map((id) => head.get(id)! - w(id)));
  const after = Math.min(...clique.map((id) => tail.get(id)! - w(id)));
  return Math.max(cp, before + clique.reduce((sum, id) => sum + w(id), 0) + after);
}
