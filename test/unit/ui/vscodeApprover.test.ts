import { strict as assert } from 'node:assert';
import type { ApprovalRequest } from '../../../src/core/ports';
import { VsCodeApprover } from '../../../src/vscode/approvals/vscodeApprover';
import { parsedPlan } from '../../support/fixtures';

const base = { missionId: 'm', stepId: 's1', actionHash: 'h', why: 'because' };
const write = (id: string, path = 'src/a.ts'): ApprovalRequest => ({ ...base, id, kind: 'write', path, change: 'modified', beforeHash: 'b', afterHash: 'a' });
const command = (id: string, line = 'npm test'): ApprovalRequest => ({
  ...base,
  id,
  kind: 'command',
  command: line,
  argv: line.split(' '),
  cwd: '/w',
  confinement: 'sandboxed',
  network: false,
});
const plan = (id: string): ApprovalRequest => ({ ...base, id, stepId: null, kind: 'plan', plan: parsedPlan([], { goal: 'g' }) });

describe('VS Code approver (sidebar cards and rules)', () => {
  it("shows a card per pending edit or command and resolves with the user's decision", async () => {
    const approver = new VsCodeApprover(() => undefined);
    const pending = approver.request(write('w1'), new AbortController().signal);
    assert.deepEqual(
      approver.views().map((v) => v.requestId),
      ['w1'],
    );
    assert.equal(approver.decide('w1', { decision: 'rejected', reason: 'no' }), true);
    assert.deepEqual(await pending, { decision: 'rejected', reason: 'no' });
    assert.deepEqual(approver.views(), []);
    assert.equal(approver.decide('w1', { decision: 'approved', by: 'user' }), false, 'a decided request cannot be decided again');
  });

  it('refuses every edit and command outright in an untrusted workspace, but still lets the plan be reviewed', async () => {
    const approver = new VsCodeApprover(
      () => undefined,
      () => false,
    );
    const w = await approver.request(write('w1'), new AbortController().signal);
    const c = await approver.request(command('c1'), new AbortController().signal);
    assert.equal(w.decision, 'rejected');
    assert.equal(c.decision, 'rejected');
    assert.match(w.decision === 'rejected' ? w.reason : '', /not trusted/);
    void approver.request(plan('p1'), new AbortController().signal);
    assert.equal(approver.pendingPlan()?.id, 'p1', 'the plan waits for the user (approving it is refused by the sidebar handler)');
  });

  it('approves by rule without a card, and a new rule approves matching requests already waiting', async () => {
    const approver = new VsCodeApprover(() => undefined);
    approver.addRule('command', 'npm test');
    assert.deepEqual(await approver.request(command('c1'), new AbortController().signal), { decision: 'approved', by: 'rule', rule: 'command:npm test' });
    const waiting = approver.request(write('w1', 'src/x.ts'), new AbortController().signal);
    assert.equal(approver.views().length, 1);
    approver.addRule('write', 'src/**');
    assert.deepEqual(await waiting, { decision: 'approved', by: 'rule', rule: 'write:src/**' });
  });

  it('asks again once a rule is revoked', async () => {
    const approver = new VsCodeApprover(() => undefined);
    const rule = approver.addRule('write', 'src/**');
    assert.equal(approver.revokeRule(rule.id), true);
    void approver.request(write('w1'), new AbortController().signal);
    assert.equal(approver.views().length, 1);
  });

  it('resolves an aborted wait as rejected and removes its card', async () => {
    const approver = new VsCodeApprover(() => undefined);
    const abort = new AbortController();
    const pending = approver.request(command('c1'), abort.signal);
    abort.abort();
    assert.equal((await pending).decision, 'rejected');
    assert.deepEqual(approver.views(), []);
  });

  it('in approval mode "plan", approves in-authority actions by rule but never the plan itself', async () => {
    const approver = new VsCodeApprover(
      () => undefined,
      () => true,
      () => true,
    );
    assert.deepEqual(await approver.request(write('w1'), new AbortController().signal), { decision: 'approved', by: 'rule', rule: 'approvalMode=plan' });
    void approver.request(plan('p1'), new AbortController().signal);
    assert.equal(approver.pendingPlan()?.id, 'p1');
  });

  it('never approves an unsandboxed command by approval mode or rule, and never remembers it', async () => {
    const approver = new VsCodeApprover(
      () => undefined,
      () => true,
      () => true,
    );
    const unsandboxed: ApprovalRequest = {
      ...base,
      id: 'u1',
      kind: 'command',
      command: 'npm test',
      argv: ['npm', 'test'],
      cwd: '/w',
      confinement: 'unsandboxed',
      network: false,
    };
    approver.addRule('command', 'npm test');
    const pending = approver.request(unsandboxed, new AbortController().signal);
    assert.deepEqual(
      approver.views().map((v) => v.kind === 'command' && v.confinement),
      ['unsandboxed'],
      'it waits as a card',
    );
    assert.ok(approver.approve('u1', true));
    assert.deepEqual(await pending, { decision: 'approved', by: 'user' });
    assert.deepEqual(
      approver.listRules().map((r) => r.pattern),
      ['npm test'],
      'no new rule was added',
    );
  });

  it('lists cards oldest first with the step, its reason, the real cwd and the verifier label, and adds the edit size when known', async () => {
    let size: (v: { added: number; removed: number }) => void = () => undefined;
    const changes: number[] = [];
    let t = Date.parse('2026-01-01T00:00:00.000Z');
    const approver = new VsCodeApprover(
      () => changes.push(1),
      () => true,
      () => false,
      {
        step: (id) => (id === 's1' ? { title: 'Add farewell', why: 'The greeting needs a farewell.' } : undefined),
        absoluteCwd: (cwd) => `/work/app/${cwd}`.replace(/\/\.$/, ''),
        lineCount: () => new Promise((resolve) => (size = resolve)),
        now: () => (t += 1000),
      },
    );
    void approver.request(write('w1'), new AbortController().signal);
    void approver.request(
      { ...base, id: 'c1', kind: 'command', command: 'npm test', argv: ['npm', 'test'], cwd: '.', role: 'verifier', confinement: 'sandboxed', network: false },
      new AbortController().signal,
    );
    void approver.request(write('w2', 'src/b.ts'), new AbortController().signal);
    approver.decide('w1', { decision: 'approved', by: 'user' });
    void approver.request(write('w3', 'src/c.ts'), new AbortController().signal);
    const views = approver.views();
    assert.deepEqual(
      views.map((v) => v.requestId),
      ['c1', 'w2', 'w3'],
      'oldest first; a decision moves nothing ahead of the others',
    );
    assert.deepEqual(
      views.map((v) => v.at),
      ['2026-01-01T00:00:02.000Z', '2026-01-01T00:00:03.000Z', '2026-01-01T00:00:04.000Z'],
    );
    const c1 = views[0]!;
    assert.equal(c1.kind === 'command' && c1.cwd, '/work/app');
    assert.equal(c1.verification, true);
    assert.equal(views[1]!.verification, false);
    assert.deepEqual([c1.stepTitle, c1.stepWhy], ['Add farewell', 'The greeting needs a farewell.']);
    assert.equal(views[2]!.kind === 'write' && views[2]!.size, null, 'the size is unknown until the blobs are read');
    size({ added: 12, removed: 3 });
    await new Promise((r) => setTimeout(r, 0));
    const w3 = approver.views().find((v) => v.requestId === 'w3');
    assert.deepEqual(w3?.kind === 'write' && w3.size, { added: 12, removed: 3 });
  });

  it('"Approve all for this step" approves what the step waits for and what it asks next, and nothing of other steps', async () => {
    const approver = new VsCodeApprover(() => undefined);
    const a = approver.request(write('w1'), new AbortController().signal);
    const b = approver.request(command('c1'), new AbortController().signal);
    const other = approver.request({ ...write('w2'), stepId: 's2' }, new AbortController().signal);
    assert.equal(approver.approveStep('s1'), 2);
    assert.deepEqual(await a, { decision: 'approved', by: 'rule', rule: 'step:s1' });
    assert.deepEqual(await b, { decision: 'approved', by: 'rule', rule: 'step:s1' });
    assert.deepEqual(
      approver.views().map((v) => v.requestId),
      ['w2'],
    );
    assert.deepEqual(await approver.request(command('c2', 'npm run lint'), new AbortController().signal), {
      decision: 'approved',
      by: 'rule',
      rule: 'step:s1',
    });
    assert.deepEqual(
      approver.listRules().map((r) => `${r.kind}:${r.pattern}`),
      ['step:s1'],
      'the step rule is listed (and revocable)',
    );
    approver.decide('w2', { decision: 'rejected', reason: 'no' });
    assert.equal((await other).decision, 'rejected');
  });

  it('tells listeners about every decided request (the host closes its diff tab)', () => {
    const approver = new VsCodeApprover(() => undefined);
    const decided: string[] = [];
    approver.onDidDecide((r) => decided.push(r.id));
    void approver.request(write('w1'), new AbortController().signal);
    void approver.request(write('w2'), new AbortController().signal);
    approver.approve('w1', false);
    approver.reset('new mission');
    assert.deepEqual(decided, ['w1', 'w2']);
  });
});
