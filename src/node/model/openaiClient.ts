/**
 * The OpenAI-compatible adapter: one `ModelRequest` → a streamed Chat Completion on the official `openai`
 * SDK, against any base URL (OpenAI, Ollama `http://localhost:11434/v1`, LM Studio, vLLM, OpenRouter,
 * LiteLLM, Azure's OpenAI-compatible endpoint).
 *
 * The SDK's retries are off: retryLoop.ts waits as the server asks and records each wait. Servers differ
 * in what they accept, so a 400 that names a parameter the endpoint does not take (max_tokens vs
 * max_completion_tokens, response_format, temperature, reasoning_effort, stream_options, strict,
 * tool_choice) adjusts
 * this client's `OpenAICompat` for the rest of its life and the attempt is sent again at once — that is
 * not a wait. A server without structured outputs gets the answer schema as a forced function call.
 */
import OpenAI, { APIUserAbortError, BadRequestError, UnprocessableEntityError } from 'openai';
import type { ModelClient, ModelRequest, ModelResponse } from '../../core/model/modelClient';
import { DEFAULT_STREAM_IDLE_MS, idleWatchdog } from '../../core/model/streamWatchdog';
import { StalledStreamError } from '../../core/model/streamErrors';
import { functionToolOf, STRUCTURED_OUTPUT_TOOL } from '../../core/model/functionTools';
import { classifyOpenAIFault } from './openaiFaults';
import { defaultCompat, toChatParams, type OpenAICompat } from './openaiRequest';
import { ChatStreamAssembler } from './openaiStream';
import { isLoopbackUrl, OPENAI_DEFAULT_BASE_URL } from '../../core/model/providers';
import { retryingCall, type AdapterTuning } from '../../core/model/retryLoop';
import { err, ok, type Result } from '../../core/contracts/result';

/** Local servers load a model on its first request, silently: give them longer before calling it stalled. */
const LOCAL_STREAM_IDLE_MS = 300_000;

/** `streamIdleMs` defaults to 120 s; 300 s on a loopback endpoint (a local server may first load the model). */
export interface OpenAIClientOptions extends AdapterTuning {
  /** Defaults to OPENAI_API_KEY; local servers need none (a placeholder is sent). */
  apiKey?: string;
  /** Defaults to OPENAI_BASE_URL, else the public API. */
  baseURL?: string;
  /** Per attempt: how long to wait for the response headers. */
  timeoutMs?: number;
  /** Start from these compat settings (tests; a server known to lack structured outputs). */
  compat?: Partial<OpenAICompat>;
  env?: Record<string, string | undefined>;
}

/** A 400 that says which parameter the endpoint refuses: the compat change that avoids it, if any. */
function adjustFor(message: string, request: ModelRequest, compat: OpenAICompat): Partial<OpenAICompat> | undefined {
  const m = message.toLowerCase();
  const refuses = (word: string): boolean =>
    m.includes(word) && /unsupported|not supported|unknown|unrecognized|not allowed|invalid|does not support|extra (inputs|fields)|not permitted/.test(m);
  if (compat.maxTokensParam === 'max_tokens' && refuses('max_tokens')) return { maxTokensParam: 'max_completion_tokens' };
  if (compat.maxTokensParam === 'max_completion_tokens' && refuses('max_completion_tokens')) return { maxTokensParam: 'max_tokens' };
  if (
    request.outputSchema &&
    compat.structuredOutput === 'json_schema' &&
    (refuses('response_format') || refuses('json_schema') || refuses('structured output'))
  )
    return { structuredOutput: 'tool' };
  if (compat.streamUsage && (refuses('stream_options') || refuses('include_usage'))) return { streamUsage: false };
  if (compat.temperature && request.temperature !== undefined && refuses('temperature')) return { temperature: false };
  if (compat.reasoningEffort && request.effort !== undefined && refuses('reasoning_effort')) return { reasoningEffort: false };
  if (compat.strictTools && refuses('strict')) return { strictTools: false };
  if (compat.toolChoice && refuses('tool_choice')) return { toolChoice: false };
  if (compat.promptCacheKey && refuses('prompt_cache_key')) return { promptCacheKey: false };
  return undefined;
}

