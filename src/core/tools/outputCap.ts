/**
 * Captured command output with a byte cap that keeps BOTH ends: the head says what started, the tail says
 * how it ended (the failing assertion, the exit summary). The middle is dropped with a marker saying how
 * much. Used by every Terminal adapter so they cap identically.
 */
export class OutputCapture {
  readonly #headCap: number;
  readonly #tailCap: number;
  #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #dropped = 0;

  constructor(maxBytes: number) {
    const cap = Math.max(64, Math.floor(maxBytes));
    this.#headCap = Math.floor(cap / 2);
    this.#tailCap = cap - this.#headCap;
  }

  push(chunk: Buffer | Uint8Array | string): void {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.#headBytes < this.#headCap) {
      const take = Math.min(buf.length, this.#headCap - this.#headBytes);
      this.#head.push(Buffer.from(buf.subarray(0, take)));
      this.#headBytes += take;
      buf = buf.subarray(take);
    }
    if (buf.length === 0) return;
    this.#tail.push(Buffer.from(buf));
    this.#tailBytes += buf.length;
    while (this.#tailBytes > this.#tailCap) {
      const first = this.#tail[0] as Buffer;
      const excess = this.#tailBytes - this.#tailCap;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#tailBytes -= first.length;
        this.#dropped += first.length;
      } else {
        this.#tail[0] = first.subarray(excess);
        this.#tailBytes -= excess;
        this.#dropped += excess;
      }
    }
  }

  get truncated(): boolean {
    return this.#dropped > 0;
  }

  get droppedBytes(): number {
    return this.#dropped;
  }

  /** Head, a marker when bytes were dropped, and tail (decoded as UTF-8; split characters become U+FFFD). */
  text(): string {
    const head = Buffer.concat(this.#head).toString('utf8');
    const tail = Buffer.concat(this.#tail).toString('utf8');
    return this.#dropped > 0 ? `${head}\n… [${this.#dropped} bytes of output omitted] …\n${tail}` : head + tail;
  }
}
