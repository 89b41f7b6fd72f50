/**
 * Runs the messages server on its own, for demos and manual runs of the CLI or the extension:
 *
 *   npx tsx test/support/messages-server/serve.ts test/support/messages-server/scenarios/demo-remove-task.json [--port 4100]
 *   ANTHROPIC_API_KEY=test ANTHROPIC_BASE_URL=<printed url> node dist/cli.js run --workspace /tmp/demo-copy --task "…"
 *
 * Prints the URL, logs one line per request, stops on Ctrl-C.
 */
import { startMessagesServer } from './server';

async function serve(): Promise<void> {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: serve.ts SCENARIO.json [--port N]\n');
    process.exitCode = 2;
    return;
  }
  const portIndex = rest.indexOf('--port');
  const port = portIndex >= 0 ? Number(rest[portIndex + 1]) : undefined;
  const server = await startMessagesServer({ scenario: file, ...(port ? { port } : {}) });
  process.stdout.write(`${server.url}\n`);
  let seen = 0;
  const timer = setInterval(() => {
    for (; seen < server.requests.length; seen++) {
      const r = server.requests[seen]!;
      process.stderr.write(`#${r.index} ${r.path} role=${r.role ?? '-'} turn=${r.turn} rule=${r.rule ?? 'none'}${r.fault ? ` fault=${r.fault}` : ''}\n`);
    }
  }, 100);
  process.once('SIGINT', () => {
    clearInterval(timer);
    void server.close();
  });
}

void serve();
