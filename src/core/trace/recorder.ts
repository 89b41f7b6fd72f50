/**
 * The trace recorder: the one way the engine records a transition. Each event gets the next sequence
 * number and a timestamp, is appended through the Store (append-only JSONL) and only then emitted to the
 * EventSink — a front end never shows something the trace does not hold. Appends are serialised so the
 * file order is the sequence order even when parallel steps record at once.
 */
import type { Clock, Diagnostics, EventSink, Store } from '../ports';
import type { TraceEvent, TraceEventBody } from '../contracts/traceEvents';
import { errorText } from '../primitives/errorText';

export class TraceRecorder {
  readonly #listeners: ((event: TraceEvent) => void)[] = [];
  #seq: number;
  #tail: Promise<void> = Promise.resolve();
  #failure: unknown;

  constructor(
    readonly missionId: string,
    private readonly store: Store,
    private readonly sink: EventSink | undefined,
    private readonly clock: Clock,
    /** The next sequence number (the count of events already in the trace, when resuming). */
    nextSeq = 0,
    /** Told when the sink throws (it must not; the trace is complete either way). */
    private readonly diagnostics?: Diagnostics,
  ) {
    this.#seq = nextSeq;
  }

  /** Called synchronously for every event as it is numbered (the engine's budget accounting uses it). */
  onEvent(listener: (event: TraceEvent) => void): void {
    this.#listeners.push(listener);
  }

  /** Numbers, persists and emits one event; resolves once it is in the store. */
  record(body: TraceEventBody): Promise<TraceEvent> {
    const event = { missionId: this.missionId, seq: this.#seq++, at: new Date(this.clock.now()).toISOString(), ...body } as TraceEvent;
    for (const listener of this.#listeners) listener(event);
    const written = this.#tail.then(async () => {
      if (this.#failure) throw this.#failure;
      await this.store.appendEvent(this.missionId, event);
      try {
        this.sink?.emit(event);
      } catch (error) {
        // The sink must not throw (ports.ts); if it does, the trace is still complete — and the host hears of it.
        this.diagnostics?.error(`mission ${this.missionId}: showing trace event ${event.seq} (${event.type}) failed: ${errorText(error)}`);
      }
    });
    this.#tail = written.catch((error: unknown) => {
      this.#failure ??= error;
    });
    return written.then(() => event);
  }

  /** Resolves when every event recorded so far is persisted. */
  flush(): Promise<void> {
    return this.#tail;
  }

  get nextSeq(): number {
    return this.#seq;
  }
}
