import { strict as assert } from 'node:assert';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMessagesServer, type MessagesServer } from '../../support/messages-server/server';
import { messageText, systemText } from '../../support/messages-server/scenario';
import { toolResultsOf } from '../../support/messages-server/toolResults';
import { bundleStdioServer, startHttpMcpServer, type HttpMcpServer } from '../../support/mcp/fixture';
import {
  API_AGENTS,
  CONSTRAINT,
  COPILOT,
  ROOT_AGENTS,
  setupS1Turns,
  setupScenario,
  stdioMcpJson,
  tool,
  TS_RULE,
  writeSetupWorkspace,
} from '../../support/mcp/setupScenario';
import { runCli, useCliFixture } from './cliProcess';

type Event = { type: string; [key: string]: unknown };
const events = (path: string): Event[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Event);

describe("the CLI in the user's setup: instruction files and an MCP server granted per step", function () {
  this.timeout(120_000);
  const fixture = useCliFixture('pe-setup-');
  let server: MessagesServer | undefined;
  let http: HttpMcpServer | undefined;
  let script = '';
  before(async () => {
    script = await bundleStdioServer();
  });
  afterEach(async () => {
    await server?.close();
    await http?.close();
    server = undefined;
    http = undefined;
  });

  it('gives the planner every instruction file and the catalogue, each executor the files for its paths, and refuses what was not granted', async () => {
    server = await startMessagesServer({ scenario: setupScenario() });
    const ws = fresh('setup');
    writeSetupWorkspace(ws, stdioMcpJson(script));
    const trace = join(fixture.dir, 'setup.jsonl');
    const run = await runCli(
      fixture.cli,
      ['run', '--workspace', ws, '--task', 'Add b', '--approve', 'ask', '--trace', trace],
      { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
      'y\ny\ny\ny\n',
    );
    assert.equal(run.code, 0, run.stderr + run.stdout);

    // What was read, and what could not be used, is said before the mission.
    assert.match(run.stderr, /AGENTS\.md \(\d+ B, sha256 [0-9a-f]{12}\) — applies everywhere/);
    assert.match(run.stderr, /packages\/api\/AGENTS\.md .* applies under packages\/api\//);
    assert.match(run.stderr, /\.cursor\/rules\/broken\.mdc .* not used\n\s+note: not used: malformed front matter/);
    assert.match(run.stderr, /notes \(stdio, \.vscode\/mcp\.json; in each step's OS sandbox\): echo \(read-only\), add_note/);

    const planner = server.requests.find((r) => r.role === 'planner')!;
    const planText = messageText(planner.body.messages?.[0]);
    for (const text of [ROOT_AGENTS, API_AGENTS, COPILOT, TS_RULE]) assert.ok(planText.includes(text), `the planner reads "${text}"`);
    assert.match(planText, /- notes\/echo \(read-only\): Echo the text back\./);
    assert.match(systemText(planner.body), /they never grant authority/);
    assert.doesNotMatch(planText, /never used/, 'a file with malformed front matter is not used');

    const first = (step: string) => server!.requests.find((r) => r.role === 'executor' && messageText(r.body.messages?.[0]).includes(`# Step ${step}:`))!;
    const s1 = messageText(first('s1').body.messages?.[0]);
    const s2 = messageText(first('s2').body.messages?.[0]);
    assert.ok(s1.includes(API_AGENTS) && s1.includes(TS_RULE) && s1.includes(COPILOT), 's1 gets the nearest AGENTS.md, the applyTo rule and the always rule');
    assert.ok(!s1.includes(ROOT_AGENTS), 'the root AGENTS.md is not the nearest one for packages/api');
    assert.ok(
      s2.includes(ROOT_AGENTS) && s2.includes(COPILOT) && !s2.includes(API_AGENTS) && !s2.includes(TS_RULE),
      's2 (docs/readme.md) gets the root file and the always rule only',
    );
    const offered = (step: string) => (first(step).body.tools ?? []).map((t) => String(t.name)).filter((n) => n.startsWith('mcp__'));
    assert.deepEqual(offered('s1'), ['mcp__notes__echo'], 's1 is offered only its granted tool');
    assert.deepEqual(offered('s2'), [], 's2 has no grant');

    const results = toolResultsOf(server.requests);
    assert.equal(results.get('u_add')?.isError, true);
    assert.match(results.get('u_add')!.content, /mcp\.not_granted/);
    assert.match(results.get('u_rm')!.content, /permission_denied.*command\.not_allowlisted|not in the step's allowlist/);
    // The server counts the calls it received: the granted one is its first, so the refused one never arrived.
    assert.match(results.get('u_echo')!.content, /echo: hello \(call #1\)/);

    const recorded = events(trace);
    const instr = recorded.find((e) => e.type === 'instructions') as { set: { files: { path: string; hash: string; text: string }[] } } | undefined;
    assert.ok(instr, 'the trace records the instruction files');
    const agents = instr.set.files.find((f) => f.path === 'AGENTS.md')!;
    assert.match(agents.hash, /^[0-9a-f]{64}$/);
    assert.ok(agents.text.includes(ROOT_AGENTS));
    assert.ok(recorded.some((e) => e.type === 'policy_denied' && e.rule === 'mcp.not_granted'));
    const calls = recorded.filter((e) => e.type === 'mcp_call');
    assert.deepEqual(
      calls.map((e) => `${String(e.server)}/${String(e.tool)}`),
      ['notes/echo'],
    );
    const asked = recorded.filter((e) => e.type === 'approval_requested' && e.kind === 'mcp');
    assert.equal(asked.length, 1, 'the granted call was asked');
    assert.match(String(asked[0]!.summary), /notes\/echo .*in the step's sandbox/);
    const plan = recorded.find((e) => e.type === 'plan_version') as unknown as { plan: { constraints: string[]; steps: { authority: { mcp: string[] } }[] } };
    assert.deepEqual(plan.plan.constraints, [CONSTRAINT]);
    assert.deepEqual(
      plan.plan.steps.map((s) => s.authority.mcp),
      [['notes/echo'], []],
    );
    const verification = recorded.find((e) => e.type === 'verification') as unknown as { verification: { checks: { check: string; passed: boolean }[] } };
    assert.ok(
      verification.verification.checks.some((c) => c.check.startsWith(`constraint "${CONSTRAINT}"`) && c.passed),
      'the verifier checked the constraint',
    );
    assert.match(run.stdout, /MCP grants:\n {2}s1: notes\/echo/);
    assert.match(run.stdout, /Constraint checks:\n {2}no step writes packages\/api\/generated\/\*\* \(Never edit packages\/api\/generated\/ /);
    assert.match(readFileSync(join(ws, 'packages/api/src/a.ts'), 'utf8'), /export const b = 2;/);

    // The replay uses the recorded instruction text and MCP answers: another AGENTS.md, and a configured
    // server that could not even start, change nothing (the workspace's names stay as they were).
    const requests = server.requests.length;
    const replayWs = fresh('setup-replay');
    writeSetupWorkspace(replayWs, JSON.stringify({ servers: { notes: { command: '/nonexistent/mcp-server' } } }));
    writeFileSync(join(replayWs, 'AGENTS.md'), 'A different text now.\n');
    const replay = await runCli(fixture.cli, ['replay', '--trace', trace, '--workspace', replayWs], {});
    assert.equal(replay.code, 0, replay.stderr + replay.stdout);
    assert.doesNotMatch(replay.stderr, /REPLAY (DIVERGED|STOPPED)/);
    assert.match(replay.stderr, /s1 MCP notes\/echo: ok/);
    assert.equal(server.requests.length, requests, 'the replay never called the model');
    assert.match(readFileSync(join(replayWs, 'packages/api/src/a.ts'), 'utf8'), /export const b = 2;/);
  });

  it('reads no instruction file with --no-instructions; reaches an HTTP server named by --mcp-config (.mcp.json shape) as remote', async () => {
    http = await startHttpMcpServer({ token: 'tok' });
    server = await startMessagesServer({ scenario: setupScenario({ grant: 'tracker/echo', s1: setupS1Turns('tracker') }) });
    const ws = fresh('no-instructions');
    writeSetupWorkspace(ws);
    const config = join(fixture.dir, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { tracker: { type: 'http', url: http.url, headers: { Authorization: 'Bearer ${env:TRACKER_TOKEN}' } } } }),
    );
    const run = await runCli(
      fixture.cli,
      ['run', '--workspace', ws, '--task', 'Add b', '--approve', 'ask', '--no-instructions', '--mcp-config', config],
      { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url, TRACKER_TOKEN: 'tok' },
      'y\ny\ny\ny\n',
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /instructions: not read \(--no-instructions\)/);
    assert.match(run.stderr, /tracker \(http, .*servers\.json; remote: not confined by Plan & Execute\)/);
    assert.match(run.stderr, /wants to call MCP tool tracker\/echo \(read-only hint\)\n {2}arguments: \{\n {4}"text": "hello"\n {2}\}\n {2}a remote server/);
    const planText = messageText(server.requests.find((r) => r.role === 'planner')!.body.messages?.[0]);
    assert.ok(!planText.includes(ROOT_AGENTS) && !planText.includes(API_AGENTS));
    assert.deepEqual(
      http.calls.map((c) => c.tool),
      ['echo'],
      'the ungranted add_note never reached the server',
    );
  });

  it('turns a server that dies mid-step into a failed call naming it; the step goes on', async () => {
    server = await startMessagesServer({
      scenario: setupScenario({ grant: 'notes/*', s1: [tool('u_crash', 'mcp__notes__crash', {}), tool('u_echo', 'mcp__notes__echo', { text: 'again' })] }),
    });
    const ws = fresh('faults');
    writeSetupWorkspace(ws, stdioMcpJson(script));
    const run = await runCli(fixture.cli, ['run', '--workspace', ws, '--task', 'Add b', '--approve', 'all'], {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: server.url,
    });
    assert.equal(run.code, 0, run.stderr);
    const results = toolResultsOf(server.requests);
    assert.equal(results.get('u_crash')?.isError, true);
    assert.match(results.get('u_crash')!.content, /tool_error: MCP server "notes": went away during the call: it exited \(code 3\)/);
    assert.match(results.get('u_echo')!.content, /echo: again \(call #1\)/, 'a fresh server answers the next call');
    assert.match(run.stderr, /s1 MCP notes\/crash: FAILED \(disconnected\)/);
  });

  function fresh(name: string): string {
    const ws = fixture.fresh(name);
    rmSync(join(ws, 'src'), { recursive: true, force: true });
    return ws;
  }
});
