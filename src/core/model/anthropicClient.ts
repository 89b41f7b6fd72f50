/**
 * The Anthropic adapter: one `ModelRequest` → `client.messages.stream(...)` on the real SDK.
 *
 * Faults, in order of who handles them: the SDK retries connection errors and 408/409/429/5xx (we keep its
 * `maxRetries`), except a spend-limit 429, which our fetch wrapper marks `x-should-retry: false` so it is
 * not retried at all; this adapter then retries, with backoff, what happens after a 200 (see faults.ts).
 * Cancellation aborts the HTTP request at once (the signal goes to the SDK).
 */
import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsBase, MessageStreamParams } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ModelClient, ModelOutcome, ModelRequest } from './modelClient';
import { backoffMs, classifyFault, IncompleteStreamError, StalledStreamError } from './faults';

export interface RetryPolicy {
  /** Attempts in total for faults after a 200 (mid-stream overload, cut stream, missing message_stop). */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface AnthropicClientOptions {
  /** Defaults to ANTHROPIC_API_KEY (the SDK reads it). */
  apiKey?: string;
  /** Defaults to ANTHROPIC_BASE_URL or the public API (the SDK reads it). */
  baseURL?: string;
  /** The SDK's own retries for HTTP-level faults (default 2). */
  maxRetries?: number;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** A stream silent this long (no event, not even a ping) is abandoned and retried. Default 120 s. */
  streamIdleMs?: number;
  /** Abortable sleep, injectable for tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 8_000 };
export const DEFAULT_STREAM_IDLE_MS = 120_000;

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

/** A fetch that turns a spend-limit 429 into a non-retryable one for the SDK's retry loop. */
export const spendLimitAwareFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.status !== 429) return response;
  const body = await response.text();
  const headers = new Headers(response.headers);
  if (body.includes('enforced_spend_limit_reached')) headers.set('x-should-retry', 'false');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
};

export function toSdkParams(request: ModelRequest): MessageStreamParams {
  const outputConfig: NonNullable<MessageCreateParamsBase['output_config']> = {};
  if (request.effort) outputConfig.effort = request.effort;
  if (request.outputSchema) outputConfig.format = { type: 'json_schema', schema: request.outputSchema };
  const params: MessageCreateParamsBase & { temperature?: number } = {
    model: request.model,
    max_tokens: request.maxTokens,
    system: request.system,
    messages: request.messages,
  };
  if (request.tools.length > 0) params.tools = request.tools;
  if (request.toolChoice) params.tool_choice = request.toolChoice;
  // Not in the SDK's types any more (newer models reject it); older models still take it.
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (Object.keys(outputConfig).length > 0) params.output_config = outputConfig;
  return params;
}

export function createAnthropicModelClient(options: AnthropicClientOptions = {}): ModelClient {
  const sdk = new Anthropic({
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    maxRetries: options.maxRetries ?? 2,
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    fetch: spendLimitAwareFetch,
  });
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const sleep = options.sleep ?? abortableSleep;
  const idleMs = options.streamIdleMs ?? DEFAULT_STREAM_IDLE_MS;

  async function attempt(request: ModelRequest, signal: AbortSignal): Promise<Omit<Extract<ModelOutcome, { ok: true }>['response'], 'durationMs' | 'attempts'>> {
    // The request's own signal: the caller's, plus the idle watchdog (re-armed by every stream event).
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
    const stream = sdk.messages.stream(toSdkParams(request), { signal: local.signal });
    let sawStop = false;
    let events = 0;
    stream.on('streamEvent', (event) => {
      events++;
      arm();
      if (event.type === 'message_stop') sawStop = true;
    });
    let message;
    try {
      message = await stream.finalMessage();
    } catch (error) {
      if (stalled && !signal.aborted) throw new StalledStreamError(events, idleMs);
      // A clean end without message_stop shows up as "ended without producing a Message"; a cut socket
      // shows up as a wrapped fetch error and is classified (and retried) as an interrupted stream.
      if (!sawStop && !(error instanceof Anthropic.APIError) && error instanceof Error && /ended without|without sending any chunks/.test(error.message)) {
        throw new IncompleteStreamError(events);
      }
      throw error;
    } finally {
      clearTimeout(idle);
      signal.removeEventListener('abort', forward);
    }
    if (!sawStop) throw new IncompleteStreamError(events);
    const u = message.usage;
    return {
      id: message.id,
      model: message.model,
      content: message.content,
      stopReason: message.stop_reason,
      usage: {
        inputTokens: u.input_tokens,
        outputTokens: u.output_tokens,
        cacheReadTokens: u.cache_read_input_tokens ?? 0,
        cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
      },
      requestId: stream.request_id ?? null,
    };
  }

  return {
    async call(request, signal) {
      const started = Date.now();
      for (let n = 1; ; n++) {
        try {
          const response = await attempt(request, signal);
          return { ok: true, response: { ...response, durationMs: Date.now() - started, attempts: n } };
        } catch (error) {
          const decision = classifyFault(error, signal.aborted);
          if (decision.kind === 'fail') return { ok: false, failure: decision.failure, durationMs: Date.now() - started, attempts: n };
          if (n >= retry.maxAttempts) {
            return {
              ok: false,
              durationMs: Date.now() - started,
              attempts: n,
              failure: {
                class: 'tool_error',
                message: `The model call failed ${n} times (${decision.reason}); giving up.`,
                recoverable: true,
                detail: 'retries_exhausted',
                suggestion: 'The API may be overloaded; resume the mission later.',
                partialSideEffects: { files: [], commands: [] },
              },
            };
          }
          try {
            await sleep(backoffMs(n, retry.baseDelayMs, retry.maxDelayMs), signal);
          } catch {
            const cancelled = classifyFault(error, true);
            if (cancelled.kind === 'fail') return { ok: false, failure: cancelled.failure, durationMs: Date.now() - started, attempts: n };
          }
        }
      }
    },
    async countTokens(request, signal) {
      try {
        const p = toSdkParams(request) as MessageCreateParamsBase;
        const result = await sdk.messages.countTokens(
          { model: p.model, messages: p.messages, ...(p.system ? { system: p.system } : {}), ...(p.tools ? { tools: p.tools as never } : {}) },
          { signal },
        );
        return result.input_tokens;
      } catch {
        return undefined;
      }
    },
  };
}
