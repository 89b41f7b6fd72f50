/**
 * One connection to one MCP server through the official SDK's Client: stdio (our ProcessTransport, so the
 * process can run inside the OS sandbox) or streamable HTTP. Every failure becomes a fault with a kind and
 * a message that names the server — connect, list and call each have a deadline, so nothing hangs on a
 * server that never answers.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpCallOutcome, McpFaultKind, McpToolInfo } from '../../core/contracts/mcp';
import { ProcessTransport } from './processTransport';
import { errorText } from '../../core/primitives/errorText';

export type Fault = { ok: false; fault: McpFaultKind; message: string };

const CLIENT_INFO = { name: 'plan-execute', version: '0.1.0' };

export class McpConnection {
  private constructor(
    readonly client: Client,
    private readonly process: ProcessTransport | null,
  ) {}

  /** Connects (initialize included) within `timeoutMs`; the transport is already built. */
  static async open(transport: ProcessTransport | StreamableHTTPClientTransport, timeoutMs: number, signal: AbortSignal): Promise<McpConnection | Fault> {
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const process = transport instanceof ProcessTransport ? transport : null;
    const connection = new McpConnection(client, process);
    try {
      await withSignal(signal, (own) =>
        withDeadline(client.connect(transport, { timeout: timeoutMs, signal: own }), timeoutMs + 1_000, 'did not finish starting'),
      );
      return connection;
    } catch (error) {
      await client.close().catch(() => undefined);
      return classify(error, process, 'start');
    }
  }

  async listTools(timeoutMs: number, signal: AbortSignal): Promise<McpToolInfo[] | Fault> {
    try {
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 20; page++) {
        const r = await withSignal(signal, (own) =>
          withDeadline(
            this.client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs, signal: own }),
            timeoutMs + 1_000,
            'did not list its tools',
          ),
        );
        for (const t of r.tools) {
          tools.push({
            name: t.name,
            description: t.description ?? t.title ?? '',
            readOnly: t.annotations?.readOnlyHint === true,
            inputSchema: { ...t.inputSchema },
          });
        }
        cursor = r.nextCursor;
        if (!cursor) break;
      }
      return tools;
    } catch (error) {
      return classify(error, this.process, 'call');
    }
  }

  async callTool(tool: string, args: Record<string, unknown>, timeoutMs: number, maxChars: number, signal: AbortSignal): Promise<McpCallOutcome> {
    try {
      const result = (await withSignal(signal, (own) =>
        withDeadline(
          this.client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs, signal: own }),
          timeoutMs + 1_000,
          `did not answer within ${Math.round(timeoutMs / 1000)} s`,
        ),
      )) as CallToolResult;
      const text = renderResult(result);
      return { ok: true, text: text.slice(0, maxChars), isError: result.isError === true, truncated: text.length > maxChars };
    } catch (error) {
      return classify(error, this.process, 'call');
    }
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}

/** A signal of one request's own, following `outer` (the SDK adds a listener per request; the mission's signal is shared). */
async function withSignal<T>(outer: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const own = new AbortController();
  const follow = (): void => own.abort(outer.reason);
  if (outer.aborted) own.abort(outer.reason);
  else outer.addEventListener('abort', follow, { once: true });
  try {
    return await work(own.signal);
  } finally {
    outer.removeEventListener('abort', follow);
  }
}

/** Rejects after `ms` with a timeout error (the SDK's own timeout normally comes first). */
function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new McpError(ErrorCode.RequestTimeout, what)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function isZodError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && ((error as { name?: string }).name === 'ZodError' || Array.isArray((error as { issues?: unknown }).issues))
  );
}

/** A thrown error as a fault: what kind, and in words that help (the server's stderr, from its beginning, when it died). */
function classify(error: unknown, process: ProcessTransport | null, phase: 'start' | 'call'): Fault {
  const message = errorText(error);
  const stderr = process?.stderrText() ?? '';
  const tail = stderr ? `; its stderr: ${stderr}` : '';
  if (process?.fault?.kind === 'malformed') return { ok: false, fault: 'malformed', message: `${process.fault.message}${tail}` };
  if (process?.fault?.kind === 'spawn') return { ok: false, fault: 'start_failed', message: `${process.fault.message}${tail}` };
  if (process?.fault?.kind === 'exited') {
    return phase === 'start'
      ? { ok: false, fault: 'start_failed', message: `did not start: it ${process.fault.message} before answering${tail}` }
      : { ok: false, fault: 'disconnected', message: `went away during the call: it ${process.fault.message}${tail}` };
  }
  if (error instanceof UnauthorizedError || (error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403))) {
    return {
      ok: false,
      fault: 'auth',
      message: `needs authentication (${message}); sign in to it outside Plan & Execute, or put its token in the configuration's headers`,
    };
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    return { ok: false, fault: 'timeout', message: phase === 'start' ? `did not start in time (${message})` : `timed out (${message})` };
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return {
      ok: false,
      fault: phase === 'start' ? 'start_failed' : 'disconnected',
      message: `${phase === 'start' ? 'closed the connection while starting' : 'went away during the call'} (${message})${tail}`,
    };
  }
  if (isZodError(error))
    return { ok: false, fault: 'malformed', message: `answered with a result that is not valid MCP (${message.replace(/\s+/g, ' ').slice(0, 300)})` };
  if (
    error instanceof McpError &&
    (error.code === ErrorCode.ParseError ||
      error.code === ErrorCode.InvalidRequest ||
      (error.code === ErrorCode.InvalidParams && /invalid .*result/i.test(message)))
  ) {
    return { ok: false, fault: 'malformed', message: `answered with something that is not valid MCP (${message.replace(/\s+/g, ' ').slice(0, 300)})` };
  }
  if (error instanceof McpError) return { ok: false, fault: phase === 'start' ? 'start_failed' : 'disconnected', message: `${message}${tail}` };
  const unreachable = /ECONNREFUSED|ENOTFOUND|fetch failed|ECONNRESET|socket hang up|EHOSTUNREACH/i.test(message);
  if (unreachable) return { ok: false, fault: phase === 'start' ? 'start_failed' : 'disconnected', message: `cannot be reached (${message})` };
  return { ok: false, fault: phase === 'start' ? 'start_failed' : 'disconnected', message: `${message}${tail}` };
}

/** A tool result as text: text blocks as they are, other blocks described, structured content as JSON. */
function renderResult(result: CallToolResult): string {
  const parts: string[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'image':
      case 'audio':
        parts.push(`[${block.type} ${block.mimeType}, ${Math.round((block.data.length * 3) / 4)} bytes, not shown]`);
        break;
      case 'resource': {
        const r = block.resource as { uri: string; text?: string; mimeType?: string };
        parts.push(r.text !== undefined ? `[resource ${r.uri}]\n${r.text}` : `[resource ${r.uri}${r.mimeType ? `, ${r.mimeType}` : ''}: binary, not shown]`);
        break;
      }
      case 'resource_link':
        parts.push(`[link ${block.uri}${block.name ? ` (${block.name})` : ''}]`);
        break;
      default: {
        // The compiler proves every kind the SDK knows is rendered above; a newer server's kind is only named.
        const unknownBlock: never = block;
        parts.push(`[${(unknownBlock as { type: string }).type} block]`);
      }
    }
  }
  if (result.structuredContent !== undefined && parts.length === 0) parts.push(JSON.stringify(result.structuredContent, null, 2));
  return parts.join('\n');
}
