/**
 * The Anthropic adapter: one `ModelRequest` → `client.messages.stream(...)` on the real SDK.
 *
 * Faults: the SDK's own retries are off; every attempt goes through retryLoop.ts, which waits as long as
 * the server asks (retry-after, retry-after-ms, the rate-limit reset headers) and records each wait, and
 * anthropicFaults.ts decides what is retried and what fails with which cause. Cancellation aborts the HTTP request
 * at once (the signal goes to the SDK), and an idle watchdog abandons a stream that goes silent.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock as SdkContentBlock, MessageCreateParamsBase, MessageStreamParams } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ContentBlock } from '../../core/model/messages';
import type { ModelClient, ModelRequest, ModelResponse } from '../../core/model/modelClient';
import { IncompleteStreamError, StalledStreamError } from '../../core/model/streamErrors';
import { classifyFault } from './anthropicFaults';
import { retryingCall, type AdapterTuning } from '../../core/model/retryLoop';
import { DEFAULT_STREAM_IDLE_MS, idleWatchdog } from '../../core/model/streamWatchdog';

/** `streamIdleMs` defaults to 120 s (a ping counts as an event). */
export interface AnthropicClientOptions extends AdapterTuning {
  /** Defaults to ANTHROPIC_API_KEY (the SDK reads it). */
  apiKey?: string;
  /** Defaults to ANTHROPIC_BASE_URL or the public API (the SDK reads it). */
  baseURL?: string;
  /** Per attempt: how long to wait for the response headers. */
  timeoutMs?: number;
}

function toSdkParams(request: ModelRequest): MessageStreamParams {
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

type CoreKind = ContentBlock['type'];
const CORE_KINDS: ReadonlySet<string> = new Set<CoreKind>(['text', 'thinking', 'redacted_thinking', 'tool_use']);
const isCoreBlock = (b: SdkContentBlock): b is Extract<SdkContentBlock, { type: CoreKind }> => CORE_KINDS.has(b.type);

/**
 * A response's blocks as the model port types them. The roles offer no server tools, so no other kind is
 * expected; one that comes anyway is named in a text block rather than dropped unseen.
 */
export function toCoreContent(content: readonly SdkContentBlock[]): ContentBlock[] {
  return content.map((b): ContentBlock => (isCoreBlock(b) ? b : { type: 'text', text: `[${b.type} block omitted]` }));
}

export function createAnthropicModelClient(options: AnthropicClientOptions = {}): ModelClient {
  const sdk = new Anthropic({
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    maxRetries: 0,
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  });
  const idleMs = options.streamIdleMs ?? DEFAULT_STREAM_IDLE_MS;
  const where = `the Anthropic API (${sdk.baseURL})`;

  async function attempt(request: ModelRequest, signal: AbortSignal): Promise<Omit<ModelResponse, 'durationMs' | 'attempts'>> {
    // The request's own signal: the caller's, plus the idle watchdog (re-armed by every stream event).
    const watchdog = idleWatchdog(signal, idleMs);
    const stream = sdk.messages.stream(toSdkParams(request), { signal: watchdog.signal });
    let sawStop = false;
    let events = 0;
    stream.on('streamEvent', (event) => {
      events++;
      watchdog.arm();
      if (event.type === 'message_stop') sawStop = true;
    });
    let message;
    try {
      message = await stream.finalMessage();
    } catch (error) {
      if (watchdog.stalled()) throw new StalledStreamError(events, idleMs);
      // A clean end without message_stop shows up as "ended without producing a Message"; a cut socket
      // shows up as a wrapped fetch error and is classified (and retried) as an interrupted stream.
      if (!sawStop && !(error instanceof Anthropic.APIError) && error instanceof Error && /ended without|without sending any chunks/.test(error.message)) {
        throw new IncompleteStreamError(events);
      }
      throw error;
    } finally {
      watchdog.dispose();
    }
    if (!sawStop) throw new IncompleteStreamError(events);
    const u = message.usage;
    return {
      id: message.id,
      model: message.model,
      content: toCoreContent(message.content),
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
    call: retryingCall({
      provider: 'anthropic',
      tuning: options,
      where: sdk.baseURL,
      attempt,
      classify: (error, aborted) => classifyFault(error, aborted, where),
    }),
    async countTokens(request, signal) {
      try {
        const p = toSdkParams(request) as MessageCreateParamsBase;
        const result = await sdk.messages.countTokens(
          { model: p.model, messages: p.messages, ...(p.system ? { system: p.system } : {}), ...(p.tools ? { tools: p.tools as never } : {}) },
          { signal },
        );
        return result.input_tokens;
      } catch {
        // The endpoint refused or lacks token counting (a proxy, a gateway): "cannot" is the port's
        // answer, and the caller estimates instead.
        return undefined;
      }
    },
  };
}
