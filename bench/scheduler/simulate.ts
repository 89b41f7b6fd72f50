/**
 * The scheduling policy alone, in virtual time: the engine's Scheduler (critical-path-first, write
 * conflicts serialised) driven by a discrete-event loop with the nominal latencies and zero overhead.
 * Its makespan over the lower bound is what the policy itself costs on a DAG (or how loose the bound is);
 * the engine's measured wall time over the simulated makespan is what the engine and the machine add.
 */
import { Scheduler } from '../../src/core/mission/scheduler';
import type { BenchDag } from './dag';

export function simulatedMakespanMs(dag: BenchDag, withOverlaps: boolean, maxParallel: number): number {
  const scheduler = new Scheduler(
    dag.ids.map((id) => ({
      id,
      dependsOn: dag.deps.get(id) ?? [],
      editGlobs: withOverlaps && dag.shared.has(id) ? ['shared/**', `out/${id}.txt`] : [`out/${id}.txt`],
    })),
    { maxParallel },
  );
  const running: { id: string; end: number }[] = [];
  let now = 0;
  for (;;) {
    for (const id of scheduler.take()) running.push({ id, end: now + dag.latencyMs.get(id)! });
    if (running.length === 0) return now;
    running.sort((a, b) => a.end - b.end);
    const next = running.shift()!;
    now = next.end;
    scheduler.finish(next.id, 'succeeded');
  }
}
