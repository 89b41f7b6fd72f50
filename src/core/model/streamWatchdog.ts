/**
 * The idle watchdog every streaming adapter puts on its request: an AbortController that follows the
 * caller's signal and also fires when the stream stays silent for `idleMs`. The SDKs' `timeout` ends only
 * the wait for the response headers, so without it a stream that stalls after them would hold the step
 * until the mission's wall budget ran out. Each received event re-arms it (`arm`).
 */
export const DEFAULT_STREAM_IDLE_MS = 120_000;

export function idleWatchdog(signal: AbortSignal, idleMs: number): { signal: AbortSignal; arm(): void; stalled(): boolean; dispose(): void } {
  const local = new AbortController();
  const forward = (): void => local.abort();
  if (signal.aborted) local.abort();
  else signal.addEventListener('abort', forward, { once: true });
  let stalled = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      stalled = true;
      local.abort();
    }, idleMs);
  };
  arm();
  return {
    signal: local.signal,
    arm,
    stalled: () => stalled && !signal.aborted,
    dispose: () => {
      clearTimeout(idle);
      signal.removeEventListener('abort', forward);
    },
  };
}
