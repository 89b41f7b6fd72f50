import { strict as assert } from 'node:assert';
import { waitingIn } from '../../../src/vscode/view/waitingSummary';
import type { ApprovalView } from '../../../src/webview/protocol';

const base = { stepId: 's1', stepTitle: null, stepWhy: null, why: '', at: '', verification: false };
const edit = (id: string): ApprovalView => ({ ...base, requestId: id, kind: 'write', path: 'a.ts', change: 'modified', size: null });
const cmd = (id: string): ApprovalView => ({ ...base, requestId: id, kind: 'command', command: 'npm test', cwd: '/w' });

describe('visible waiting', () => {
  it('counts cards and a plan waiting for approval, and says what waits in words', () => {
    assert.deepEqual(waitingIn({ approvals: [], planAwaitingApproval: null }), { count: 0, summary: 'Nothing waits for you.' });
    assert.deepEqual(waitingIn({ approvals: [edit('a'), edit('b'), cmd('c')], planAwaitingApproval: null }), {
      count: 3,
      summary: '2 edits and 1 command wait for your approval',
    });
    assert.deepEqual(waitingIn({ approvals: [], planAwaitingApproval: 2 }), { count: 1, summary: 'plan v2 waits for your approval' });
    assert.equal(waitingIn({ approvals: [cmd('c')], planAwaitingApproval: 3 }).summary, 'plan v3 and 1 command wait for your approval');
  });
});
