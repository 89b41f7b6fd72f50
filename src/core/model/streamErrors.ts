/**
 * The errors an adapter throws for a stream that did not finish: a stream cut off, or one that went
 * silent. They carry no SDK: every adapter (Anthropic, OpenAI-compatible, VS Code's language models)
 * throws them, and each adapter's fault classifier retries them.
 */
/** Thrown by an adapter when a stream ended cleanly but never said it was complete. */
export class IncompleteStreamError extends Error {
  constructor(
    readonly sawEvents: number,
    what = 'message_stop',
  ) {
    super(`stream ended without ${what} after ${sawEvents} events`);
  }
}

/**
 * Thrown by an adapter when a stream (or the wait for its first event) went silent for longer than the
 * idle limit. The SDKs' `timeout` ends only the wait for the response headers, so a stream that stalls
 * after them would otherwise hold the step until the mission's wall-time budget runs out. Retried.
 */
export class StalledStreamError extends IncompleteStreamError {
  constructor(sawEvents: number, idleMs: number) {
    super(sawEvents);
    this.message = `stream stalled: no event for ${idleMs} ms (after ${sawEvents} events)`;
  }
}
