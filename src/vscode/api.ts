/**
 * What `activate()` returns. Integration tests reach the running extension through this object, so it is
 * a contract: add members freely, never change what an existing one means.
 */
export interface PlanExecuteApi {
  /** Resolves once the sidebar webview has sent `ready` and received its state snapshot (after it is shown). */
  whenSidebarReady(): Promise<void>;
  /** Number of `ready` handshakes the sidebar has completed (it reloads when hidden and shown again). */
  readonly sidebarReadyCount: number;
}
