/**
 * The scriptable Chat Completions server: a real HTTP server on 127.0.0.1 that the real `openai` SDK
 * reaches through `baseURL` (`server.url`, which ends in /v1). It answers POST /v1/chat/completions (JSON,
 * or SSE when `stream` is true) and GET /v1/models from the same scenarios as the Messages server,
 * refuses what OpenAI refuses (chatRequest.ts) unless `lenient`, can play a server without structured
 * outputs or one that takes only `max_completion_tokens`, injects the faults of the scenario format, and
 * records every request so tests can assert what was sent. See ./README.md.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sleep, startLoopbackServer } from '../loopbackServer';
import {
  createPicker,
  detectRole,
  loadScenario,
  parseScenario,
  turnOf,
  type Fault,
  type MessagesBody,
  type RecordedRequest,
  type Scenario,
  type ScenarioInput,
} from '../messages-server/scenario';
import { chatError, completionChunks, completionJson, renderCompletion, type ChatUsage } from './chatReplies';
import { messagesView, validateChatRequest, type ChatBody } from './chatRequest';

export interface ChatServerOptions {
  scenario: ScenarioInput | Scenario | string;
  port?: number;
  /** false: a `json_schema` response_format is refused with a 400, as some gateways and old servers do. */
  structuredOutputs?: boolean;
  /** false: a request with `tool_choice` is refused (servers that take tools but not the choice). */
  toolChoice?: boolean;
  /** 'max_completion_tokens': `max_tokens` is refused, as OpenAI's reasoning models do. Default: either. */
  maxTokensParam?: 'either' | 'max_completion_tokens';
  /** Accept anything (as Ollama and LM Studio do); default false: refuse what OpenAI refuses. */
  lenient?: boolean;
  /** false: never send usage (some servers ignore stream_options). Default true. */
  usage?: boolean;
  /** When set, requests must carry `Authorization: Bearer <key>` (else 401 invalid_api_key). */
  apiKey?: string;
  /** What GET /v1/models lists. */
  models?: string[];
  /**
   * Habits of local servers: tool calls streamed without ids, their name repeated in every chunk, and
   * `finish_reason: "stop"` after tool calls (as Ollama streams them).
   */
  quirks?: { noToolCallIds?: boolean; repeatToolName?: boolean; stopAfterToolCalls?: boolean };
}

interface ChatRecordedRequest extends Omit<RecordedRequest, 'body'> {
  /** The Chat Completions body as sent. */
  chat: ChatBody;
  /** The same request in the Messages shape (what the scenario matched on). */
  body: MessagesBody;
  /** The 400 the server answered because the request was invalid, if it did. */
  rejected: string | null;
}

export interface ChatServer {
  /** Base URL for the SDK, ending in /v1. */
  url: string;
  requests: ChatRecordedRequest[];
  close(): Promise<void>;
}

