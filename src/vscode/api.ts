/**
 * What `activate()` returns. Integration tests reach the running extension through this object, so it is
 * a contract: add members freely, never change what an existing one means.
 */
import type { Store } from '../core/ports';
import type { SurfaceKind, SurfaceState } from '../webview/protocol';

export interface PlanExecuteApi {
  /** Resolves once the sidebar webview has sent `ready` and received its state snapshot (after it is shown). */
  whenSidebarReady(): Promise<void>;
  /** Number of `ready` handshakes the sidebar has completed (it reloads when hidden and shown again). */
  readonly sidebarReadyCount: number;
  /** Resolves once a mission board webview has sent `ready` and received its snapshot. */
  whenBoardReady(): Promise<void>;
  /** Number of `ready` handshakes mission boards have completed. */
  readonly boardReadyCount: number;
  /** Hooks for the integration tests; the product never calls them. */
  readonly test: PlanExecuteTestHooks;
}

interface PlanExecuteTestHooks {
  /** Feeds a message into a surface's inbound path (default: the sidebar) as if its webview posted it; false when it was dropped as invalid. */
  postFromWebview(message: unknown, surface?: SurfaceKind): boolean;
  /** Number of inbound webview messages dropped because they did not parse. */
  readonly droppedMessages: number;
  /** The sidebar state as the host would send it now (the same object the webview renders). */
  sidebarState(): SurfaceState;
  /** The last `state` snapshot actually posted to the webview (undefined before the first). */
  lastPostedState(): SurfaceState | undefined;
  /** The mission store this window uses (undefined when none can be created). */
  missionStore(): Promise<Store | undefined>;
  /** Forgets the shown mission and reads the latest one back from the store, as activation after a reload does. */
  restoreFromStore(): Promise<boolean>;
  /** Recent lines written to the "Plan & Execute" log channel. */
  recentLog(): string;
  /** Stores a provider's API key (default anthropic) in SecretStorage exactly as "Set … API Key" does (empty removes it). */
  setApiKey(key: string, provider?: 'anthropic' | 'openai'): Promise<void>;
  /** What "Choose Model" would list for a provider (or why it cannot). */
  listModels(
    provider: 'anthropic' | 'openai' | 'vscode-lm',
  ): Promise<{ ok: true; models: { label: string; description?: string; ref: string }[] } | { ok: false; message: string }>;
  /** Answers the extension's modal confirmations (e.g. Revert step) with `answer`; undefined shows them again. */
  answerConfirmations(answer: boolean | undefined): void;
  /** The text of the last confirmation asked (answered by the hook or shown). */
  lastConfirmation(): string | undefined;
  /** The sidebar view's badge as last set (0: none). */
  badgeCount(): number;
  /** The status-bar item's text and whether it wears the warning colour. */
  statusBarItem(): { text: string; warning: boolean; visible: boolean };
  /** The last "mission failed/stopped" notification shown while no surface was in sight (null: none yet). */
  lastStoppedNotice(): { message: string; labels: string[] } | null;
  /** Resolves when the sidebar state satisfies `predicate` (checked after every change), or rejects after `timeoutMs`. */
  waitForState(predicate: (state: SurfaceState) => boolean, timeoutMs: number): Promise<SurfaceState>;
}
