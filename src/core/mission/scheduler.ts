/**
 * The scheduler: which steps may start now. Pure bookkeeping, no I/O and no timers, so the engine's loop
 * (and the benchmark) drive it and its overhead stays tiny.
 *
 * Rules, in the order `take()` applies them:
 *  1. A step is ready when every step it depends on has succeeded.
 *  2. At most `maxParallel` steps run at once.
 *  3. Two steps that may write the same thing never run at the same time; the later one waits, it is not
 *     failed. Edit authorities are compared by glob (plan/globs.ts: conservative literal-prefix test). What
 *     a step's commands may write depends on confinement (see `#conflictsWithRunning`): inside the OS
 *     sandbox, exactly its write scope (policy/writeScope.ts); unconfined, anywhere.
 *  4. Among ready steps, the one with the longest chain of dependents goes first (critical path first),
 *     then plan order.
 * A failed step blocks its transitive dependents and nothing else: whether a required failure ends the
 * mission is the engine's decision, not the scheduler's.
 */
import { overlappingPairs } from '../plan/globs';
import { scopeGlobs, writeScopeOf, type WriteRoot } from '../policy/writeScope';
import type { Step } from '../contracts/plan';

export interface ScheduleNode {
  id: string;
  dependsOn: readonly string[];
  /** The step's edit authority globs (empty, without commands: writes nothing, conflicts with nothing). */
  editGlobs: readonly string[];
  /** The step may run commands (its own allowlist, or a command its verification runs). */
  runsCommands: boolean;
  /**
   * Where the step's own commands may write when they are confined (policy/writeScope.ts; [] = nowhere; a
   * root of either kind counts as its path and everything below it, see the overlap rule there).
   * Verification commands run read-only and add nothing. Absent: anywhere.
   */
  commandScope?: readonly WriteRoot[];
}

/** What the scheduler needs of a plan step. */
export function scheduleNodeOf(step: Step): ScheduleNode {
  return {
    id: step.id,
    dependsOn: step.dependsOn,
    editGlobs: step.authority.edit,
    // The verification gate runs a step's command evidence while the step still holds its slot.
    runsCommands: step.authority.commands.length > 0 || step.evidence.checks.some((c) => c.kind === 'command'),
    commandScope: step.authority.commands.length > 0 ? writeScopeOf(step.authority) : [],
  };
}

export type NodeState = 'pending' | 'running' | 'succeeded' | 'failed' | 'blocked' | 'skipped';

export interface SchedulerOptions {
  maxParallel: number;
  /** Steps already finished (resume, or kept across a replan): they count as satisfied dependencies. */
  succeeded?: Iterable<string>;
  /** Steps already running when the scheduler is rebuilt (a mid-mission plan edit). */
  running?: Iterable<string>;
  /** Steps that will not run in this schedule (e.g. an interrupted step the user declined to re-run). */
  failed?: Iterable<string>;
  /**
   * Every command runs inside an OS sandbox whose writable region is its step's write scope. Then a command
   * step conflicts only with steps whose writes may overlap that scope; otherwise it may write anywhere.
   */
  commandsConfined?: boolean;
}

export class Scheduler {
  readonly #nodes = new Map<string, ScheduleNode>();
  readonly #state = new Map<string, NodeState>();
  readonly #waitingOn = new Map<string, number>();
  readonly #dependents = new Map<string, string[]>();
  readonly #conflicts = new Map<string, string[]>();
  readonly #rank = new Map<string, number>();
  readonly #order = new Map<string, number>();
  readonly #running = new Set<string>();
  /** Running steps that run commands, and running steps that write at all (edit globs or commands). */
  #runningCommands = 0;
  #runningWriters = 0;
  #ready: string[] = [];
  readonly #maxParallel: number;
  readonly #confined: boolean;

