/**
 * Test MCP servers for unit, CLI, integration and E2E tests: the stdio server bundled into the repository's
 * test-results folder (a sandboxed server cannot see /tmp: the sandbox gives it a private one), and an
 * HTTP server in the test's own process whose `calls` are what reached it.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const REPO = resolve(__dirname, '../../..');
let bundled: Promise<string> | undefined;

/** The stdio server as one .cjs file (built once per process), run as `node <path>`. */
export function bundleStdioServer(): Promise<string> {
  bundled ??= (async () => {
    const dir = join(REPO, 'test-results', 'mcp-server');
    mkdirSync(dir, { recursive: true });
    const out = join(dir, `server-${process.pid}.cjs`);
    await build({
      entryPoints: [join(REPO, 'test/support/mcp/stdioServer.ts')],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      outfile: out,
      logLevel: 'silent',
    });
    return out;
  })();
  return bundled;
}

export { startHttpMcpServer, type HttpMcpServer } from './httpServer';
