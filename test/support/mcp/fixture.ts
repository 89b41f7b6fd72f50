/**
 * Test MCP servers for unit, CLI, integration and E2E tests: the stdio server bundled into the repository's
 * test-results folder (a sandboxed server cannot see /tmp: the sandbox gives it a private one), and an
 * HTTP server in the test's own process whose `calls` are what reached it.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const REPO = resolve(__dirname, '../../..');
const bundled = new Map<string, Promise<string>>();

/** The stdio server as one .cjs file (built once per process), run as `node <path>`. */
export function bundleStdioServer(): Promise<string> {
  return bundle('test/support/mcp/stdioServer.ts', 'server');
}

/** The sample server users are pointed at (examples/mcp-server), bundled the way the build bundles it. */
export function bundleSampleServer(): Promise<string> {
  return bundle('examples/mcp-server/server.ts', 'sample');
}

function bundle(entry: string, name: string): Promise<string> {
  const made =
    bundled.get(entry) ??
    (async () => {
      const dir = join(REPO, 'test-results', 'mcp-server');
      mkdirSync(dir, { recursive: true });
      const out = join(dir, `${name}-${process.pid}.cjs`);
      await build({
        entryPoints: [join(REPO, entry)],
        bundle: true,
        platform: 'node',
        target: 'node20',
        format: 'cjs',
        outfile: out,
        logLevel: 'silent',
      });
      return out;
    })();
  bundled.set(entry, made);
  return made;
}

export { startHttpMcpServer, type HttpMcpServer } from './httpServer';