export async function startChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const scenario = typeof options.scenario === 'string' ? loadScenario(options.scenario) : parseScenario(options.scenario);
  const pick = createPicker(scenario);
  const requests: ChatRecordedRequest[] = [];
  const prefixes: string[] = [];
  let completions = 0;
  let calls = 0;

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${requests.length}`, ...headers });
    res.end(JSON.stringify(body));
  }

  /** Prompt tokens (chars/4) and the part a prefix cache would hold: the longest prefix seen before. */
  function usageFor(body: ChatBody, completionChars: number): ChatUsage {
    const text = JSON.stringify([body.tools ?? [], body.messages ?? []]);
    let common = 0;
    for (const p of prefixes) {
      let i = 0;
      const n = Math.min(p.length, text.length);
      while (i < n && p.charCodeAt(i) === text.charCodeAt(i)) i++;
      common = Math.max(common, i);
    }
    prefixes.push(text);
    const prompt = Math.ceil(text.length / 4);
    const cachedTokens = Math.floor(common / 4);
    const cached = cachedTokens >= Math.max(1, scenario.minCacheTokens) ? Math.min(cachedTokens, prompt) : 0;
    const completion = Math.max(1, Math.ceil(completionChars / 4));
    return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: cached } };
  }

  async function answer(req: IncomingMessage, res: ServerResponse, body: ChatBody, record: ChatRecordedRequest): Promise<void> {
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      send(res, 401, chatError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
      return;
    }
    const invalid = options.lenient ? undefined : validateChatRequest(body);
    const refusal =
      invalid ??
      (options.structuredOutputs === false && body.response_format?.type === 'json_schema'
        ? "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model."
        : undefined) ??
      (options.maxTokensParam === 'max_completion_tokens' && body.max_tokens !== undefined
        ? "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
        : undefined) ??
      (options.toolChoice === false && body.tool_choice !== undefined ? "'tool_choice' is not supported by this server" : undefined);
    if (refusal) {
      record.rejected = refusal;
      send(res, 400, chatError(refusal, 'invalid_request_error', null, null));
      return;
    }
    const picked = pick(record.body, record.role, record as unknown as RecordedRequest);
    if (!picked) {
      send(res, 400, chatError(`openai-server: no scenario rule matches (role=${record.role}, turn=${record.turn})`, 'invalid_request_error'));
      return;
    }
    const { reply } = picked;
    record.rule = picked.rule;
    record.fault = reply.fault ?? null;
    if (reply.latencyMs) await sleep(reply.latencyMs);
    if (res.destroyed) return;
    const retryHeaders = (ms: number | undefined): Record<string, string> =>
      ms === undefined ? {} : { 'retry-after-ms': String(ms), 'retry-after': String(Math.ceil(ms / 1000)) };
    const faults: Partial<Record<Fault, () => void>> = {
      hang: () => undefined,
      connection_reset: () => req.socket.destroy(),
      rate_limit: () => {
        const ms = reply.retryAfterMs ?? 10;
        send(res, 429, chatError('Rate limit reached for requests per min.', 'requests', 'rate_limit_exceeded'), {
          ...retryHeaders(ms),
          'x-ratelimit-remaining-requests': '0',
          'x-ratelimit-reset-requests': `${ms}ms`,
        });
      },
      spend_limit: () =>
        send(res, 429, chatError('You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'insufficient_quota')),
      usage_limit: () =>
        send(res, 429, chatError('You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'insufficient_quota')),
      overloaded: () => send(res, 503, chatError('The server is overloaded or not ready yet.', 'server_error', null), retryHeaders(reply.retryAfterMs)),
      server_error: () =>
        send(res, 500, chatError('The server had an error while processing your request.', 'server_error', null), retryHeaders(reply.retryAfterMs)),
      auth: () => send(res, 401, chatError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key')),
      model_not_found: () =>
        send(
          res,
          404,
          chatError(`The model \`${body.model ?? ''}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found'),
        ),
      context_length: () =>
        send(
          res,
          400,
          chatError(
            "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
            'invalid_request_error',
            'context_length_exceeded',
            'messages',
          ),
        ),
      no_tools: () => send(res, 400, chatError(`registry.ollama.ai/library/${body.model ?? 'model'}:latest does not support tools`, 'api_error', null)),
    };
    if (reply.refusal !== undefined) return send(res, 400, chatError(reply.refusal, 'invalid_request_error', null));
    const fault = reply.fault ? faults[reply.fault] : undefined;
    if (fault) return fault();

    const rendered = renderCompletion(reply, body, `chatcmpl-${++completions}`, () => `call_${String(++calls).padStart(4, '0')}`);
    const usage = usageFor(body, (rendered.content ?? '').length + rendered.toolCalls.reduce((n, t) => n + t.arguments.length, 0));
    if (body.stream !== true) {
      if (reply.fault === 'stream_cut' || reply.fault === 'overloaded_midstream' || reply.fault === 'no_finish' || reply.fault === 'no_message_stop') {
        req.socket.destroy();
        return;
      }
      send(res, 200, completionJson(rendered, usage));
      return;
    }
    const withUsage = options.usage !== false && body.stream_options?.include_usage === true;
    const unfinished = reply.fault === 'no_finish' || reply.fault === 'no_message_stop';
    const chunks = completionChunks(rendered, withUsage && !unfinished ? usage : undefined, !unfinished, options.quirks);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': `req_${requests.length}` });
    const cutAt = reply.fault === 'stream_cut' || reply.fault === 'overloaded_midstream' ? Math.max(2, Math.floor(chunks.length / 2)) : chunks.length;
    for (const [i, chunk] of chunks.entries()) {
      if (i >= cutAt || res.destroyed) break;
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
    }
    if (reply.fault === 'stream_cut') {
      await sleep(5);
      req.socket.destroy();
      return;
    }
    if (reply.fault === 'overloaded_midstream') {
      res.write(`data: ${JSON.stringify(chatError('The server is overloaded, please try again.', 'server_error', 'overloaded'))}\n\n`);
      res.end();
      return;
    }
    res.write('data: [DONE]\n\n');
    res.end();
  }

  const server = await startLoopbackServer({
    ...(options.port !== undefined ? { port: options.port } : {}),
    redact: ['authorization'],
    crashed: (res, error) => send(res, 500, chatError(`openai-server crashed: ${String(error)}`, 'server_error')),
    route: async ({ req, res, method, path, text, headers }) => {
      if (method === 'GET' && path === '/v1/models') {
        send(res, 200, { object: 'list', data: (options.models ?? []).map((id) => ({ id, object: 'model', created: 1_800_000_000, owned_by: 'test' })) });
        return;
      }
      if (method !== 'POST' || path !== '/v1/chat/completions') {
        send(res, 404, chatError(`openai-server: no route ${method} ${path}`, 'invalid_request_error'));
        return;
      }
      let body: ChatBody;
      try {
        body = JSON.parse(text || '{}') as ChatBody;
      } catch {
        send(res, 400, chatError('We could not parse the JSON body of your request.', 'invalid_request_error'));
        return;
      }
      const view = messagesView(body);
      const { role, promptVersion } = detectRole(view);
      const record: ChatRecordedRequest = {
        index: requests.length,
        path,
        headers,
        chat: body,
        body: view,
        role,
        promptVersion,
        turn: turnOf(view),
        stream: body.stream === true,
        at: Date.now(),
        rule: null,
        fault: null,
        rejected: null,
      };
      requests.push(record);
      await answer(req, res, body, record);
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, requests, close: server.close };
}
