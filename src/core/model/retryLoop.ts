/**
 * The one retry loop every adapter runs its attempts through, so waiting works the same whatever the
 * provider: an attempt that fails with a transient fault (rate limit, overload, 5xx, connection, a stream
 * cut after the 200) waits and tries again inside the step instead of failing it.
 *
 * Per fault: the wait is the provider's own (`retry-after` and friends, see retryAfter.ts) when it sent
 * one, else exponential backoff with jitter. Each wait is announced through `hooks.onWait` (the roles turn
 * it into a `model_wait` trace event) before it starts, is cancelled at once by the signal, and is never
 * started when it would outlast the mission's wall budget or exceed `maxWaitMs`: the call then fails
 * with the provider named, so the front ends can offer "retry later".
 */
import { err, ok } from '../contracts/result';
import type { Failure, FailureCause } from '../contracts/results';
import type { CallHooks, ModelClient, ModelOutcome, ModelRequest, ModelResponse, WaitReason } from './modelClient';
import { PROVIDER_LABELS, type ProviderId } from './providers';

export interface RetryPolicy {
  /** Attempts in total for faults other than rate limits (overload, 5xx, connection, cut streams). */
  maxAttempts: number;
  /** Attempts in total when the provider rate-limits (it says how long to wait, so waiting is cheap). */
  rateLimitAttempts: number;
  baseDelayMs: number;
  /** Cap on a backoff wait (a provider's own retry-after may ask for more, up to maxWaitMs). */
  maxDelayMs: number;
  /** The longest single wait we accept; a provider asking for more fails the call instead. */
  maxWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, rateLimitAttempts: 8, baseDelayMs: 500, maxDelayMs: 8_000, maxWaitMs: 120_000 };

/** What one failed attempt means: wait and try again, or stop with this failure. */
export type AttemptFault = { kind: 'retry'; reason: WaitReason; message: string; retryAfterMs?: number } | { kind: 'fail'; failure: Failure };

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Exponential backoff with up to 25% jitter. attempt is 1-based (the attempt that just failed). */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const raw = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(raw * (1 - random() * 0.25));
}

export function providerFailure(
  provider: ProviderId,
  cause: FailureCause | undefined,
  message: string,
  options: { recoverable: boolean; detail: string; suggestion?: string; cls?: Failure['class'] },
): Failure {
  return {
    class: options.cls ?? 'tool_error',
    message,
    recoverable: options.recoverable,
    detail: options.detail,
    suggestion: options.suggestion ?? '',
    partialSideEffects: { files: [], commands: [] },
    ...(cause ? { cause, provider } : {}),
  };
}

export const cancelledCall = (): Failure => ({
  class: 'cancelled',
  message: 'The model call was cancelled.',
  recoverable: false,
  detail: 'cancelled',
  suggestion: '',
  partialSideEffects: { files: [], commands: [] },
});

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

const CAUSE_OF: Record<WaitReason, FailureCause> = {
  rate_limited: 'rate_limit',
  overloaded: 'overloaded',
  server_error: 'overloaded',
  connection: 'connection',
  stream_cut: 'connection',
};

export interface RetryLoopArgs {
  provider: ProviderId;
  model: string;
  signal: AbortSignal;
  hooks?: CallHooks;
  policy: RetryPolicy;
  sleep?: Sleep;
  /** One attempt; throws on a fault. */
  attempt(signal: AbortSignal): Promise<Omit<ModelResponse, 'durationMs' | 'attempts'>>;
  classify(error: unknown, aborted: boolean): AttemptFault;
  /** Names the endpoint in a give-up message ("at http://localhost:11434/v1"). */
  where?: string;
}

