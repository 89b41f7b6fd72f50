import { strict as assert } from 'node:assert';
import type { ApprovalRequest } from '../../../src/core/ports';
import { PlanSchema } from '../../../src/core/contracts/plan';
import { VsCodeApprover } from '../../../src/vscode/approvals/vscodeApprover';

const base = { missionId: 'm', stepId: 's1', actionHash: 'h', why: 'because' };
const write = (id: string, path = 'src/a.ts'): ApprovalRequest => ({ ...base, id, kind: 'write', path, change: 'modified', beforeHash: 'b', afterHash: 'a' });
const command = (id: string, line = 'npm test'): ApprovalRequest => ({ ...base, id, kind: 'command', command: line, argv: line.split(' '), cwd: '/w', confinement: 'sandboxed', network: false });
const plan = (id: string): ApprovalRequest => ({ ...base, id, stepId: null, kind: 'plan', plan: PlanSchema.parse({ goal: 'g', steps: [] }) });

describe('VS Code approver (sidebar cards and rules)', () => {
  it('shows a card per pending edit or command and resolves with the user\'s decision', async () => {
    const approver = new VsCodeApprover(() => undefined);
    const pending = approver.request(write('w1'), new AbortController().signal);
    assert.deepEqual(approver.views().map((v) => v.requestId), ['w1']);
    assert.equal(approver.decide('w1', { decision: 'rejected', reason: 'no' }), true);
    assert.deepEqual(await pending, { decision: 'rejected', reason: 'no' });
    assert.deepEqual(approver.views(), []);
    assert.equal(approver.decide('w1', { decision: 'approved', by: 'user' }), false, 'a decided request cannot be decided again');
  });

  it('refuses every edit and command outright in an untrusted workspace, but still lets the plan be reviewed', async () => {
    const approver = new VsCodeApprover(() => undefined, () => false);
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
    const approver = new VsCodeApprover(() => undefined, () => true, () => true);
    assert.deepEqual(await approver.request(write('w1'), new AbortController().signal), { decision: 'approved', by: 'rule', rule: 'approvalMode=plan' });
    void approver.request(plan('p1'), new AbortController().signal);
    assert.equal(approver.pendingPlan()?.id, 'p1');
  });

  it('never approves an unsandboxed command by approval mode or rule, and never remembers it', async () => {
    const approver = new VsCodeApprover(() => undefined, () => true, () => true);
    const unsandboxed: ApprovalRequest = { ...base, id: 'u1', kind: 'command', command: 'npm test', argv: ['npm', 'test'], cwd: '/w', confinement: 'unsandboxed', network: false };
    approver.addRule('command', 'npm test');
    const pending = approver.request(unsandboxed, new AbortController().signal);
    assert.deepEqual(approver.views().map((v) => v.kind === 'command' && v.confinement), ['unsandboxed'], 'it waits as a card');
    assert.ok(approver.approve('u1', true));
    assert.deepEqual(await pending, { decision: 'approved', by: 'user' });
    assert.deepEqual(approver.listRules().map((r) => r.pattern), ['npm test'], 'no new rule was added');
  });
});
