/**
 * Small fakes of OUR ports for engine tests: an in-memory workspace and store, a real-time clock, a
 * scripted approver, a fake StepTools factory (policy-free but honest about side effects and tool calls)
 * and scriptable planner / executor / verifier roles.
 */
import type {
  ScanEntry,
  ApprovalDecision,
  ApprovalRequest,
  Approver,
  Clock,
  DirEntry,
  EventSink,
  ExecutorRole,
  FileStat,
  FileWrite,
  PlannerRole,
  ReplanRequest,
  RoleContext,
  RoleOutcome,
  StepTools,
  StepToolsContext,
  Store,
  Terminal,
  ToolOutcome,
  VerifierRole,
  Workspace,
} from '../../../src/core/ports';
import type { Plan, PlanInput } from '../../../src/core/contracts/plan';
import type { CommandRun, FileChange, StepResult } from '../../../src/core/contracts/results';
import type { Handoff } from '../../../src/core/contracts/handoff';
import type { TraceEvent } from '../../../src/core/contracts/traceEvents';
import type { MissionOptions } from '../../../src/core/mission/options';
import { sha256Hex } from '../../../src/core/primitives/hash';
import { nodePolicyFs } from '../../../src/node/nodePolicyFs';
import { noHostFacts } from '../../../src/core/policy/sandboxSpec';

class MemoryWorkspace implements Workspace {
  /** The sandbox's policy resolves the root on disk, so tests using it pass a real (empty) directory. */
  constructor(readonly root = '/ws') {}
  readonly policyFs = nodePolicyFs;
  readonly files = new Map<string, string>();
  async readFile(path: string): Promise<Uint8Array> {
    const text = this.files.get(path);
    if (text === undefined) throw new Error(`ENOENT: ${path}`);
    return new TextEncoder().encode(text);
  }
  async stat(path: string): Promise<FileStat | undefined> {
    const text = this.files.get(path);
    return text === undefined ? undefined : { kind: 'file', size: text.length, mode: 0o644 };
  }
  async readDir(): Promise<DirEntry[]> {
    return [...this.files.keys()].map((name) => ({ name, kind: 'file' as const }));
  }
  async scan(): Promise<{ entries: ScanEntry[]; truncated: boolean }> {
    const dirs = new Set<string>();
    for (const path of this.files.keys()) for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) dirs.add(path.slice(0, i));
    const entries: ScanEntry[] = [
      ...[...dirs].map((path) => ({ path, kind: 'directory' as const, size: 0, mode: 0o755, signature: '' })),
      ...[...this.files].map(([path, text]) => ({ path, kind: 'file' as const, size: text.length, mode: 0o644, signature: sha256Hex(text) })),
    ];
    return { entries: entries.sort((a, b) => (a.path < b.path ? -1 : 1)), truncated: false };
  }
  async removeEntries(): Promise<string[]> {
    return [];
  }
  async applyWrites(writes: FileWrite[], _label?: string): Promise<void> {
    for (const w of writes) {
      if (w.content === null) this.files.delete(w.path);
      else this.files.set(w.path, new TextDecoder().decode(w.content));
    }
  }
}

export class MemoryStore implements Store {
  readonly events = new Map<string, unknown[]>();
  readonly states = new Map<string, unknown>();
  readonly blobs = new Map<string, Uint8Array>();
  saves = 0;
  /** Every snapshot saved, oldest first (copies). */
  readonly stateHistory: unknown[] = [];
  constructor(private readonly copyOnSave = true) {}
  async putBlob(content: Uint8Array): Promise<string> {
    const hash = sha256Hex(content);
    this.blobs.set(hash, content);
    return hash;
  }
  async getBlob(hash: string): Promise<Uint8Array | undefined> {
    return this.blobs.get(hash);
  }
  async appendEvent(missionId: string, event: TraceEvent): Promise<void> {
    const list = this.events.get(missionId) ?? [];
    list.push(this.copyOnSave ? JSON.parse(JSON.stringify(event)) : event);
    this.events.set(missionId, list);
  }
  async readEvents(missionId: string): Promise<unknown[]> {
    return [...(this.events.get(missionId) ?? [])];
  }
  async saveState(missionId: string, state: unknown): Promise<void> {
    this.saves += 1;
    this.states.set(missionId, this.copyOnSave ? JSON.parse(JSON.stringify(state)) : state);
    if (this.copyOnSave) this.stateHistory.push(JSON.parse(JSON.stringify(state)));
  }
  async loadState(missionId: string): Promise<unknown> {
    return this.states.get(missionId);
  }
  async listMissions(): Promise<string[]> {
    return [...this.events.keys()];
  }
  trace(missionId: string): TraceEvent[] {
    return (this.events.get(missionId) ?? []) as TraceEvent[];
  }
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('AbortError'));
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

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return realClock.sleep(ms, signal).catch(() => undefined);
}

