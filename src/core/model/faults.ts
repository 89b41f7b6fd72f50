/**
 * What to do about an error from one Messages attempt: retry (with backoff) or stop with a `Failure`.
 *
 * The SDK already retried connection errors, 408/409/429/5xx before we see them, so those end here as
 * failures. We retry what the SDK cannot: an `error` event mid-stream after HTTP 200 (overloaded_error,
 * api_error), a stream cut off mid-message, and a stream that ends without `message_stop`.
 * Order of the checks: cancellation, spend limit, mid-stream faults, the SDK's HTTP errors, the rest.
 */
import {
  AnthropicError,
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  PermissionDeniedError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import type { Failure } from '../contracts/results';

/** Thrown by the adapter when a stream ended cleanly but never sent `message_stop`. */
export class IncompleteStreamError extends Error {
  constructor(readonly sawEvents: number) {
    super(`stream ended without message_stop after ${sawEvents} events`);
  }
}

/**
 * Thrown by the adapter when a stream (or the wait for its first event) went silent for longer than the
 * idle limit. The SDK's `timeout` ends only the wait for the response headers, so a stream that stalls
 * after them would otherwise hold the step until the mission's wall-time budget runs out. Retried.
 */
export class StalledStreamError extends IncompleteStreamError {
  constructor(sawEvents: number, idleMs: number) {
    super(sawEvents);
    this.message = `stream stalled: no event for ${idleMs} ms (after ${sawEvents} events)`;
  }
}

export type FaultDecision = { kind: 'retry'; reason: string } | { kind: 'fail'; failure: Failure };

const failure = (message: string, recoverable: boolean, detail: string, cls: Failure['class'] = 'tool_error', suggestion = ''): FaultDecision => ({
  kind: 'fail',
  failure: { class: cls, message, recoverable, detail, suggestion, partialSideEffects: { files: [], commands: [] } },
});

const SPEND_LIMIT_CODE = 'enforced_spend_limit_reached';

/** True for both forms of "money ran out": the tier's monthly cap (429) and a user-set limit (400). */
export function isSpendLimit(error: unknown): boolean {
  if (!(error instanceof APIError)) return false;
  if (error.errorCode === SPEND_LIMIT_CODE) return true;
  return error instanceof BadRequestError && /reached your specified (workspace )?API usage limits/i.test(error.apiMessage ?? '');
}

export function classifyFault(error: unknown, aborted: boolean): FaultDecision {
  if (aborted || error instanceof APIUserAbortError) {
    return failure('The model call was cancelled.', false, 'cancelled', 'cancelled');
  }
  if (isSpendLimit(error)) {
    const e = error as APIError;
    return failure(
      `The API spend limit is reached (${e.status ?? ''} ${e.errorCode ?? e.type ?? ''}): ${e.apiMessage ?? e.message}. Not retried: requests fail until the limit resets or is raised.`,
      false,
      SPEND_LIMIT_CODE,
      'budget_exceeded',
      'Raise the spend limit in the Console, or wait until it resets, then resume the mission.',
    );
  }
  if (error instanceof IncompleteStreamError) return { kind: 'retry', reason: error.message };
  if (error instanceof APIError && error.status === undefined && !(error instanceof APIConnectionError)) {
    // An `event: error` inside a 200 stream.
    if (error.type === 'overloaded_error' || error.type === 'api_error') {
      return { kind: 'retry', reason: `mid-stream ${error.type}` };
    }
    return failure(`The API reported ${error.type ?? 'an error'} mid-stream: ${error.apiMessage ?? error.message}`, false, error.type ?? 'stream_error');
  }
  if (error instanceof APIConnectionError) {
    return failure(`Could not reach the Messages API (${error.message}); the SDK's retries are exhausted.`, true, 'connection_error', 'tool_error', 'Check the network and the base URL, then retry.');
  }
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
    return failure(`The API refused the key (${error.status}): ${error.apiMessage ?? error.message}`, false, error.type ?? 'authentication_error', 'tool_error', 'Set a valid ANTHROPIC_API_KEY.');
  }
  if (error instanceof RateLimitError) {
    return failure(`Rate limited by the API after the SDK's retries: ${error.apiMessage ?? error.message}`, true, 'rate_limit_error', 'tool_error', 'Wait a minute and resume.');
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const transient = error.status >= 500;
    return failure(
      `The Messages API answered ${error.status} ${error.type ?? ''}: ${error.apiMessage ?? error.message}`,
      transient,
      error.type ?? `http_${error.status}`,
    );
  }
  if (error instanceof AnthropicError || error instanceof TypeError) {
    // A body cut after the 200 (socket closed mid-stream) surfaces as a wrapped fetch error.
    return { kind: 'retry', reason: `stream interrupted: ${error.message}` };
  }
  const message = error instanceof Error ? error.message : String(error);
  return failure(`Unexpected error from the model adapter: ${message}`, false, 'unexpected');
}

/** Exponential backoff with up to 25% jitter. attempt is 1-based (the attempt that just failed). */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const raw = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(raw * (1 - random() * 0.25));
}
