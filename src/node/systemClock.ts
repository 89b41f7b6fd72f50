/**
 * The real clock for Node hosts (the CLI and the VS Code extension host): wall time, and a sleep that an
 * AbortSignal ends early with an AbortError (the engine's watchdog and grace periods rely on that).
 */
import type { Clock } from '../core/ports';

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new DOMException('aborted', 'AbortError'));
      const t = setTimeout(resolve, ms);
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(t);
          reject(new DOMException('aborted', 'AbortError'));
        },
        { once: true },
      );
    }),
};
