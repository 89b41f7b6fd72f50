/**
 * Lean fakes of our ports for the benchmark: an in-memory workspace and store, an executor that sleeps
 * the step's simulated latency then writes its output file, and a StepTools factory that does just
 * enough for the verification gate (create, view). The store keeps events by reference unless
 * `serialise` is set, which JSON-encodes every event and snapshot (a file store's CPU cost, minus disk).
 */
import { performance } from 'node:perf_hooks';
import type {
  Approver,
  Clock,
  ExecutorRole,
  PlannerRole,
  StepTools,
  StepToolsContext,
  Store,
  Terminal,
  ToolOutcome,
  VerifierRole,
  Workspace,
} from '../../src/core/ports';
import type { TraceEvent } from '../../src/core/contracts/traceEvents';
import { nodePolicyFs } from '../../src/node/nodePolicyFs';
import { noHostFacts } from '../../src/core/policy/sandboxSpec';
import type { MissionOptions } from '../../src/core/mission/options';
import type { PlanInput } from '../../src/core/contracts/plan';

export const clock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(new Error('AbortError'));
        },
        { once: true },
      );
    }),
};

class BenchWorkspace implements Workspace {
  readonly root = '/bench';
  readonly policyFs = nodePolicyFs;
  readonly files = new Map<string, Uint8Array>();
  async readFile(path: string): Promise<Uint8Array> {
    const f = this.files.get(path);
    if (!f) throw new Error(`ENOENT ${path}`);
    return f;
  }
  async stat(path: string) {
    const f = this.files.get(path);
    return f ? { kind: 'file' as const, size: f.length, mode: 0o644 } : undefined;
  }
  async readDir() {
    return [];
  }
  async scan() {
    return { entries: [], truncated: false };
  }
  async removeEntries(): Promise<string[]> {
    return [];
  }
  async applyWrites(writes: { path: string; content: Uint8Array | null }[]): Promise<void> {
    for (const w of writes)
      if (w.content) this.files.set(w.path, w.content);
      else this.files.delete(w.path);
  }
}

class BenchStore implements Store {
  events: unknown[] = [];
  state: unknown;
  bytes = 0;
  constructor(private readonly serialise: boolean) {}
  async putBlob(): Promise<string> {
    return 'x';
  }
  async getBlob() {
    return undefined;
  }
  async appendEvent(_m: string, event: TraceEvent): Promise<void> {
    if (this.serialise) {
      const line = JSON.stringify(event);
      this.bytes += line.length;
      this.events.push(line);
    } else this.events.push(event);
  }
  async readEvents(): Promise<unknown[]> {
    return this.events;
  }
  async saveState(_m: string, state: unknown): Promise<void> {
    if (this.serialise) {
      const text = JSON.stringify(state);
      this.bytes += text.length;
      this.state = text;
    } else this.state = state;
  }
  async loadState() {
    return this.state;
  }
  async listMissions() {
    return [];
  }
}

const terminal: Terminal = {
  run: async () => {
    throw new Error('unused');
  },
  confinement: async () => ({ available: true, kind: 'bubblewrap', detail: 'bench' }),
  hostFacts: () => noHostFacts(process.platform),
};
const approver: Approver = { request: async () => ({ decision: 'approved', by: 'user' }) };
const verifier: VerifierRole = { review: async (_h, _r, criterion) => ({ check: criterion, passed: true, detail: '' }) };

function toolsFactory(ws: BenchWorkspace): (ctx: StepToolsContext) => StepTools {
  let n = 0;
  const encoder = new TextEncoder();
  return (ctx) => {
    const ok = (output: string): ToolOutcome => ({ ok: true, output, toolCallId: `${ctx.step.id}-${++n}` });
    return {
      view: async (path) =>
        ws.files.has(path)
          ? ok('content')
          : {
              ok: false,
              output: 'missing',
              toolCallId: `v${++n}`,
              failure: { class: 'tool_error', message: 'missing', partialSideEffects: { files: [], commands: [] }, recoverable: true, suggestion: '' },
            },
      list: async () => ok(''),
      search: async () => ok(''),
      fetchToolResult: async () => ok(''),
      create: async (path, text) => {
        await ws.applyWrites([{ path, content: encoder.encode(text) }]);
        return ok('written');
      },
      strReplace: async () => ok(''),
      insert: async () => ok(''),
      bash: async () => ok(''),
      sideEffects: () => ({ files: [], commands: [] }),
    };
  };
}

export interface BenchRun {
  options: MissionOptions;
  store: BenchStore;
  /** What each executor call actually took (simulated latency plus timer overshoot), in ms. */
  durations: Map<string, number>;
}

export function benchMission(plan: PlanInput, latencyMs: (id: string) => number, maxParallel: number, serialise = false, commandsConfined = true): BenchRun {
  const ws = new BenchWorkspace();
  const store = new BenchStore(serialise);
  const planner: PlannerRole = {
    plan: async () => {
      throw new Error('the plan is given');
    },
    replan: async () => ({
      ok: false,
      error: {
        class: 'invalid_output',
        message: 'no replans in the benchmark',
        partialSideEffects: { files: [], commands: [] },
        recoverable: false,
        suggestion: '',
      },
    }),
  };
  const durations = new Map<string, number>();
  const executor: ExecutorRole = {
    execute: async (handoff, tools) => {
      const t0 = performance.now();
      const ms = latencyMs(handoff.step.id);
      if (ms > 0) await clock.sleep(ms);
      const made = await tools.create(`out/${handoff.step.id}/result.txt`, 'done');
      durations.set(handoff.step.id, performance.now() - t0);
      return {
        stepId: handoff.step.id,
        status: 'succeeded',
        output: 'done',
        evidence: [],
        sideEffects: { files: [], commands: [] },
        toolCallIds: [made.toolCallId],
      };
    },
  };
  const options: MissionOptions = {
    task: 'benchmark',
    plan,
    workspace: ws,
    terminal,
    approver,
    store,
    clock,
    planner,
    executor,
    verifier,
    createStepTools: toolsFactory(ws),
    approve: 'all',
    maxParallel,
    maxPlanSteps: 10_000,
    commandsConfined,
    budgets: { maxSteps: 100_000, maxWallMs: 3_600_000, maxTokens: 1e12, maxCostUsd: 1e9, maxReplans: 0 },
  };
  return { options, store, durations };
}