export class ScriptedApprover implements Approver {
  readonly requests: ApprovalRequest[] = [];
  constructor(
    private readonly decide: (r: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision> = async () => ({ decision: 'approved', by: 'user' }),
  ) {}
  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    this.requests.push(request);
    return this.decide(request, signal);
  }
}

const unusedTerminal: Terminal = {
  run: async () => {
    throw new Error('the fake tools never use the terminal');
  },
  confinement: async () => ({ available: true, kind: 'bubblewrap', detail: 'fake' }),
  hostFacts: () => noHostFacts(process.platform),
};

/** Scripted command results for the fake bash: command → exit code and output. */
export type CommandScript = Map<string, { exitCode: number; output: string }>;

/** A StepTools factory over the memory workspace: writes refused for the verifier role, every call logged. */
function fakeToolsFactory(ws: MemoryWorkspace, commands: CommandScript = new Map()): (ctx: StepToolsContext) => StepTools {
  let counter = 0;
  return (ctx) => {
    const files: FileChange[] = [];
    const runs: CommandRun[] = [];
    const log = async (tool: string, input: unknown, output: string, ok: boolean, fingerprint: Record<string, string | null> = {}): Promise<string> => {
      const id = `${ctx.step.id}-${ctx.role}-${++counter}`;
      const now = new Date(ctx.clock.now()).toISOString();
      const record = { id, stepId: ctx.step.id, role: ctx.role, tool, input, output, ok, startedAt: now, finishedAt: now, inputsFingerprint: fingerprint };
      ctx.toolCalls.add(record);
      await ctx.record({ type: 'tool_call', record });
      return id;
    };
    const refuse = async (tool: string, input: unknown): Promise<ToolOutcome> => {
      const toolCallId = await log(tool, input, 'refused: the verifier cannot write', false);
      return {
        ok: false,
        output: 'refused',
        toolCallId,
        failure: {
          class: 'permission_denied',
          message: 'the verifier cannot write',
          partialSideEffects: { files: [], commands: [] },
          recoverable: false,
          suggestion: '',
        },
      };
    };
    const write = async (tool: string, path: string, text: string): Promise<ToolOutcome> => {
      if (ctx.role === 'verifier') return refuse(tool, { path });
      const before = ws.files.get(path);
      await ws.applyWrites([{ path, content: new TextEncoder().encode(text) }], tool);
      files.push({
        path,
        change: before === undefined ? 'created' : 'modified',
        beforeHash: before === undefined ? null : sha256Hex(before),
        afterHash: sha256Hex(text),
      });
      return { ok: true, output: `wrote ${path}`, toolCallId: await log(tool, { path }, `wrote ${path}`, true) };
    };
    const tools: StepTools = {
      view: async (path) => {
        const text = ws.files.get(path);
        const ok = text !== undefined;
        const toolCallId = await log('view', { path }, ok ? text : `not found: ${path}`, ok, { [path]: ok ? sha256Hex(text) : null });
        return ok
          ? { ok, output: text, toolCallId }
          : {
              ok,
              output: 'not found',
              toolCallId,
              failure: {
                class: 'tool_error',
                message: `not found: ${path}`,
                partialSideEffects: { files: [], commands: [] },
                recoverable: true,
                suggestion: '',
              },
            };
      },
      list: async () => ({ ok: true, output: [...ws.files.keys()].join('\n'), toolCallId: await log('list', {}, '', true) }),
      search: async () => ({ ok: true, output: '', toolCallId: await log('search', {}, '', true) }),
      fetchToolResult: async (id) => ({ ok: true, output: ctx.toolCalls.get(id)?.output ?? '', toolCallId: id }),
      create: (path, text) => write('create', path, text),
      strReplace: (path, oldText, newText) => write('str_replace', path, (ws.files.get(path) ?? '').replace(oldText, newText)),
      insert: (path, _line, text) => write('insert', path, (ws.files.get(path) ?? '') + text),
      bash: async (command) => {
        const scripted = commands.get(command) ?? { exitCode: 127, output: `command not found: ${command}` };
        runs.push({ command, cwd: ws.root, exitCode: scripted.exitCode, signal: null, durationMs: 1, output: scripted.output, truncated: false });
        const toolCallId = await log('bash', { command }, scripted.output, scripted.exitCode === 0);
        return { ok: true, output: scripted.output, toolCallId };
      },
      sideEffects: () => ({ files: [...files], commands: [...runs] }),
    };
    return tools;
  };
}

export type ExecuteFn = (handoff: Handoff, tools: StepTools, ctx: RoleContext) => Promise<StepResult>;

