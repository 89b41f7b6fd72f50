/**
 * The scriptable Messages-API server: a real HTTP server on 127.0.0.1 that the real SDK reaches through
 * `baseURL`. It answers POST /v1/messages (JSON or SSE) and POST /v1/messages/count_tokens from a scenario,
 * injects latency and faults, simulates the prompt cache, and records every request so tests can assert
 * what was sent. A request no rule matches gets a 400 naming its role and turn: scenarios fail loudly.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sleep, startLoopbackServer } from '../loopbackServer';
import { CacheSim, estimateTokens, segments } from './cacheSim';
import { errorBody, renderMessage, sseEvents } from './replies';
import {
  createPicker,
  detectRole,
  loadScenario,
  parseScenario,
  turnOf,
  type MessagesBody,
  type RecordedRequest,
  type Reply,
  type Scenario,
  type ScenarioInput,
} from './scenario';

export interface MessagesServer {
  /** Base URL for the SDK (`baseURL`), e.g. http://127.0.0.1:40123 */
  url: string;
  /** Every request received, in arrival order (live array). */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface MessagesServerOptions {
  /** A scenario object, or a path to a scenario JSON file. */
  scenario: ScenarioInput | Scenario | string;
  port?: number;
  /** What GET /v1/models lists (the demo lists its scripted model); absent: the route answers 404 like any other. */
  models?: { id: string; displayName: string }[];
  /**
   * The model every answer says it came from (the demo's scripted model), whatever the request asked for;
   * absent: the model asked for, as a real server of that model would say.
   */
  answersAs?: string;
}

const retryHeaders = (reply: Reply): Record<string, string> => (reply.retryAfterMs === undefined ? {} : { 'retry-after-ms': String(reply.retryAfterMs) });

