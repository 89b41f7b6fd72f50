/** A webview connected to the protocol by the host: what the activation-side surfaces hold on to. */
import type { ToWebview } from '../../webview/protocol';

export interface SurfaceConnection {
  /** Resolves after this webview's next completed `ready` handshake (at once if it had one). */
  whenReady(): Promise<void>;
  /** Posts to this webview only (after its handshake). */
  post(message: ToWebview): Promise<boolean>;
  dispose(): void;
}
