/**
 * The HTTP plumbing the scriptable model servers share (messages-server, openai-server): a server on
 * 127.0.0.1 (a port the kernel picks unless one is given) that reads each request's body whole and hands it
 * to the server's routes with its secrets redacted from the recorded headers; a route that throws is
 * answered with the server's own error body (or its socket cut, once the reply started); and closing cuts
 * every open socket, a reply that hangs on purpose included.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

interface LoopbackRequest {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  /** The URL's path, without the query. */
  path: string;
  /** The body as text ('' when there is none). */
  text: string;
  /** The request's headers, with the ones named in `redact` replaced by "<redacted>". */
  headers: Record<string, string>;
}

export interface LoopbackServerOptions {
  port?: number;
  /** Header names (lower case) whose values never reach a recorded request. */
  redact: readonly string[];
  route(request: LoopbackRequest): Promise<void>;
  /** Answers a request whose route threw before it began its reply. */
  crashed(res: ServerResponse, error: unknown): void;
}

export interface LoopbackServer {
  port: number;
  close(): Promise<void>;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function startLoopbackServer(options: LoopbackServerOptions): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = options.redact.includes(k) ? '<redacted>' : String(v);
      const request = { req, res, method: req.method ?? '', path: (req.url ?? '').split('?')[0] ?? '', text: Buffer.concat(parts).toString('utf8'), headers };
      options.route(request).catch((error: unknown) => {
        if (!res.headersSent) options.crashed(res, error);
        else res.destroy();
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
