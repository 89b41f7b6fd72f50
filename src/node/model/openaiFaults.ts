/**
 * What to do about an error from one Chat Completions attempt (the `openai` SDK, its own retries off):
 * wait and retry, or stop with a `Failure` that names its cause, the provider and — where it matters —
 * the base URL. Order of the checks: cancellation, our stream errors, mid-stream error chunks, HTTP
 * statuses (auth, quota, model, context, tools, rate limit, overload), connection, the rest.
 *
 * Servers word errors differently (OpenAI has codes; Ollama, LM Studio and vLLM mostly have messages),
 * so causes are read from `code` first and the message second.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from 'openai';
import { IncompleteStreamError } from '../../core/model/streamErrors';
import { retryAfterMs } from '../../core/model/retryAfter';
import { cancelledCall, providerFailure, type AttemptFault } from '../../core/model/retryLoop';
import { errorText } from '../../core/primitives/errorText';

const KEY_HINT = 'Set the key ("Plan & Execute: Set API Key", or OPENAI_API_KEY for the CLI).';

const NO_TOOLS =
  /does not support tools|tools? (?:are|is) not supported|not support(?:ed)? (?:for )?(?:tool|function)|tool[_ ]?(?:use|calling|choice) is not supported|function calling is not (?:supported|enabled)/i;
const CONTEXT_TOO_LONG = /context[_ ]length|maximum context|context window|too many tokens|prompt is too long|exceeds the (?:model's )?(?:maximum|context)/i;

function apiMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  const m = typeof body?.message === 'string' ? body.message : error.message;
  return m.replace(/^\d{3} /, '');
}

export function classifyOpenAIFault(error: unknown, aborted: boolean, baseURL: string, model: string): AttemptFault {
  const fail = (...args: Parameters<typeof providerFailure>): AttemptFault => ({ kind: 'fail', failure: providerFailure(...args) });
  if (aborted || error instanceof APIUserAbortError) return { kind: 'fail', failure: cancelledCall() };
  if (error instanceof IncompleteStreamError) return { kind: 'retry', reason: 'stream_cut', message: error.message };
  if (error instanceof APIError && error.status === undefined && !(error instanceof APIConnectionError)) {
    // An error chunk inside a 200 stream (gateways relay upstream failures this way).
    const text = apiMessage(error);
    if (/overload|capacity|unavailable|timeout|try again|upstream|5\d\d/i.test(`${text} ${String(error.code ?? '')}`))
      return { kind: 'retry', reason: 'server_error', message: `mid-stream error: ${text}` };
    return fail('openai', undefined, `The endpoint at ${baseURL} reported an error mid-stream: ${text}`, {
      recoverable: false,
      detail: String(error.code ?? 'stream_error'),
    });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const s = error.status;
    const text = apiMessage(error);
    const code = String(error.code ?? '');
    const said = `HTTP ${s}${code ? ` ${code}` : ''}: ${text}`;
    if (s === 401 || s === 403 || code === 'invalid_api_key') {
      return fail('openai', 'auth', `The endpoint at ${baseURL} refused the API key (${said}).`, {
        recoverable: false,
        detail: code || 'authentication_error',
        suggestion: KEY_HINT,
      });
    }
    if (code === 'insufficient_quota' || /exceeded your current quota|insufficient[_ ]quota|billing/i.test(text)) {
      return fail('openai', 'spend_limit', `The account behind ${baseURL} is out of quota (${said}). Not retried.`, {
        recoverable: false,
        detail: 'insufficient_quota',
        cls: 'budget_exceeded',
        suggestion: 'Check the plan and billing of the account, then resume the mission.',
      });
    }
    if (s === 404 || code === 'model_not_found') {
      return fail('openai', 'model_unavailable', `The model "${model}" was not found at ${baseURL} (${said}).`, {
        recoverable: false,
        detail: code || 'not_found',
        suggestion: 'Pick a model the endpoint lists ("Plan & Execute: Choose Model"), pull it first for Ollama, and check that the base URL ends in /v1.',
      });
    }
    if (code === 'context_length_exceeded' || ((s === 400 || s === 413 || s === 422) && CONTEXT_TOO_LONG.test(text))) {
      return fail('openai', 'context_too_long', `The request is too long for "${model}" at ${baseURL} (${said}).`, {
        recoverable: true,
        detail: 'context_too_long',
        suggestion: 'Split the step into smaller ones, or choose a model with a larger context.',
      });
    }
    if ((s === 400 || s === 422 || s === 501) && NO_TOOLS.test(text)) {
      return fail('openai', 'no_tool_support', `The model "${model}" at ${baseURL} cannot call tools (${said}); executors and reviewers need tool calls.`, {
        recoverable: false,
        detail: 'no_tool_support',
        suggestion: 'Choose a model that supports tool calling (function calling) for this role.',
      });
    }
    if (s === 408 || s === 409 || s === 429 || s >= 500) {
      const wait = retryAfterMs(error.headers);
      const reason = s === 429 ? 'rate_limited' : s === 503 || s === 529 ? 'overloaded' : 'server_error';
      return { kind: 'retry', reason, message: said, ...(wait !== undefined ? { retryAfterMs: wait } : {}) };
    }
    return fail('openai', undefined, `The endpoint at ${baseURL} answered ${said}`, { recoverable: false, detail: code || `http_${s}` });
  }
  if (error instanceof APIConnectionTimeoutError) return { kind: 'retry', reason: 'connection', message: `no response from ${baseURL} (timed out)` };
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? error.cause : undefined;
    const detail = (cause as { code?: string } | undefined)?.code ?? cause?.message ?? error.message;
    return { kind: 'retry', reason: 'connection', message: `could not reach ${baseURL} (${detail})` };
  }
  if (
    error instanceof OpenAIError ||
    error instanceof TypeError ||
    error instanceof SyntaxError ||
    (error instanceof Error && /terminated|socket|ECONNRESET|aborted|other side closed/i.test(error.message))
  ) {
    // A body cut after the 200, or garbage where a chunk should be.
    return { kind: 'retry', reason: 'stream_cut', message: `stream interrupted: ${errorText(error)}` };
  }
  const message = errorText(error);
  return fail('openai', undefined, `Unexpected error from the OpenAI-compatible adapter: ${message}`, { recoverable: false, detail: 'unexpected' });
}
