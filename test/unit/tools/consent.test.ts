/**
 * Consent held by the core: a command that would run without the OS sandbox runs only on the user's own
 * answer to that very request. The approver here is rogue — it approves by rule, as an approve-all mode, a
 * remembered rule or a cached answer would — and the terminal is the real one (real processes), on a
 * machine that reports no sandbox (`sandbox: prefer`). Nothing may run, and the trace must say why.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Step } from '../../../src/core/contracts/plan';
import type { CommandRun } from '../../../src/core/contracts/results';
import type { SandboxSupport } from '../../../src/core/contracts/sandbox';
import type { ApprovalDecision, ApprovalRequest, CommandRequest, StepToolsContext, Terminal } from '../../../src/core/ports';
import type { TraceEventBody } from '../../../src/core/contracts/traceEvents';
import { createStepTools } from '../../../src/core/tools/stepTools';
import { NodeTerminal } from '../../../src/node/nodeTerminal';
import { makeHarness, type Harness } from './harness';

/** The real Node terminal on a machine that says it has no OS sandbox: every command it runs is a real process. */
class NoSandboxTerminal implements Terminal {
  readonly runs: CommandRequest[] = [];
  private readonly inner = new NodeTerminal();
  confinement(): Promise<SandboxSupport> {
    return Promise.resolve({ available: false, reason: 'no sandbox on this machine (test)', remedy: '' });
  }
  hostFacts(env: Record<string, string>): ReturnType<Terminal['hostFacts']> {
    return this.inner.hostFacts(env);
  }
  run(request: CommandRequest, signal: AbortSignal): Promise<CommandRun> {
    this.runs.push(request);
    return this.inner.run(request, signal);
  }
}

const authority: Step['authority'] = { read: ['**'], edit: ['**'], commands: ['node -e *'], network: false, mcp: [] };
/** A command whose only effect is a file in the workspace: proof, on disk, that a process ran. */
const touch = (name: string): string => `node -e 'require("fs").writeFileSync("${name}", "ran\\n")'`;

const decided = (events: TraceEventBody[]): Extract<TraceEventBody, { type: 'approval_decided' }>[] =>
  events.filter((e): e is Extract<TraceEventBody, { type: 'approval_decided' }> => e.type === 'approval_decided');

describe('the approval gate holds consent for unsandboxed commands', function () {
  this.timeout(30_000);
  let h: Harness;
  let terminal: NoSandboxTerminal;
  const context = (): StepToolsContext => {
    const ctx = h.ctx({ authority });
    return { ...ctx, terminal, settings: { ...ctx.settings, sandbox: 'prefer' } };
  };
  const rogue =
    (rule: string): ((r: ApprovalRequest) => ApprovalDecision) =>
    () => ({ decision: 'approved', by: 'rule', rule });

  beforeEach(() => {
    h = makeHarness();
    terminal = new NoSandboxTerminal();
  });
  afterEach(() => h.cleanup());

  it('runs nothing when an approver approves an unsandboxed command by rule, and the trace says why', async () => {
    h.approver.decide = rogue('cli:approve=all');
    const r = await createStepTools(context()).bash(touch('pwned.txt'));

    assert.equal(r.ok, false);
    assert.equal(terminal.runs.length, 0, 'no process was started');
    assert.equal(fs.existsSync(path.join(h.root, 'pwned.txt')), false, 'no file was written');
    assert.equal(h.approver.requests.length, 1, 'the approver was asked');
    const [decision] = decided(h.events);
    assert.ok(decision && decision.decision.decision === 'rejected', 'the recorded decision is a refusal');
    assert.match(decision.decision.reason, /approval gate.*only on the user's own decision.*rule "cli:approve=all"/);
    assert.match(r.output, /only on the user's own decision/);
  });

  it("runs the same command on the user's own answer (the refusal above is the gate's, not the setup's)", async () => {
    const r = await createStepTools(context()).bash(touch('ran.txt'));
    assert.equal(r.ok, true, r.output);
    assert.equal(terminal.runs.length, 1);
    assert.equal(fs.readFileSync(path.join(h.root, 'ran.txt'), 'utf8'), 'ran\n');
  });

  it("does not reuse the user's earlier answer: the same command asked again and answered by rule does not run", async () => {
    const tools = createStepTools(context());
    assert.equal((await tools.bash(touch('first.txt'))).ok, true);
    fs.rmSync(path.join(h.root, 'first.txt'));
    h.approver.decide = rogue('remembered: the user said yes a moment ago');

    const again = await tools.bash(touch('first.txt'));
    assert.equal(again.ok, false);
    assert.equal(h.approver.requests.length, 2, 'asked again, not approved from the ledger');
    assert.equal(terminal.runs.length, 1, 'only the first, user-approved run started a process');
    assert.equal(fs.existsSync(path.join(h.root, 'first.txt')), false);
  });

  it('leaves the rules their say over a command run with the sandbox switched off (the user setting)', async () => {
    h.approver.decide = rogue('command:node -e *');
    const ctx = context();
    const r = await createStepTools({ ...ctx, settings: { ...ctx.settings, sandbox: 'off' } }).bash(touch('off.txt'));
    assert.equal(r.ok, true, r.output);
    assert.equal(fs.readFileSync(path.join(h.root, 'off.txt'), 'utf8'), 'ran\n');
  });
});
