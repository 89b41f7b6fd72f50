/**
 * The edges that point back up host.ts's construction order. Every part there is built from parts declared
 * above it; where an early part must reach a later one — the instruction list and the handlers reach the
 * model and the hub, the model reaches the approver and the hub — it holds this relay instead, and
 * `connect` binds the relay once every part it names exists. `connect` takes those parts as values, so
 * the compiler refuses it above any of their declarations; and a part that used the relay before it was
 * connected (during construction) fails at once, naming the edge, rather than later and silently.
 */
import type { ToWebview } from '../webview/protocol';
import type { VsCodeApprover } from './approvals/vscodeApprover';
import type { SurfaceHub } from './surfaces/surfaceHub';
import type { SurfaceModel } from './surfaces/surfaceModel';

interface Connected {
  model: SurfaceModel;
  hub: SurfaceHub;
  approver: VsCodeApprover;
}

export class HostRelay {
  #parts: Connected | undefined;

  connect(parts: Connected): void {
    if (this.#parts) throw new Error('host wiring: the relay is connected once');
    this.#parts = parts;
  }

  #reach(edge: string): Connected {
    if (!this.#parts) throw new Error(`host wiring: ${edge} was used before createHost connected the relay`);
    return this.#parts;
  }

  /** The surfaces' state changed: a snapshot follows. */
  changed(): void {
    this.#reach('changed').model.changed();
  }

  /** A message to every surface. */
  post(message: ToWebview): void {
    this.#reach('post').hub.post(message);
  }

  /** A one-line notice on the surfaces. */
  notify(level: 'info' | 'warning' | 'error', message: string): void {
    this.#reach('notify').hub.notify(level, message);
  }

  /** The approver whose cards the surfaces show. */
  approver(): VsCodeApprover {
    return this.#reach('approver').approver;
  }
}