/** An executor that writes out/<id>.txt and reports success, unless a step has its own script. */
export class FakeExecutor implements ExecutorRole {
  readonly calls: { stepId: string; attempt: number; handoff: Handoff; start: number; end: number }[] = [];
  constructor(
    private readonly scripts: Record<string, ExecuteFn> = {},
    private readonly latencyMs = 0,
    private readonly tokensPerCall = 0,
  ) {}
  async execute(handoff: Handoff, tools: StepTools, ctx: RoleContext): Promise<StepResult> {
    const start = Date.now();
    if (this.tokensPerCall > 0) {
      await ctx.record({
        type: 'model_call',
        role: 'executor',
        stepId: handoff.step.id,
        model: 'fake',
        promptVersion: 'test',
        usage: { inputTokens: this.tokensPerCall, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: 0,
        durationMs: 1,
        stopReason: 'end_turn',
        requestId: null,
      });
    }
    const script = this.scripts[handoff.step.id];
    let result: StepResult;
    if (script) result = await script(handoff, tools, ctx);
    else {
      if (this.latencyMs > 0) await sleep(this.latencyMs, ctx.signal);
      const call = await tools.create(`out/${handoff.step.id}.txt`, `done ${handoff.step.id}`);
      result = succeeded(handoff.step.id, [call.toolCallId]);
    }
    this.calls.push({ stepId: handoff.step.id, attempt: handoff.attempt, handoff, start, end: Date.now() });
    return result;
  }
  count(stepId: string): number {
    return this.calls.filter((c) => c.stepId === stepId).length;
  }
}

export function succeeded(stepId: string, toolCallIds: string[] = [], output = `did ${stepId}`): StepResult {
  return { stepId, status: 'succeeded', output, evidence: [], sideEffects: { files: [], commands: [] }, toolCallIds };
}

export function failedResult(stepId: string, message = 'it broke', cls: NonNullable<StepResult['failure']>['class'] = 'tool_error'): StepResult {
  return {
    stepId,
    status: 'failed',
    output: message,
    evidence: [],
    sideEffects: { files: [], commands: [] },
    toolCallIds: [],
    failure: { class: cls, message, partialSideEffects: { files: [], commands: [] }, recoverable: true, suggestion: '' },
  };
}

export class FakePlanner implements PlannerRole {
  readonly replans: ReplanRequest[] = [];
  constructor(
    private readonly initial: PlanInput,
    private readonly replanWith: (r: ReplanRequest, n: number) => PlanInput | null = () => null,
  ) {}
  async plan(): Promise<RoleOutcome<Plan>> {
    return { ok: true, value: this.initial as Plan };
  }
  async replan(request: ReplanRequest): Promise<RoleOutcome<Plan>> {
    this.replans.push(request);
    const next = this.replanWith(request, this.replans.length);
    if (!next)
      return {
        ok: false,
        error: {
          class: 'invalid_output',
          message: 'no replan scripted',
          partialSideEffects: { files: [], commands: [] },
          recoverable: false,
          suggestion: '',
        },
      };
    return { ok: true, value: next as Plan };
  }
}

const passingVerifier: VerifierRole = {
  review: async (_h, _r, criterion) => ({ check: criterion, passed: true, detail: 'looks right' }),
};

export interface Harness {
  ws: MemoryWorkspace;
  store: MemoryStore;
  approver: ScriptedApprover;
  executor: FakeExecutor;
  planner: FakePlanner;
  emitted: TraceEvent[];
  options: MissionOptions;
}

/** A full set of ports around a plan; override anything per test. */
export function harness(
  plan: PlanInput,
  overrides: Partial<MissionOptions> & { executor?: FakeExecutor; planner?: FakePlanner; commands?: CommandScript; root?: string } = {},
): Harness {
  const ws = new MemoryWorkspace(overrides.root);
  const store = new MemoryStore();
  const approver = overrides.approver instanceof ScriptedApprover ? overrides.approver : new ScriptedApprover();
  const executor = overrides.executor ?? new FakeExecutor();
  const planner = overrides.planner ?? new FakePlanner(plan);
  const emitted: TraceEvent[] = [];
  const events: EventSink = { emit: (e) => emitted.push(e) };
  const options: MissionOptions = {
    task: 'do the thing',
    workspace: ws,
    terminal: unusedTerminal,
    approver,
    store,
    clock: realClock,
    events,
    planner,
    executor,
    verifier: passingVerifier,
    createStepTools: fakeToolsFactory(ws, overrides.commands),
    approve: 'plan',
    maxParallel: 4,
    ...overrides,
  };
  return { ws, store, approver, executor, planner, emitted, options };
}