export function createOpenAIModelClient(options: OpenAIClientOptions = {}): ModelClient & { compat(): OpenAICompat; baseURL: string } {
  const env = options.env ?? process.env;
  const baseURL = (options.baseURL || env.OPENAI_BASE_URL || OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const sdk = new OpenAI({
    apiKey: options.apiKey || env.OPENAI_API_KEY || 'no-key',
    baseURL,
    maxRetries: 0,
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  });
  const compat: OpenAICompat = { ...defaultCompat(baseURL), ...options.compat };
  const local = isLoopbackUrl(baseURL);
  const idleMs = options.streamIdleMs ?? (local ? LOCAL_STREAM_IDLE_MS : DEFAULT_STREAM_IDLE_MS);

  async function once(request: ModelRequest, signal: AbortSignal): Promise<Omit<ModelResponse, 'durationMs' | 'attempts'>> {
    const params = toChatParams(request, compat);
    const schemas = new Map<string, Record<string, unknown>>(request.tools.map((t) => functionToolOf(t)).map((t) => [t.name, t.parameters]));
    if (request.outputSchema) schemas.set(STRUCTURED_OUTPUT_TOOL, request.outputSchema);
    const watchdog = idleWatchdog(signal, idleMs);
    const assembler = new ChatStreamAssembler();
    let requestId: string | null = null;
    try {
      const { data: stream, request_id } = await sdk.chat.completions.create(params, { signal: watchdog.signal }).withResponse();
      requestId = request_id ?? null;
      watchdog.arm();
      for await (const chunk of stream) {
        watchdog.arm();
        assembler.add(chunk);
      }
      // The SDK ends an aborted stream quietly instead of throwing: say why it ended.
      if (watchdog.stalled()) throw new StalledStreamError(assembler.chunks, idleMs);
      if (signal.aborted) throw new APIUserAbortError();
    } catch (error) {
      if (watchdog.stalled()) throw new StalledStreamError(assembler.chunks, idleMs);
      throw error;
    } finally {
      watchdog.dispose();
    }
    const answer = assembler.result(schemas, () => Math.ceil(JSON.stringify(params.messages).length / 4));
    return {
      id: answer.id,
      model: answer.model || request.model,
      content: answer.content,
      stopReason: answer.stopReason,
      usage: answer.usage,
      requestId,
      ...(local ? { local: true } : {}),
    };
  }

  async function attempt(request: ModelRequest, signal: AbortSignal): Promise<Omit<ModelResponse, 'durationMs' | 'attempts'>> {
    for (let adjustments = 0; ; adjustments++) {
      try {
        return await once(request, signal);
      } catch (error) {
        const refusal = error instanceof BadRequestError || error instanceof UnprocessableEntityError ? adjustFor(error.message, request, compat) : undefined;
        if (!refusal || adjustments >= 6) throw error;
        Object.assign(compat, refusal);
      }
    }
  }

  return {
    baseURL,
    compat: () => ({ ...compat }),
    call: retryingCall({
      provider: 'openai',
      tuning: options,
      where: baseURL,
      attempt,
      classify: (error, aborted, request) => classifyOpenAIFault(error, aborted, baseURL, request.model),
    }),
  };
}

/** The models an endpoint offers (`GET /models`), for the model picker; a readable error otherwise. */
export async function listOpenAIModels(
  options: Pick<OpenAIClientOptions, 'apiKey' | 'baseURL' | 'env' | 'timeoutMs'>,
  signal?: AbortSignal,
): Promise<Result<string[], string>> {
  const env = options.env ?? process.env;
  const baseURL = (options.baseURL || env.OPENAI_BASE_URL || OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const sdk = new OpenAI({ apiKey: options.apiKey || env.OPENAI_API_KEY || 'no-key', baseURL, maxRetries: 1, timeout: options.timeoutMs ?? 15_000 });
  try {
    const ids: string[] = [];
    for await (const model of sdk.models.list(signal ? { signal } : undefined)) ids.push(model.id);
    return ok(ids.sort());
  } catch (error) {
    const fault = classifyOpenAIFault(error, signal?.aborted ?? false, baseURL, '');
    return err(fault.kind === 'fail' ? fault.failure.message : `Could not list the models at ${baseURL}: ${fault.message}`);
  }
}
