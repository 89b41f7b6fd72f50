/**
 * What to do about an error from one Anthropic Messages attempt: wait and retry (retryLoop.ts), or stop
 * with a `Failure` that names its cause, so the front ends can offer the matching action.
 *
 * The SDK's own retries are off (maxRetries 0): every retry goes through our loop, which honours the
 * server's retry-after and records each wait in the trace. Retried: 429 (not a spend limit), 529, 5xx,
 * 408/409, connection errors, an `error` event mid-stream after HTTP 200 (overloaded_error, api_error), a
 * stream cut off mid-message, and a stream that ends without `message_stop`.
 * Order of the checks: cancellation, spend limit, our stream errors, mid-stream events, HTTP statuses,
 * connection, the rest.
 */
import { AnthropicError, APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, BadRequestError, NotFoundError } from '@anthropic-ai/sdk';
import type { Failure } from '../../core/contracts/results';
import { retryAfterMs } from '../../core/model/retryAfter';
import { cancelledCall, providerFailure, type AttemptFault } from '../../core/model/retryLoop';
import { IncompleteStreamError } from '../../core/model/streamErrors';
import { errorText } from '../../core/primitives/errorText';

export type FaultDecision = AttemptFault;

const SPEND_LIMIT_CODE = 'enforced_spend_limit_reached';
const KEY_HINT = 'Set a valid key ("Plan & Execute: Set API Key", or ANTHROPIC_API_KEY for the CLI).';

const fail = (failure: Failure): FaultDecision => ({ kind: 'fail', failure });

/** True for both forms of "money ran out": the tier's monthly cap (429) and a user-set limit (400). */
function isSpendLimit(error: unknown): boolean {
  if (!(error instanceof APIError)) return false;
  if (error.errorCode === SPEND_LIMIT_CODE) return true;
  return error instanceof BadRequestError && /reached your specified (workspace )?API usage limits/i.test(error.apiMessage ?? '');
}

/** The server's own "do not retry this" (x-should-retry: false). */
function serverSaysNoRetry(error: APIError): boolean {
  return error.headers?.get('x-should-retry') === 'false';
}

export function classifyFault(error: unknown, aborted: boolean, where = 'the Anthropic API'): FaultDecision {
  if (aborted || error instanceof APIUserAbortError) return fail(cancelledCall());
  if (isSpendLimit(error)) {
    const e = error as APIError;
    return fail(
      providerFailure(
        'anthropic',
        'spend_limit',
        `The Anthropic API spend limit is reached (${e.status ?? ''} ${e.errorCode ?? e.type ?? ''}): ${e.apiMessage ?? e.message}. ` +
          'Not retried: requests fail until the limit resets or is raised.',
        {
          recoverable: false,
          detail: SPEND_LIMIT_CODE,
          cls: 'budget_exceeded',
          suggestion: 'Raise the spend limit in the Console, or wait until it resets, then resume the mission.',
        },
      ),
    );
  }
  if (error instanceof IncompleteStreamError) return { kind: 'retry', reason: 'stream_cut', message: error.message };
  if (error instanceof APIError && error.status === undefined && !(error instanceof APIConnectionError)) {
    // An `event: error` inside a 200 stream.
    if (error.type === 'overloaded_error') return { kind: 'retry', reason: 'overloaded', message: `mid-stream ${error.type}` };
    if (error.type === 'api_error') return { kind: 'retry', reason: 'server_error', message: `mid-stream ${error.type}` };
    const text = `The Anthropic API reported ${error.type ?? 'an error'} mid-stream: ${error.apiMessage ?? error.message}`;
    return fail(providerFailure('anthropic', undefined, text, { recoverable: false, detail: error.type ?? 'stream_error' }));
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const s = error.status;
    const text = `HTTP ${s} ${error.type ?? ''}: ${error.apiMessage ?? error.message}`.replace(/\s+:/, ':');
    if (s === 401 || s === 403) {
      const detail = error.type ?? 'authentication_error';
      return fail(providerFailure('anthropic', 'auth', `Anthropic refused the API key (${text}).`, { recoverable: false, detail, suggestion: KEY_HINT }));
    }
    if (error instanceof NotFoundError || s === 404) {
      const suggestion = 'Pick another model in the settings (planExecute.model).';
      const detail = error.type ?? 'not_found_error';
      const message = `The model is not available from ${where} (${text}).`;
      return fail(providerFailure('anthropic', 'model_unavailable', message, { recoverable: false, detail, suggestion }));
    }
    const tooLong = /prompt is too long|too many tokens|context window|maximum context/i;
    if (s === 413 || (s === 400 && tooLong.test(error.apiMessage ?? error.message))) {
      const suggestion = 'Split the step into smaller ones.';
      const message = `The request is too long for the model (${text}).`;
      return fail(providerFailure('anthropic', 'context_too_long', message, { recoverable: true, detail: 'context_too_long', suggestion }));
    }
    const retryable = s === 408 || s === 409 || s === 429 || s >= 500;
    if (retryable && !serverSaysNoRetry(error)) {
      const wait = retryAfterMs(error.headers);
      const reason = s === 429 ? 'rate_limited' : s === 529 || s === 503 ? 'overloaded' : 'server_error';
      return { kind: 'retry', reason, message: text, ...(wait !== undefined ? { retryAfterMs: wait } : {}) };
    }
    const detail = error.type ?? `http_${s}`;
    return fail(providerFailure('anthropic', s === 429 ? 'rate_limit' : undefined, `The Messages API answered ${text}`, { recoverable: s >= 500, detail }));
  }
  if (error instanceof APIConnectionTimeoutError) return { kind: 'retry', reason: 'connection', message: `no response from ${where} (timed out)` };
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { kind: 'retry', reason: 'connection', message: `could not reach ${where} (${error.message}${cause})` };
  }
  if (error instanceof AnthropicError || error instanceof TypeError) {
    // A body cut after the 200 (socket closed mid-stream) surfaces as a wrapped fetch error.
    return { kind: 'retry', reason: 'stream_cut', message: `stream interrupted: ${error.message}` };
  }
  const message = errorText(error);
  return fail(providerFailure('anthropic', undefined, `Unexpected error from the model adapter: ${message}`, { recoverable: false, detail: 'unexpected' }));
}
