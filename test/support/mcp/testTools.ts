/**
 * The tools of the test MCP server (a real server on the official SDK's low-level `Server`, so a test can
 * make it misbehave on purpose). Every call it receives is counted and reported through `onCall` — the
 * server's own account of what reached it, which tests assert on.
 *   echo {text}        read-only: "echo: <text> (call #n)"
 *   add_note {text}    not read-only: "noted: <text> (call #n)"
 *   probe {}           read-only: what the process can do where it runs (write its cwd, see the home, env)
 *   slow {ms}          waits, then answers (timeouts)
 *   crash {}           the process exits mid-call (stdio: a server that disappears)
 *   garbage {}         writes a line that is not JSON-RPC on stdout (stdio)
 *   bad_result {}      answers with a result that is not a valid tool result
 */
import { existsSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export interface RecordedCall {
  tool: string;
  arguments: Record<string, unknown>;
  n: number;
}

const TOOLS = [
  {
    name: 'echo',
    description: 'Echo the text back.',
    annotations: { readOnlyHint: true },
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'add_note',
    description: 'Add a note to the tracker.',
    annotations: { readOnlyHint: false },
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'probe',
    description: 'Report what this server process can do.',
    annotations: { readOnlyHint: true },
    inputSchema: { type: 'object', properties: {} },
  },
  {
    name: 'slow',
    description: 'Answer after a delay.',
    annotations: { readOnlyHint: true },
    inputSchema: { type: 'object', properties: { ms: { type: 'number' } } },
  },
  { name: 'crash', description: 'Exit in the middle of the call.', inputSchema: { type: 'object', properties: {} } },
  { name: 'garbage', description: 'Write something that is not MCP.', inputSchema: { type: 'object', properties: {} } },
  { name: 'bad_result', description: 'Answer with an invalid result.', inputSchema: { type: 'object', properties: {} } },
];

function probe(): string {
  const target = join(process.cwd(), 'mcp-probe.txt');
  let wroteWorkspace = false;
  try {
    writeFileSync(target, 'probe');
    wroteWorkspace = existsSync(target);
    unlinkSync(target);
  } catch {
    wroteWorkspace = false;
  }
  let homeEntries: string[] = [];
  try {
    homeEntries = readdirSync(homedir());
  } catch {
    homeEntries = [];
  }
  return JSON.stringify({ cwd: process.cwd(), wroteWorkspace, home: homedir(), homeEntries, secretEnv: process.env.PE_SECRET_CANARY ?? null });
}

/** A Server with the test tools; `onCall` hears every call before it is answered. */
export function createTestServer(onCall: (call: RecordedCall) => void, opts: { writeRaw?: (line: string) => void; exit?: () => void } = {}): Server {
  const server = new Server({ name: 'pe-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  let n = 0;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    n += 1;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    onCall({ tool: request.params.name, arguments: args, n });
    switch (request.params.name) {
      case 'echo':
        return { content: [{ type: 'text', text: `echo: ${String(args.text)} (call #${n})` }] };
      case 'add_note':
        return { content: [{ type: 'text', text: `noted: ${String(args.text)} (call #${n})` }] };
      case 'probe':
        return { content: [{ type: 'text', text: probe() }] };
      case 'slow':
        await new Promise((r) => setTimeout(r, Number(args.ms ?? 5_000)));
        return { content: [{ type: 'text', text: `slept (call #${n})` }] };
      case 'crash':
        if (!opts.exit) return { isError: true, content: [{ type: 'text', text: 'this server cannot exit' }] };
        setTimeout(opts.exit, 10);
        return new Promise(() => undefined);
      case 'garbage':
        opts.writeRaw?.('this is not json-rpc');
        return new Promise(() => undefined);
      case 'bad_result':
        return { content: 'not an array of blocks' } as unknown as { content: [] };
      default:
        return { isError: true, content: [{ type: 'text', text: `no tool ${request.params.name}` }] };
    }
  });
  return server;
}
