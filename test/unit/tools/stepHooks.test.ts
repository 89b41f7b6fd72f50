/**
 * The user's hooks around a step's tools, with a fake HookRunner (our port) that answers as a hook script
 * would: what reaches the approver, what lands on disk, what the trace records. The policy decides first;
 * a hook's allow stands in for an approval only where a rule may; ask reaches the user whatever the mode;
 * a PostToolUse block takes the edit back; Stop sends the executor back at most three times.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Step } from '../../../src/core/contracts/plan';
import type { Hook, HookEvent } from '../../../src/core/contracts/hooks';
import type { HookProcessRequest, HookProcessRun, HookRunner, StepToolsContext } from '../../../src/core/ports';
import { createStepTools } from '../../../src/core/tools/stepTools';
import { makeHarness, type Harness } from './harness';

type Answer = Partial<HookProcessRun>;

class FakeHookRunner implements HookRunner {
  readonly seen: { event: HookEvent; input: Record<string, unknown>; request: HookProcessRequest }[] = [];
  constructor(private readonly answer: (event: HookEvent, input: Record<string, unknown>) => Answer) {}
  async run(request: HookProcessRequest): Promise<HookProcessRun> {
    const input = JSON.parse(request.stdin) as Record<string, unknown>;
    const event = input.hook_event_name as HookEvent;
    this.seen.push({ event, input, request });
    return { exitCode: 0, signal: null, timedOut: false, durationMs: 3, stdout: '', stderr: '', ...this.answer(event, input) };
  }
}

const hook = (event: HookEvent, matcher = '', origin: Hook['origin'] = 'user'): Hook => ({
  event,
  matcher,
  command: `${event.toLowerCase()}.sh`,
  timeoutSec: 5,
  failClosed: false,
  source: origin === 'user' ? '~/.claude/settings.json' : '.claude/settings.json',
  origin,
  env: {},
});

const json = (v: unknown): string => JSON.stringify(v);
const decision = (d: 'allow' | 'ask' | 'deny', reason = ''): Answer => ({
  stdout: json({ hookSpecificOutput: { permissionDecision: d, permissionDecisionReason: reason } }),
});
const authority: Step['authority'] = { read: ['**'], edit: ['src/**'], commands: ['node -e *'], network: false, mcp: [] };

describe('the user hooks around a step', () => {
  let h: Harness;
  beforeEach(() => (h = makeHarness({ 'src/a.txt': 'one\n' })));
  afterEach(() => h.cleanup());

  const tools = (hooks: Hook[], runner: HookRunner, patch: Partial<StepToolsContext> = {}) => {
    const ctx = h.ctx({ authority });
    return createStepTools({ ...ctx, ...patch, hooks: { hooks, runner, permissionMode: 'default' } });
  };

  it('never asks a hook about what the policy refuses', async () => {
    const runner = new FakeHookRunner(() => decision('allow'));
    const t = tools([hook('PreToolUse')], runner);
    const out = await t.create('docs/x.md', 'x');
    const cmd = await t.bash('rm -rf src');
    assert.equal(out.ok, false);
    assert.equal(cmd.ok, false);
    assert.equal(runner.seen.length, 0);
    assert.equal(fs.existsSync(path.join(h.root, 'docs/x.md')), false);
  });

  it('never asks a hook about a program found only inside the workspace (the policy refuses it first)', async () => {
    fs.mkdirSync(path.join(h.root, 'bin'));
    fs.writeFileSync(path.join(h.root, 'bin', 'node'), '#!/bin/sh\ntouch ran-from-workspace\n', { mode: 0o755 });
    const runner = new FakeHookRunner(() => decision('allow'));
    const t = tools([hook('PreToolUse')], runner, { env: { PATH: path.join(h.root, 'bin') } });
    const cmd = await t.bash('node -e 0');
    assert.equal(cmd.ok, false);
    assert.match(cmd.output, /program_in_workspace/);
    assert.equal(runner.seen.length, 0, 'the hook was not asked');
    assert.equal(fs.existsSync(path.join(h.root, 'ran-from-workspace')), false);
  });

  it("a deny keeps the tool from running and the model reads the hook's reason", async () => {
    const t = tools([hook('PreToolUse', 'Edit')], new FakeHookRunner(() => decision('deny', 'frozen file')));
    const out = await t.strReplace('src/a.txt', 'one', 'two');
    assert.equal(out.ok, false);
    assert.match(out.output, /frozen file/);
    assert.equal(h.read('src/a.txt'), 'one\n');
    assert.equal(h.approver.requests.length, 0, 'nobody was asked');
  });

  it('allow stands in for the approval of an action the policy permits (the approver is never asked)', async () => {
    h.approver.decide = () => ({ decision: 'rejected', reason: 'the user would say no' });
    const t = tools([hook('PreToolUse', 'Write')], new FakeHookRunner(() => decision('allow')));
    const out = await t.create('src/b.txt', 'b\n');
    assert.ok(out.ok, out.output);
    assert.equal(h.read('src/b.txt'), 'b\n');
    assert.equal(h.approver.requests.length, 0);
  });

  it('allow never stands in for an unsandboxed command: the user is asked, and a rule answering is refused', async () => {
    h.terminal.support = { available: false, reason: 'none here', remedy: '' };
    h.approver.decide = () => ({ decision: 'approved', by: 'rule', rule: 'approve=all' });
    const ctx = h.ctx({ authority });
    const t = tools([hook('PreToolUse', 'Bash')], new FakeHookRunner(() => decision('allow')), { settings: { ...ctx.settings, sandbox: 'prefer' } });
    const out = await t.bash("node -e '1'");
    assert.equal(out.ok, false, out.output);
    assert.equal(h.terminal.runs.length, 0, 'nothing ran');
    assert.equal(h.approver.requests.length, 1, 'the approver was asked');
  });

  it('ask goes to the user with the reason, and only the user may answer it', async () => {
    h.approver.decide = () => ({ decision: 'approved', by: 'rule', rule: 'approve=all' });
    const t = tools([hook('PreToolUse', 'Write')], new FakeHookRunner(() => decision('ask', 'config needs a human')));
    const refused = await t.create('src/c.txt', 'c\n');
    assert.equal(refused.ok, false);
    assert.equal(fs.existsSync(path.join(h.root, 'src/c.txt')), false);
    assert.deepEqual(h.approver.requests[0]?.askedBy, { hook: 'pretooluse.sh (~/.claude/settings.json)', reason: 'config needs a human' });
    h.approver.decide = () => ({ decision: 'approved', by: 'user' });
    const approved = await t.create('src/c.txt', 'c\n');
    assert.ok(approved.ok, approved.output);
    assert.equal(h.read('src/c.txt'), 'c\n');
  });

  it('the most restrictive of several hooks wins (allow + deny = deny)', async () => {
    const pre = [hook('PreToolUse', 'Write'), { ...hook('PreToolUse', '*'), command: 'second.sh' }];
    let calls = 0;
    const runner = new FakeHookRunner((_e, input): Answer =>
      ++calls === 1 ? decision('allow') : decision('deny', `no ${String((input.tool_input as { file_path: string }).file_path)}`),
    );
    const out = await tools(pre, runner).create('src/d.txt', 'd\n');
    assert.equal(out.ok, false);
    assert.match(out.output, /no .*src\/d\.txt/);
    assert.equal(fs.existsSync(path.join(h.root, 'src/d.txt')), false);
  });

  it('a PostToolUse block takes the edit back and the step no longer counts it as changed', async () => {
    const t = tools([hook('PostToolUse', 'Edit')], new FakeHookRunner(() => ({ exitCode: 2, stderr: 'lint: bad' })));
    const out = await t.strReplace('src/a.txt', 'one', 'two');
    assert.equal(out.ok, false);
    assert.match(out.output, /lint: bad/);
    assert.equal(h.read('src/a.txt'), 'one\n');
    assert.deepEqual(t.sideEffects().files, []);
    const created = await tools(
      [hook('PostToolUse', 'Write')],
      new FakeHookRunner(() => ({ stdout: json({ decision: 'block', reason: 'no new files' }) })),
    ).create('src/new.txt', 'n\n');
    assert.equal(created.ok, false);
    assert.equal(fs.existsSync(path.join(h.root, 'src/new.txt')), false);
  });

  it("PostToolUse context reaches the model with the tool's result", async () => {
    const t = tools(
      [hook('PostToolUse', 'Edit')],
      new FakeHookRunner(() => ({ stdout: json({ hookSpecificOutput: { additionalContext: 'remember the changelog' } }) })),
    );
    const out = await t.strReplace('src/a.txt', 'one', 'two');
    assert.ok(out.ok);
    assert.match(out.output, /\[hook context\] remember the changelog/);
    assert.equal(h.read('src/a.txt'), 'two\n');
  });

  it('Stop sends the executor back at most three times per attempt, stop_hook_active true on the repeats', async () => {
    const runner = new FakeHookRunner(() => ({ exitCode: 2, stderr: 'tests first' }));
    const t = tools([hook('Stop')], runner);
    const answers = [await t.beforeReport?.(), await t.beforeReport?.(), await t.beforeReport?.(), await t.beforeReport?.()];
    assert.deepEqual(
      answers.map((a) => (a === undefined ? 'report stands' : /tests first/.test(a) ? 'go on' : a)),
      ['go on', 'go on', 'go on', 'report stands'],
    );
    assert.deepEqual(
      runner.seen.map((s) => s.input.stop_hook_active),
      [false, true, true, true],
    );
  });

  it('the verifier gets no hooks', async () => {
    const runner = new FakeHookRunner(() => decision('deny'));
    const ctx = h.ctx({ authority }, 'verifier');
    const t = createStepTools({ ...ctx, hooks: { hooks: [hook('PreToolUse')], runner, permissionMode: 'default' } });
    assert.ok((await t.view('src/a.txt')).ok);
    assert.equal(runner.seen.length, 0);
  });
});
