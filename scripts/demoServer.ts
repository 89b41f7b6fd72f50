/**
 * `npm run demo-server`: the demo's scripted model on its own, for the CLI (docs/cli.md) or any client of
 * the Messages API — the guided tour's scenario on a loopback port, with a fresh copy of demo/ to run it on
 * (the sample MCP server inside), printed with the command line that runs the tour. Like the demo in VS
 * Code it plans only its one task, refuses any other in words, and puts the copy's files back when the
 * task is planned again. Stays in the foreground until Ctrl-C.
 *
 *   npm run demo-server                      a fresh copy of demo/ in a temporary folder (removed at exit)
 *   npm run demo-server -- --port 4100       on a fixed port
 *   npm run demo-server -- --workspace DIR   reset and replay on DIR (a copy of demo/ you made) instead
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEMO_MODEL, startDemoModel } from '../test/support/host/demoHost';
import { copyDemoWorkspace, SAMPLE_MCP_BUNDLE } from '../test/support/host/demoWorkspace';
import { repoRoot } from '../test/support/host/hostPaths';
import { DEMO_TASK } from '../test/support/messages-server/scenarios/demoTour';

const say = (line: string): void => void process.stdout.write(`${line}\n`);

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<number> {
  const port = flag('--port');
  if (port !== undefined && !/^\d+$/.test(port)) {
    process.stderr.write(`--port must be a number (got "${port}")\n`);
    return 2;
  }
  // The CLI and the sample MCP server come from the build.
  const cli = join(repoRoot, 'dist', 'cli.js');
  if (!existsSync(cli) || !existsSync(SAMPLE_MCP_BUNDLE)) {
    const build = spawnSync(process.execPath, [join(repoRoot, 'esbuild.mjs')], { cwd: repoRoot, stdio: 'inherit' });
    if (build.status !== 0) return build.status ?? 1;
  }
  const given = flag('--workspace');
  const workspace = given ? resolve(given) : copyDemoWorkspace().path;
  const model = await startDemoModel({ workspace, ...(port ? { port: Number(port) } : {}) });
  say(`The demo's scripted model answers at ${model.url} (no API key; nothing leaves this machine).`);
  say(`Workspace: ${workspace}${given ? '' : ' (a temporary copy of demo/, removed when this stops)'}`);
  say(`It plans one task only: "${DEMO_TASK}".`);
  say('');
  say('Run the tour with the CLI (in another terminal, from the repository):');
  say('');
  say(`  node dist/cli.js run --workspace ${workspace} --base-url ${model.url} --model ${DEMO_MODEL.id} \\`);
  say(`    --task "${DEMO_TASK}"`);
  say('');
  say('Press Ctrl-C to stop.');
  let seen = 0;
  setInterval(() => {
    for (; seen < model.requests.length; seen++) {
      const r = model.requests[seen]!;
      process.stderr.write(`#${r.index} ${r.path} role=${r.role ?? '-'} turn=${r.turn} rule=${r.rule ?? 'none'}\n`);
    }
  }, 200);
  // processGroups' exit handler removes the temporary copy on Ctrl-C.
  await new Promise<never>(() => undefined);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`demo-server failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
