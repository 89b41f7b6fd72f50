/**
 * Throttled state snapshots. The engine requests one after every transition; writes happen at most once
 * per interval, always with a trailing write, and at once for the final one. They are never awaited on
 * the critical path: the trace is the source of truth, and resume catches a lagging snapshot up from it
 * (state.ts `catchUp`). Without the throttle a 500-step mission would serialise its whole state a few
 * thousand times (O(n²) bytes).
 */
import type { Clock } from '../ports';

export class SnapshotWriter {
  #chain: Promise<void> = Promise.resolve();
  #dirty = false;
  #final = false;
  #scheduled = false;
  #lastAt = 0;
  #throttle: AbortController | null = null;

  constructor(
    /** Builds the snapshot at write time (so it is the latest) and writes it. */
    private readonly write: (finished: boolean) => Promise<void>,
    private readonly clock: Clock,
    private readonly intervalMs: number,
    /** Told of a failed write. The snapshot is only a cache of the trace, so the run goes on; the failure is reported, never dropped. */
    private readonly onWriteError: (error: unknown) => void,
  ) {}

  /** Resolves once a snapshot taken after this call is written (a failed write goes to `onWriteError`: the trace holds). */
  request(finished = false): Promise<void> {
    if (finished) {
      this.#final = true;
      this.#throttle?.abort();
    }
    this.#dirty = true;
    if (this.#scheduled) return this.#chain;
    this.#scheduled = true;
    this.#chain = this.#chain.then(async () => {
      const wait = this.#final ? 0 : this.#lastAt + this.intervalMs - this.clock.now();
      if (wait > 0) {
        this.#throttle = new AbortController();
        // An abort here is the final request cutting the wait short, not a failure.
        await this.clock.sleep(wait, this.#throttle.signal).catch(() => undefined);
        this.#throttle = null;
      }
      this.#scheduled = false;
      if (!this.#dirty) return;
      this.#dirty = false;
      this.#lastAt = this.clock.now();
      await this.write(this.#final).catch(this.onWriteError);
    });
    return this.#chain;
  }
}
