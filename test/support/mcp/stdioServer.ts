/**
 * The test MCP server over stdio (bundled by bundleStdioServer in ./fixture.ts and run with node, so it
 * runs inside the OS sandbox like any stdio server a user configures). Each call is written to stderr
 * and, when PE_MCP_LOG names a file the process may write, appended to it.
 *   --fail-start   exit 2 before answering anything
 */
import { appendFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createTestServer } from './testTools';

if (process.argv.includes('--fail-start')) {
  process.stderr.write('test server: failing on purpose at start\n');
  process.exit(2);
}

const server = createTestServer(
  (call) => {
    const line = `${JSON.stringify(call)}\n`;
    process.stderr.write(`[pe-test-mcp] ${line}`);
    if (process.env.PE_MCP_LOG) {
      try {
        appendFileSync(process.env.PE_MCP_LOG, line);
      } catch {
        // a confined server cannot write there: stderr has it
      }
    }
  },
  { writeRaw: (line) => process.stdout.write(`${line}\n`), exit: () => process.exit(3) },
);
void server.connect(new StdioServerTransport());