  constructor(nodes: readonly ScheduleNode[], options: SchedulerOptions) {
    this.#maxParallel = Math.max(1, Math.floor(options.maxParallel));
    this.#confined = options.commandsConfined === true;
    const done = new Set(options.succeeded ?? []);
    const running = new Set(options.running ?? []);
    nodes.forEach((node, i) => {
      this.#nodes.set(node.id, node);
      this.#order.set(node.id, i);
      this.#dependents.set(node.id, []);
    });
    for (const node of nodes) {
      this.#state.set(node.id, done.has(node.id) ? 'succeeded' : running.has(node.id) ? 'running' : 'pending');
      if (running.has(node.id)) this.#markRunning(node.id);
      for (const dep of node.dependsOn) this.#dependents.get(dep)?.push(node.id);
    }
    for (const node of nodes) {
      this.#waitingOn.set(node.id, node.dependsOn.filter((d) => this.#state.get(d) !== 'succeeded').length);
    }
    for (const id of options.failed ?? []) {
      if (this.#state.get(id) !== 'pending') continue;
      this.#state.set(id, 'failed');
      this.#blockDependents(id);
    }
    this.#computeRanks(nodes);
    this.#computeConflicts(nodes);
    for (const node of nodes) if (this.#state.get(node.id) === 'pending' && this.#waitingOn.get(node.id) === 0) this.#ready.push(node.id);
    this.#sortReady();
  }

  /** Steps to start now; they are marked running. */
  take(): string[] {
    const started: string[] = [];
    if (this.#running.size >= this.#maxParallel || this.#ready.length === 0) return started;
    const keep: string[] = [];
    for (const id of this.#ready) {
      if (this.#running.size < this.#maxParallel && !this.#conflictsWithRunning(id)) {
        this.#markRunning(id);
        this.#state.set(id, 'running');
        started.push(id);
      } else {
        keep.push(id);
      }
    }
    this.#ready = keep;
    return started;
  }

  /**
   * Records a running step's end. Returns the steps this newly blocks (failure only). 'skipped' means it
   * was taken but never really started (a budget ran out first): it blocks nothing.
   */
  finish(id: string, outcome: 'succeeded' | 'failed' | 'skipped'): string[] {
    if (!this.#running.delete(id)) throw new Error(`step ${id} is not running`);
    this.#countRunning(id, -1);
    this.#state.set(id, outcome);
    if (outcome === 'skipped') return [];
    if (outcome === 'failed') return this.#blockDependents(id);
    let added = false;
    for (const dep of this.#dependents.get(id) ?? []) {
      const left = (this.#waitingOn.get(dep) ?? 0) - 1;
      this.#waitingOn.set(dep, left);
      if (left === 0 && this.#state.get(dep) === 'pending') {
        this.#ready.push(dep);
        added = true;
      }
    }
    if (added) this.#sortReady();
    return [];
  }

  /** Marks every step that has not started as skipped (cancellation, a budget, a fatal failure). */
  skipPending(): string[] {
    const skipped: string[] = [];
    for (const [id, state] of this.#state) {
      if (state === 'pending') {
        this.#state.set(id, 'skipped');
        skipped.push(id);
      }
    }
    this.#ready = [];
    return skipped;
  }

  state(id: string): NodeState | undefined {
    return this.#state.get(id);
  }

  get running(): ReadonlySet<string> {
    return this.#running;
  }

  /** True when nothing runs and nothing more can start. */
  get idle(): boolean {
    return this.#running.size === 0 && this.#ready.length === 0;
  }

  /** Step ids in a given state, in plan order. */
  inState(state: NodeState): string[] {
    return [...this.#nodes.keys()].filter((id) => this.#state.get(id) === state);
  }

  #blockDependents(id: string): string[] {
    const blocked: string[] = [];
    const queue = [...(this.#dependents.get(id) ?? [])];
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (this.#state.get(next) !== 'pending') continue;
      this.#state.set(next, 'blocked');
      blocked.push(next);
      queue.push(...(this.#dependents.get(next) ?? []));
    }
    if (blocked.length > 0) this.#ready = this.#ready.filter((r) => this.#state.get(r) === 'pending');
    return blocked;
  }

  #markRunning(id: string): void {
    this.#running.add(id);
    this.#countRunning(id, 1);
  }

  #countRunning(id: string, delta: 1 | -1): void {
    const node = this.#nodes.get(id);
    if (!node) return;
    if (node.runsCommands) this.#runningCommands += delta;
    if (node.runsCommands || node.editGlobs.length > 0) this.#runningWriters += delta;
  }

  /**
   * Where overlap is decided. Edit globs say what the text editor may touch. A command's writes are not
   * bounded by them (`npm install` rewrites node_modules and the lockfile, a build writes dist/, a test run
   * writes caches and coverage) and cannot be known before it runs:
   *  - confined (the OS sandbox makes only the step's write scope writable, and rolls back what falls
   *    outside its globs), a command step may write exactly its write scope, so it conflicts only with the
   *    steps whose edit globs or scopes may overlap it — precomputed like two editors' globs;
   *  - unconfined, a step that may run commands counts as writing anywhere in the workspace: it never runs
   *    alongside a step that has edit authority or commands of its own.
   * Two writers without commands conflict only when their edit globs may overlap. A step with neither edit
   * globs nor commands (research, a file check) writes nothing and runs alongside anything.
   */
  #conflictsWithRunning(id: string): boolean {
    if (this.#running.size === 0) return false;
    const node = this.#nodes.get(id)!;
    if (this.#confined) return (this.#conflicts.get(id) ?? []).some((other) => this.#running.has(other));
    if (node.runsCommands) return this.#runningWriters > 0;
    if (node.editGlobs.length === 0) return false;
    if (this.#runningCommands > 0) return true;
    const conflicts = this.#conflicts.get(id);
    if (!conflicts || conflicts.length === 0) return false;
    return conflicts.some((other) => this.#running.has(other));
  }

  #sortReady(): void {
    this.#ready.sort((a, b) => this.#rank.get(b)! - this.#rank.get(a)! || this.#order.get(a)! - this.#order.get(b)!);
  }

  /** Rank = number of steps on the longest chain from this step to a sink (itself included). */
  #computeRanks(nodes: readonly ScheduleNode[]): void {
    const remaining = new Map<string, number>();
    for (const node of nodes) remaining.set(node.id, this.#dependents.get(node.id)!.length);
    const queue = nodes.filter((n) => remaining.get(n.id) === 0).map((n) => n.id);
    for (let i = 0; i < queue.length; i++) {
      const id = queue[i]!;
      const below = Math.max(0, ...this.#dependents.get(id)!.map((d) => this.#rank.get(d) ?? 0));
      this.#rank.set(id, below + 1);
      for (const dep of this.#nodes.get(id)!.dependsOn) {
        const left = (remaining.get(dep) ?? 0) - 1;
        remaining.set(dep, left);
        if (left === 0) queue.push(dep);
      }
    }
    for (const node of nodes) if (!this.#rank.has(node.id)) this.#rank.set(node.id, 1);
  }

  /** What a step may write, as globs: its edit globs, plus its command scope when commands are confined. */
  #footprint(node: ScheduleNode): readonly string[] {
    if (!this.#confined || !node.runsCommands) return node.editGlobs;
    return [...node.editGlobs, ...scopeGlobs(node.commandScope ?? [{ path: '', kind: 'tree' }])];
  }

  #computeConflicts(nodes: readonly ScheduleNode[]): void {
    const writers = nodes.map((n) => ({ id: n.id, globs: this.#footprint(n) })).filter((w) => w.globs.length > 0);
    for (const n of writers) this.#conflicts.set(n.id, []);
    for (const [a, b] of overlappingPairs(writers)) {
      this.#conflicts.get(a)!.push(b);
      this.#conflicts.get(b)!.push(a);
    }
  }
}

/**
 * Drives a scheduler to the end with an async runner (the benchmark and simple callers use it; the
 * mission engine has its own loop for replanning and cancellation). Runs steps as soon as they are ready.
 */
export async function runSchedule(scheduler: Scheduler, run: (id: string) => Promise<'succeeded' | 'failed'>): Promise<void> {
  const inflight = new Map<string, Promise<string>>();
  for (;;) {
    for (const id of scheduler.take()) {
      inflight.set(
        id,
        run(id).then((outcome) => {
          scheduler.finish(id, outcome);
          return id;
        }),
      );
    }
    if (inflight.size === 0) return;
    const done = await Promise.race(inflight.values());
    inflight.delete(done);
  }
}
