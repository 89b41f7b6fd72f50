/** The test MCP server over streamable HTTP, in the test's own process: `calls` is what reached it. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createTestServer, type RecordedCall } from './testTools';

export interface HttpMcpServer {
  url: string;
  /** Every tool call that reached the server, in order. */
  calls: RecordedCall[];
  close(): Promise<void>;
}

/** A streamable-HTTP MCP server on loopback (stateless); with `token`, a request without it gets 401. */
export async function startHttpMcpServer(options: { token?: string } = {}): Promise<HttpMcpServer> {
  const calls: RecordedCall[] = [];
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : undefined;
      const server = createTestServer((call) => calls.push(call));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      void server.connect(transport).then(() => transport.handleRequest(req, res, body));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () =>
      new Promise((r) => {
        http.close(() => r());
        http.closeAllConnections();
      }),
  };
}