export async function startMessagesServer(options: MessagesServerOptions): Promise<MessagesServer> {
  const scenario = typeof options.scenario === 'string' ? loadScenario(options.scenario) : parseScenario(options.scenario);
  const requests: RecordedRequest[] = [];
  const cache = new CacheSim(scenario.minCacheTokens);
  const pickReply = createPicker(scenario);
  let messageCounter = 0;
  let toolCounter = 0;

  const pick = (body: MessagesBody, role: string | null): { reply: Reply; rule: string } | undefined => pickReply(body, role, requests.at(-1)!);

  function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${requests.length}`, ...headers });
    res.end(text);
  }

  async function handleMessages(req: IncomingMessage, res: ServerResponse, body: MessagesBody, record: RecordedRequest): Promise<void> {
    const picked = pick(body, record.role);
    if (!picked) {
      sendJson(res, 400, errorBody('invalid_request_error', `messages-server: no scenario rule matches (role=${record.role}, turn=${record.turn})`));
      return;
    }
    const { reply } = picked;
    record.rule = picked.rule;
    record.fault = reply.fault ?? null;
    if (reply.latencyMs) await sleep(reply.latencyMs);
    if (res.destroyed) return;
    if (reply.refusal !== undefined) {
      sendJson(res, 400, errorBody('invalid_request_error', reply.refusal));
      return;
    }
    switch (reply.fault) {
      case 'hang':
        return; // never answers; the client must abort
      case 'connection_reset':
        req.socket.destroy();
        return;
      case 'rate_limit': {
        const ms = reply.retryAfterMs ?? 10;
        sendJson(res, 429, errorBody('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'), {
          'retry-after-ms': String(ms),
          'retry-after': String(Math.ceil(ms / 1000)),
        });
        return;
      }
      case 'spend_limit':
        sendJson(
          res,
          429,
          errorBody('rate_limit_error', 'Your organization has reached its monthly usage limit for its tier.', { error_code: 'enforced_spend_limit_reached' }),
        );
        return;
      case 'usage_limit':
        sendJson(
          res,
          400,
          errorBody('invalid_request_error', 'You have reached your specified API usage limits. You will regain access on 2026-12-01 at 00:00 UTC.'),
        );
        return;
      case 'overloaded':
        sendJson(res, 529, errorBody('overloaded_error', 'Overloaded'), retryHeaders(reply));
        return;
      case 'server_error':
        sendJson(res, 500, errorBody('api_error', 'Internal server error'), retryHeaders(reply));
        return;
      case 'auth':
        sendJson(res, 401, errorBody('authentication_error', 'invalid x-api-key'));
        return;
      case 'model_not_found':
        sendJson(res, 404, errorBody('not_found_error', `model: ${body.model ?? ''}`));
        return;
      case 'context_length':
        sendJson(res, 400, errorBody('invalid_request_error', 'prompt is too long: 250000 tokens > 200000 maximum'));
        return;
      case 'no_tools':
        sendJson(res, 400, errorBody('invalid_request_error', 'tools are not supported for this model'));
        return;
      default:
    }
    const usage = cache.usageFor(body);
    const message = renderMessage(
      reply,
      options.answersAs ?? body.model ?? 'unknown',
      `msg_${++messageCounter}`,
      usage,
      () => `toolu_${String(++toolCounter).padStart(4, '0')}`,
    );
    if (!record.stream) {
      if (reply.fault === 'stream_cut' || reply.fault === 'overloaded_midstream' || reply.fault === 'no_message_stop' || reply.fault === 'no_finish') {
        req.socket.destroy();
        return;
      }
      sendJson(res, 200, message);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${requests.length}` });
    const events = sseEvents(message);
    let cutAt = events.length;
    if (reply.fault === 'stream_cut' || reply.fault === 'overloaded_midstream') cutAt = Math.max(3, Math.floor(events.length / 2));
    if (reply.fault === 'no_message_stop' || reply.fault === 'no_finish') cutAt = events.length - 1;
    for (const [i, ev] of events.entries()) {
      if (i >= cutAt) break;
      if (res.destroyed) return;
      res.write(`event: ${ev.event}\ndata: ${JSON.stringify(ev.data)}\n\n`);
      if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
    }
    if (reply.fault === 'stream_cut') {
      await sleep(5);
      req.socket.destroy();
      return;
    }
    if (reply.fault === 'overloaded_midstream') {
      res.write(`event: error\ndata: ${JSON.stringify(errorBody('overloaded_error', 'Overloaded'))}\n\n`);
    }
    res.end();
  }

  const server = await startLoopbackServer({
    ...(options.port !== undefined ? { port: options.port } : {}),
    redact: ['x-api-key', 'authorization'],
    crashed: (res, error) => sendJson(res, 500, errorBody('api_error', `messages-server crashed: ${String(error)}`)),
    route: async ({ req, res, method, path, text, headers }) => {
      let body: MessagesBody = {};
      try {
        body = JSON.parse(text || '{}') as MessagesBody;
      } catch {
        sendJson(res, 400, errorBody('invalid_request_error', 'body is not JSON'));
        return;
      }
      const { role, promptVersion } = detectRole(body);
      const record: RecordedRequest = {
        index: requests.length,
        path,
        headers,
        body,
        role,
        promptVersion,
        turn: turnOf(body),
        stream: body.stream === true,
        at: Date.now(),
        rule: null,
        fault: null,
      };
      requests.push(record);
      if (method === 'POST' && path === '/v1/messages/count_tokens') {
        sendJson(res, 200, {
          input_tokens: estimateTokens(
            segments(body)
              .map((s) => s.text)
              .join(''),
          ),
        });
        return;
      }
      if (method === 'POST' && path === '/v1/messages') {
        await handleMessages(req, res, body, record);
        return;
      }
      if (method === 'GET' && path.split('?')[0] === '/v1/models' && options.models) {
        const data = options.models.map((m) => ({ type: 'model', id: m.id, display_name: m.displayName, created_at: '2026-01-01T00:00:00Z' }));
        sendJson(res, 200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
        return;
      }
      sendJson(res, 404, errorBody('not_found_error', `messages-server: no route ${method} ${path}`));
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, close: server.close };
}
