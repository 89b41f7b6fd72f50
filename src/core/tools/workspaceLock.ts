/**
 * Staged commands and writes to the workspace never overlap in one process. A staged command runs over an
 * overlay whose lower layer is the live workspace, and the kernel's documentation calls a change to the
 * lower layer of a mounted overlay undefined: a command would read a mix of old and new, a file it only
 * opened could be copied up as it was and then look changed (or, applied, take another step's change back).
 * So, per workspace root:
 *   - shared:    a staged command while it runs (executors' and the verifier's alike);
 *   - exclusive: what writes the workspace — a staged command's settle (list, judge, apply), the text
 *                editor's writes, Revert step.
 * Waiting writers go first: a command that comes after a waiting writer waits for it, so a step's steady
 * stream of commands cannot hold another step's apply back for ever. The cost: a step's write waits for the
 * commands other steps are running over the same workspace (at most their timeout). Other processes and
 * the user's own editor are not covered (see docs/sandbox.md).
 */

type Release = () => void;

class RwLock {
  #readers = 0;
  #writing = false;
  readonly #waiting: { exclusive: boolean; go: () => void }[] = [];

  async shared(): Promise<Release> {
    if (this.#writing || this.#waiting.some((w) => w.exclusive)) await new Promise<void>((go) => this.#waiting.push({ exclusive: false, go }));
    else this.#readers += 1;
    return once(() => {
      this.#readers -= 1;
      this.#next();
    });
  }

  async exclusive(): Promise<Release> {
    if (this.#writing || this.#readers > 0 || this.#waiting.length > 0) await new Promise<void>((go) => this.#waiting.push({ exclusive: true, go }));
    else this.#writing = true;
    return once(() => {
      this.#writing = false;
      this.#next();
    });
  }

  get idle(): boolean {
    return !this.#writing && this.#readers === 0 && this.#waiting.length === 0;
  }

  /** Hands the lock to the next waiter: one writer, or every reader queued before the next writer. */
  #next(): void {
    if (this.#writing || this.#readers > 0) return;
    const first = this.#waiting[0];
    if (!first) return;
    if (first.exclusive) {
      this.#waiting.shift();
      this.#writing = true;
      first.go();
      return;
    }
    while (this.#waiting[0] && !this.#waiting[0].exclusive) {
      this.#readers += 1;
      this.#waiting.shift()?.go();
    }
  }
}

function once(fn: () => void): Release {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

const locks = new Map<string, RwLock>();

function lockOf(root: string): RwLock {
  let lock = locks.get(root);
  if (!lock) locks.set(root, (lock = new RwLock()));
  return lock;
}

/** Runs `fn` while no write to `root` happens (a staged command over the workspace). */
export async function whileReading<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const release = await lockOf(root).shared();
  try {
    return await fn();
  } finally {
    release();
    if (lockOf(root).idle) locks.delete(root);
  }
}

/** Runs `fn` while no staged command runs over `root` and no other write happens. */
export async function whileWriting<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const release = await lockOf(root).exclusive();
  try {
    return await fn();
  } finally {
    release();
    if (lockOf(root).idle) locks.delete(root);
  }
}
