/**
 * The scheduling policy alone, in virtual time: the engine's Scheduler (critical-path-first, write
 * conflicts serialised) driven by a discrete-event loop with the nominal latencies and zero overhead.
 * Its makespan over the lower bound is what the policy itself costs on a DAG (or how loose the bound is);
 * the engine's measured wall time over the simulated makespan is what the engine and the machine add.
 */
import { Scheduler, scheduleNodeOf } from '../../src/core/mission/scheduler';
import { validatePlan } from '../../src/core/plan/validate';
import { asPlan, type BenchDag } from './dag';

export function simulatedMakespanMs(dag: BenchDag, withOverlaps: boolean, maxParallel: number, commandsConfined = true): number {
  // The same plan the engine runs, turned into scheduler nodes by the engine's own rule.
  const plan = validatePlan(asPlan(dag, withOverlaps), { maxSteps: 10_000 });
  if (!plan.ok) throw new Error(`bench plan invalid: ${plan.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  const scheduler = new Scheduler(plan.plan.steps.map(scheduleNodeOf), { maxParallel, commandsConfined });
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
