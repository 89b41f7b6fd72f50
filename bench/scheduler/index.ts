/**
 * Scheduler benchmark: `npx tsx bench/scheduler/index.ts`. Every figure is measured in this run.
 *
 * For random DAGs of 20, 100 and 500 steps (simulated executor latency 20–60 ms; about a third of them command
 * steps whose commands are confined to their own write scope; each step writes its own folder `out/<id>/**`,
 * not a literal `out/<id>.txt`, whose write root would be the folder `out` shared by all — see dag.ts):
 *  1. wall / critical path through the full engine at maxParallel = steps (≥ any width), on the DAG
 *     without write overlaps — the critical path is then the exact lower bound;
 *  2. the same DAG with ~10% of steps writing a shared area (a conflict clique the engine must serialise):
 *     wall / max(critical path, conflict bound) — see dag.ts for why that bound is valid but not tight;
 *  3. baselines: the clean DAG with its command steps unconfined (each may write anywhere, so it runs alone
 *     among writers), and a strictly sequential loop over the same steps, both as wall / critical path;
 *  "policy sim/LB" runs the same Scheduler in virtual time with zero overhead (simulate.ts): the part of
 *  the overlap ratio that is the scheduling policy or the bound's looseness, not the engine.
 *  Because the machine's timers overshoot under load (every sleep ends a little late), (1) and (2) are also
 *  given against the bound recomputed with the durations the executors actually took ("actual"): that
 *  isolates what the engine itself adds from what the environment adds.
 *  4. engine overhead per step: the full engine with zero-latency executors (handoff, tools, verification
 *     gate, trace events, state snapshots), wall / steps in µs — with an in-memory store, and with a store
 *     that JSON-encodes every event and snapshot. "CPU µs/step" is this process's CPU time (user + system)
 *     per step in the same runs: unlike wall time, it does not grow when other processes load the machine.
 */
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { runMission } from '../../src/core/mission/start';
import { asPlan, criticalPathMs, lowerBoundMs, randomDag, withDurations, type BenchDag } from './dag';
import { benchMission, clock } from './ports';
import { simulatedMakespanMs } from './simulate';

const SIZES = [20, 100, 500];
/** ~10% of steps write a shared area; ~30% are command steps (confined to their own write scope). */
const DAG_SHAPE = { sharedFraction: 0.1, minMs: 20, maxMs: 60, commandFraction: 0.3 };

async function engineWall(
  dag: BenchDag,
  withOverlaps: boolean,
  latency: boolean,
  serialise = false,
  confined = true,
): Promise<{ ms: number; cpuMs: number; bytes: number; durations: Map<string, number> }> {
  const run = benchMission(asPlan(dag, withOverlaps), (id) => (latency ? dag.latencyMs.get(id)! : 0), dag.ids.length, serialise, confined);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const report = await runMission(run.options);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  if (report.outcome !== 'succeeded') throw new Error(`benchmark mission ${report.outcome}: ${report.summary}`);
  return { ms, cpuMs, bytes: run.store.bytes, durations: run.durations };
}

async function sequentialWall(dag: BenchDag): Promise<number> {
  const t0 = performance.now();
  for (const id of dag.ids) await clock.sleep(dag.latencyMs.get(id)!);
  return performance.now() - t0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  await engineWall(randomDag(500, 99, DAG_SHAPE), true, false); // warm-up (JIT), not measured
  for (const n of SIZES) {
    const dag = randomDag(n, 1000 + n, DAG_SHAPE);
    const cp = criticalPathMs(dag);
    const lb = lowerBoundMs(dag, true);
    const clean = await engineWall(dag, false, true);
    const overlapping = await engineWall(dag, true, true);
    const sequential = await sequentialWall(dag);
    const unconfined = await engineWall(dag, false, true, false, false);
    const runs: number[] = [];
    const cpuRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await engineWall(dag, true, false);
      runs.push(r.ms);
      cpuRuns.push(r.cpuMs);
    }
    const overhead = median(runs);
    const overheadCpu = median(cpuRuns);
    const serialised = await engineWall(dag, true, false, true);
    const simulated = simulatedMakespanMs(dag, true, n);
    const cpActual = criticalPathMs(withDurations(dag, clean.durations));
    const lbActual = lowerBoundMs(withDurations(dag, overlapping.durations), true);
    rows.push([
      String(n),
      String(dag.shared.size),
      cp.toFixed(0),
      (clean.ms / cp).toFixed(3),
      (clean.ms / cpActual).toFixed(3),
      lb.toFixed(0),
      (overlapping.ms / lb).toFixed(3),
      (overlapping.ms / lbActual).toFixed(3),
      (simulated / lb).toFixed(3),
      (unconfined.ms / cp).toFixed(2),
      (sequential / cp).toFixed(2),
      ((overhead * 1000) / n).toFixed(0),
      ((overheadCpu * 1000) / n).toFixed(0),
      ((serialised.ms * 1000) / n).toFixed(0),
    ]);
  }
  const header = [
    'steps',
    'shared',
    'CP ms',
    'wall/CP',
    'wall/CP actual',
    'LB ms',
    'wall/LB overlaps',
    'wall/LB actual',
    'policy sim/LB',
    'unconfined/CP',
    'sequential/CP',
    'µs/step',
    'CPU µs/step',
    'µs/step JSON store',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  console.log(
    `scheduler benchmark (node ${process.version}; latency 20–60 ms; maxParallel = steps; approve=all; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')})`,
  );
  // Command steps are counted from the plans the engine runs, not assumed from DAG_SHAPE.
  const withCommands = SIZES.map((n) => asPlan(randomDag(n, 1000 + n, DAG_SHAPE), true).steps.filter((st) => (st.authority?.commands?.length ?? 0) > 0).length);
  if (withCommands.some((c) => c === 0)) throw new Error('bench DAG has no command steps: it would not measure their scheduling');
  console.log(
    `command steps per DAG: ${SIZES.map((n, i) => `${withCommands[i]}/${n}`).join(', ')} (confined: each may write only its scope; "unconfined/CP" runs the clean DAG with commands that may write anywhere, i.e. alone among writers)`,
  );
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
