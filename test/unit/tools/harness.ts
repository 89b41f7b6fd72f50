/** A real temp workspace with the real Node adapters, plus fakes of our own ports that count and record. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CommandRun } from '../../../src/core/contracts/results';
import type {
  ApprovalDecision,
  ApprovalRequest,
  Approver,
  CommandRequest,
  ScanOptions,
  StepToolsContext,
  Terminal,
  Workspace,
  FileWrite,
} from '../../../src/core/ports';
import type { HostFacts, SandboxSupport } from '../../../src/core/contracts/sandbox';
import { noHostFacts } from '../../../src/core/policy/sandboxSpec';
import type { Step } from '../../../src/core/contracts/plan';
import type { TraceEventBody } from '../../../src/core/contracts/traceEvents';
import { ToolCallStore } from '../../../src/core/handoff/toolCallStore';
import { FileStore } from '../../../src/node/fileStore';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { parsedStep } from '../../support/fixtures';

/** Every effect and every recorded event, in one ordered log, so tests can prove "decision before effect". */
type LogEntry = { kind: 'event'; event: TraceEventBody } | { kind: 'write'; paths: string[] } | { kind: 'run'; argv: string[] };

class CountingWorkspace implements Workspace {
  writes = 0;
  constructor(
    private readonly inner: NodeWorkspace,
    private readonly log: LogEntry[],
  ) {}
  get root(): string {
    return this.inner.root;
  }
  get policyFs(): Workspace['policyFs'] {
    return this.inner.policyFs;
  }
  readFile(p: string): Promise<Uint8Array> {
    return this.inner.readFile(p);
  }
  stat(p: string): ReturnType<Workspace['stat']> {
    return this.inner.stat(p);
  }
  readDir(p: string): ReturnType<Workspace['readDir']> {
    return this.inner.readDir(p);
  }
  scan(options: ScanOptions): ReturnType<Workspace['scan']> {
    return this.inner.scan(options);
  }
  removeEntries(paths: string[], recursive?: boolean): Promise<string[]> {
    return this.inner.removeEntries(paths, recursive);
  }
  async applyWrites(writes: FileWrite[], label: string): Promise<void> {
    this.writes++;
    this.log.push({ kind: 'write', paths: writes.map((w) => w.path) });
    await this.inner.applyWrites(writes, label);
  }
}

class CountingTerminal implements Terminal {
  runs: CommandRequest[] = [];
  /** What the fake says the machine can enforce (a sandbox, unless a test says otherwise). */
  support: SandboxSupport = { available: true, kind: 'bubblewrap', detail: 'fake' };
  constructor(
    private readonly log: LogEntry[],
    public answer: (r: CommandRequest) => Partial<CommandRun> = () => ({}),
  ) {}
  async confinement(): Promise<SandboxSupport> {
    return this.support;
  }
  /** No home, no toolchains on PATH: what a spec needs of the machine, and nothing more. */
  hostFacts(): HostFacts {
    return noHostFacts(process.platform);
  }
  async run(request: CommandRequest): Promise<CommandRun> {
    this.runs.push(request);
    this.log.push({ kind: 'run', argv: request.argv });
    return { command: request.command, cwd: request.cwd, exitCode: 0, signal: null, durationMs: 5, output: 'ok\n', truncated: false, ...this.answer(request) };
  }
}

class ScriptedApprover implements Approver {
  requests: ApprovalRequest[] = [];
  constructor(public decide: (r: ApprovalRequest) => ApprovalDecision = () => ({ decision: 'approved', by: 'user' })) {}
  async request(r: ApprovalRequest): Promise<ApprovalDecision> {
    this.requests.push(r);
    return this.decide(r);
  }
}

export interface Harness {
  dir: string;
  root: string;
  log: LogEntry[];
  events: TraceEventBody[];
  workspace: CountingWorkspace;
  terminal: CountingTerminal;
  approver: ScriptedApprover;
  store: FileStore;
  toolCalls: ToolCallStore;
  ctx(step: Partial<Step> & { authority: Step['authority'] }, role?: 'executor' | 'verifier', signal?: AbortSignal): StepToolsContext;
  write(rel: string, text: string | Uint8Array): void;
  read(rel: string): string;
  cleanup(): void;
}

export function makeHarness(files: Record<string, string> = {}): Harness {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-tools-')));
  const root = path.join(dir, 'ws');
  fs.mkdirSync(root);
  const write = (rel: string, text: string | Uint8Array): void => {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  };
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  const log: LogEntry[] = [];
  const events: TraceEventBody[] = [];
  const workspace = new CountingWorkspace(new NodeWorkspace(root, { journalDir: path.join(dir, 'journal') }), log);
  const terminal = new CountingTerminal(log);
  const approver = new ScriptedApprover();
  const store = new FileStore(path.join(dir, 'store'));
  const toolCalls = new ToolCallStore();
  return {
    dir,
    root,
    log,
    events,
    workspace,
    terminal,
    approver,
    store,
    toolCalls,
    write,
    read: (rel) => fs.readFileSync(path.join(root, rel), 'utf8'),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
    ctx: (step, role = 'executor', signal = new AbortController().signal) => ({
      missionId: 'm1',
      step: { ...parsedStep('s1', { title: 't', evidence: { checks: [] } }), ...step },
      role,
      workspace,
      terminal,
      approver,
      store,
      clock: { now: () => Date.now(), sleep: (ms: number) => new Promise((r) => setTimeout(r, ms)) },
      toolCalls,
      record: async (event) => {
        events.push(event);
        log.push({ kind: 'event', event });
      },
      settings: { commandTimeoutMs: 10_000, maxOutputBytes: 64_000, maxFileBytes: 1_000_000, allowSensitive: [], sandbox: 'required' },
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      signal,
    }),
  };
}
