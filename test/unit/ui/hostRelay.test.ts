/**
 * host.ts's back edges: a part built early reaches one built later only through the relay, which refuses
 * to be used before createHost connected it (naming the edge) and forwards to exactly the connected parts.
 */
import { strict as assert } from 'node:assert';
import { HostRelay } from '../../../src/vscode/hostRelay';
import type { VsCodeApprover } from '../../../src/vscode/approvals/vscodeApprover';
import type { SurfaceHub } from '../../../src/vscode/surfaces/surfaceHub';
import type { SurfaceModel } from '../../../src/vscode/surfaces/surfaceModel';
import type { ToWebview } from '../../../src/webview/protocol';

function parts(): { seen: string[]; model: SurfaceModel; hub: SurfaceHub; approver: VsCodeApprover } {
  const seen: string[] = [];
  const model = { changed: () => seen.push('changed') } as unknown as SurfaceModel;
  const hub = {
    post: (m: ToWebview) => seen.push(`post ${m.type}`),
    notify: (level: string, message: string) => seen.push(`notify ${level} ${message}`),
  } as unknown as SurfaceHub;
  const approver = { name: 'the approver' } as unknown as VsCodeApprover;
  return { seen, model, hub, approver };
}

describe("host wiring's relay", () => {
  it('refuses every edge before it is connected, naming the edge', () => {
    const relay = new HostRelay();
    assert.throws(() => relay.changed(), /host wiring: changed was used before createHost connected the relay/);
    assert.throws(() => relay.post({ type: 'didRequestTaskFocus' }), /post was used before/);
    assert.throws(() => relay.notify('info', 'x'), /notify was used before/);
    assert.throws(() => relay.approver(), /approver was used before/);
  });

  it('forwards each edge to the part connected for it, and is connected once', () => {
    const relay = new HostRelay();
    const p = parts();
    relay.connect(p);
    relay.changed();
    relay.post({ type: 'didRequestQueueFocus' });
    relay.notify('warning', 'careful');
    assert.equal(relay.approver(), p.approver);
    assert.deepEqual(p.seen, ['changed', 'post didRequestQueueFocus', 'notify warning careful']);
    assert.throws(() => relay.connect(parts()), /connected once/);
  });
});