export async function runWithRetries(args: RetryLoopArgs): Promise<ModelOutcome> {
  const started = Date.now();
  const sleep = args.sleep ?? abortableSleep;
  const label = PROVIDER_LABELS[args.provider];
  const failWith = (failure: Failure, n: number): ModelOutcome => err({ failure, durationMs: Date.now() - started, attempts: n });
  for (let n = 1; ; n++) {
    let fault: AttemptFault;
    try {
      const response = await args.attempt(args.signal);
      return ok({ ...response, durationMs: Date.now() - started, attempts: n });
    } catch (error) {
      fault = args.signal.aborted ? { kind: 'fail', failure: cancelledCall() } : args.classify(error, false);
    }
    if (fault.kind === 'fail') return failWith(fault.failure, n);
    const cause = CAUSE_OF[fault.reason];
    const limit = fault.reason === 'rate_limited' ? args.policy.rateLimitAttempts : args.policy.maxAttempts;
    const where = args.where ? ` at ${args.where}` : '';
    if (n >= limit) {
      return failWith(
        providerFailure(args.provider, cause, `The model call to ${label}${where} failed ${n} times (${fault.message}); giving up.`, {
          recoverable: true,
          detail: 'retries_exhausted',
          suggestion:
            fault.reason === 'connection'
              ? 'Check that the endpoint is running and the base URL is right, then retry.'
              : 'The provider may be overloaded or rate-limiting; retry the mission later.',
        }),
        n,
      );
    }
    const waitMs = fault.retryAfterMs ?? backoffMs(n, args.policy.baseDelayMs, args.policy.maxDelayMs);
    const remaining = args.hooks?.remainingMs?.();
    if (waitMs > args.policy.maxWaitMs || (remaining !== undefined && waitMs > remaining)) {
      const why =
        waitMs > args.policy.maxWaitMs
          ? `longer than the ${Math.round(args.policy.maxWaitMs / 1000)} s we wait at most`
          : `longer than the ${Math.round((remaining ?? 0) / 1000)} s left of the mission's time budget`;
      return failWith(
        providerFailure(
          args.provider,
          cause,
          `${capitalised(label)}${where} asks to wait ${Math.ceil(waitMs / 1000)} s before the next attempt (${fault.message}) — ${why}.`,
          {
            recoverable: true,
            detail: fault.reason,
            suggestion: 'Retry the mission once the limit has reset.',
          },
        ),
        n,
      );
    }
    await args.hooks?.onWait?.({ provider: args.provider, model: args.model, reason: fault.reason, waitMs, attempt: n, message: fault.message });
    try {
      await sleep(waitMs, args.signal);
    } catch {
      return failWith(cancelledCall(), n);
    }
  }
}

/** How every adapter's attempts can be tuned (tests shorten the waits; a caller may cap a stream's silence). */
export interface AdapterTuning {
  retry?: Partial<RetryPolicy>;
  /** A stream silent this long (no event at all) is abandoned and retried. */
  streamIdleMs?: number;
  /** Abortable sleep between attempts, injectable for tests. */
  sleep?: Sleep;
}

/** What an adapter brings to a call: one attempt, and what its failures mean. */
export interface RetryingAdapter {
  provider: ProviderId;
  tuning: AdapterTuning;
  /** Names the endpoint in a give-up message ("at http://localhost:11434/v1"). */
  where?: string;
  attempt(request: ModelRequest, signal: AbortSignal): Promise<Omit<ModelResponse, 'durationMs' | 'attempts'>>;
  classify(error: unknown, aborted: boolean, request: ModelRequest): AttemptFault;
}

/** An adapter's `call`: its attempts through the one retry loop above. */
export function retryingCall(adapter: RetryingAdapter): ModelClient['call'] {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...adapter.tuning.retry };
  const sleep = adapter.tuning.sleep;
  return (request, signal, hooks) =>
    runWithRetries({
      provider: adapter.provider,
      model: request.model,
      signal,
      policy,
      attempt: (s) => adapter.attempt(request, s),
      classify: (error, aborted) => adapter.classify(error, aborted, request),
      ...(adapter.where !== undefined ? { where: adapter.where } : {}),
      ...(hooks ? { hooks } : {}),
      ...(sleep ? { sleep } : {}),
    });
}
