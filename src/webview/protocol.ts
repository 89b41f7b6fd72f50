/**
 * The sidebar's message contract, imported by both the host (src/vscode) and the webview (src/webview).
 * Host → webview: a full `state` snapshot (sent on every `ready`: the iframe reloads) and `did…`
 * notifications. Webview → host: `ready` and commands. Every inbound message is `safeParse`d on the
 * receiving side; a message that does not parse is logged and dropped.
 */
import { z } from 'zod';

// ───────────────────────────── view model (what the sidebar renders) ─────────────────────────────

/** Placeholder snapshot for the handshake slice; the full view model is added below as it grows. */
export const SidebarStateSchema = z.object({
  /** Monotonic snapshot number, so the webview can ignore stale snapshots. */
  rev: z.number().int().nonnegative(),
});
export type SidebarState = z.infer<typeof SidebarStateSchema>;

// ───────────────────────────── host → webview ─────────────────────────────

export const ToWebviewSchema = z.discriminatedUnion('type', [
  /** The whole state; answers every `ready` and follows any change too large for a notification. */
  z.object({ type: z.literal('state'), state: SidebarStateSchema }),
]);
export type ToWebview = z.infer<typeof ToWebviewSchema>;

// ───────────────────────────── webview → host ─────────────────────────────

export const FromWebviewSchema = z.discriminatedUnion('type', [
  /** The webview script loaded and wants a snapshot. */
  z.object({ type: z.literal('ready') }),
]);
export type FromWebview = z.infer<typeof FromWebviewSchema>;
export type FromWebviewType = FromWebview['type'];

/** One handler per inbound message type: the compiler proves every message is handled. */
export type FromWebviewHandlers = {
  [K in FromWebviewType]: (message: Extract<FromWebview, { type: K }>) => void | Promise<void>;
};
