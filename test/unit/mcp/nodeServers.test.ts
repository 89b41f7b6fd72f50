import { hostFacts } from '../../../src/node/sandbox/hostFacts';
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeMcpServers } from '../../../src/node/mcp/servers';
import type { ServerConfig } from '../../../src/node/mcp/config';
import { detectSandbox } from '../../../src/node/sandbox/detect';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { serverSandboxSpec } from '../../../src/core/mcp/serverSandbox';
import { bundleSampleServer, bundleStdioServer, startHttpMcpServer, type HttpMcpServer } from '../../support/mcp/fixture';

const never = new AbortController().signal;
const call = (
  servers: NodeMcpServers,
  server: string,
  tool: string,
  args: Record<string, unknown>,
  extra: { sandbox?: unknown; timeoutMs?: number; stepId?: string } = {},
) =>
  servers.call(
    {
      missionId: 'm',
      stepId: extra.stepId ?? 's1',
      server,
      tool,
      arguments: args,
      sandbox: (extra.sandbox ?? null) as never,
      timeoutMs: extra.timeoutMs ?? 10_000,
      maxResultChars: 2_000,
    },
    never,
  );

describe('MCP servers through the official SDK (stdio in the OS sandbox, streamable HTTP)', function () {
  this.timeout(60_000);
  let ws = '';
  let script = '';
  let http: HttpMcpServer | undefined;
  const support = detectSandbox();
  before(async () => {
    script = await bundleStdioServer();
  });
  beforeEach(() => {
    ws = mkdtempSync(join(tmpdir(), 'pe-mcp-ws-'));
    writeFileSync(join(ws, 'package.json'), '{}\n');
  });
  afterEach(async () => {
    await http?.close();
    http = undefined;
    rmSync(ws, { recursive: true, force: true });
  });
  const stdio = (name: string, args: string[] = []): ServerConfig => ({
    name,
    source: 'test',
    transport: 'stdio',
    command: process.execPath,
    args: [script, ...args],
    env: {},
  });
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

  it("lists a stdio server's tools inside the sandbox, with read-only hints, and calls one", async function () {
    if (!support.available) this.skip();
    const servers = new NodeMcpServers([stdio('notes')], { root: ws, env, sandbox: 'required', support });
    const workspace = await NodeWorkspace.open(ws);
    const spec = await serverSandboxSpec(workspace, env, false, hostFacts(env));
    assert.ok(spec.ok);
    const catalogue = await servers.catalogue(spec.value, [], never);
    const info = catalogue.servers[0]!;
    assert.equal(info.status, 'ok', info.reason);
    assert.equal(info.confinement, 'sandboxed');
    assert.deepEqual(
      info.tools
        .filter((t) => t.readOnly)
        .map((t) => t.name)
        .sort(),
      ['echo', 'probe', 'slow'],
    );
    const out = await call(servers, 'notes', 'echo', { text: 'hi' }, { sandbox: spec.value });
    assert.deepEqual(out, { ok: true, text: 'echo: hi (call #1)', isError: false, truncated: false });
    // The sandboxed server cannot write the workspace, and sees a private home.
    const probe = await call(servers, 'notes', 'probe', {}, { sandbox: spec.value });
    assert.ok(probe.ok);
    const facts = JSON.parse(probe.text) as { wroteWorkspace: boolean; homeEntries: string[] };
    assert.equal(facts.wroteWorkspace, false, 'a sandboxed server cannot write the workspace');
    await servers.close();
  });

  it('turns every fault into an outcome naming what happened, never a hang', async function () {
    if (!support.available) this.skip();
    const workspace = await NodeWorkspace.open(ws);
    const spec = await serverSandboxSpec(workspace, env, false, hostFacts(env));
    assert.ok(spec.ok);
    const failing = new NodeMcpServers(
      [stdio('broken', ['--fail-start']), { name: 'nowhere', source: 'test', transport: 'stdio', command: '/nonexistent/mcp', args: [], env: {} }],
      { root: ws, env, sandbox: 'required', support },
    );
    const listed = await failing.catalogue(spec.value, [], never);
    assert.deepEqual(
      listed.servers.map((s) => s.status),
      ['failed', 'failed'],
    );
    assert.match(listed.servers[0]!.reason!, /start failed/);
    assert.match(listed.servers[0]!.reason!, /failing on purpose/, "the server's stderr is said");

    const servers = new NodeMcpServers([stdio('t')], { root: ws, env, sandbox: 'required', support });
    const timeout = await call(servers, 't', 'slow', { ms: 5_000 }, { sandbox: spec.value, timeoutMs: 500 });
    assert.equal(!timeout.ok && timeout.fault, 'timeout');
    const crash = await call(servers, 't', 'crash', {}, { sandbox: spec.value });
    assert.equal(!crash.ok && crash.fault, 'disconnected', JSON.stringify(crash));
    const garbage = await call(servers, 't', 'garbage', {}, { sandbox: spec.value });
    assert.equal(!garbage.ok && garbage.fault, 'malformed', JSON.stringify(garbage));
    const bad = await call(servers, 't', 'bad_result', {}, { sandbox: spec.value });
    assert.equal(!bad.ok && bad.fault, 'malformed', JSON.stringify(bad));
    // After each fault the next call starts a fresh server.
    const again = await call(servers, 't', 'echo', { text: 'back' }, { sandbox: spec.value });
    assert.ok(again.ok && /echo: back/.test(again.text), JSON.stringify(again));
    await servers.close();
  });

  it('runs the sample server (one bundled file inside the workspace) confined: it reads the workspace, writes nothing, sees none of your home', async function () {
    if (!support.available) this.skip();
    // As docs/user-setup.md says to: the bundle copied into the workspace, started with plain node.
    mkdirSync(join(ws, '.vscode'));
    copyFileSync(await bundleSampleServer(), join(ws, '.vscode', 'sample-mcp-server.cjs'));
    writeFileSync(join(ws, 'app.js'), '// TODO: say hello\n');
    const config: ServerConfig = {
      name: 'sample',
      source: 'test',
      transport: 'stdio',
      command: 'node',
      args: [join(ws, '.vscode', 'sample-mcp-server.cjs')],
      env: {},
    };
    const servers = new NodeMcpServers([config], { root: ws, env, sandbox: 'required', support });
    const workspace = await NodeWorkspace.open(ws);
    const spec = await serverSandboxSpec(workspace, env, false, hostFacts(env));
    assert.ok(spec.ok);
    const listed = await servers.catalogue(spec.value, [], never);
    assert.equal(listed.servers[0]!.status, 'ok', listed.servers[0]!.reason);
    const todos = await call(servers, 'sample', 'find_todos', {}, { sandbox: spec.value });
    assert.deepEqual(todos, { ok: true, text: 'app.js:1: TODO say hello', isError: false, truncated: false });
    const report = await call(servers, 'sample', 'sandbox_report', {}, { sandbox: spec.value });
    assert.ok(report.ok, JSON.stringify(report));
    assert.match(report.text, /workspace: \d+ entries readable, read-only/);
    // A home of its own: none of the user's files or credentials (toolchains may be shown read-only).
    const home = /home folder .*/.exec(report.text)?.[0] ?? '';
    assert.doesNotMatch(home, /\.ssh|\.npmrc|\.config|\.bashrc|\.claude/, home);
    assert.doesNotMatch(report.text, /ANTHROPIC_API_KEY/);
    await servers.close();
  });

  it("says why a server did not start in its own first words: its stderr whole from the beginning, not a stack's last lines", async function () {
    if (!support.available) this.skip();
    // A server that imports the SDK it cannot see (no node_modules where it runs): Node's own error, then a long stack.
    writeFileSync(join(ws, 'server.mjs'), "import '@modelcontextprotocol/sdk/server/stdio.js';\n");
    const workspace = await NodeWorkspace.open(ws);
    const spec = await serverSandboxSpec(workspace, env, false, hostFacts(env));
    assert.ok(spec.ok);
    const config: ServerConfig = { name: 'own', source: 'test', transport: 'stdio', command: process.execPath, args: [join(ws, 'server.mjs')], env: {} };
    const servers = new NodeMcpServers([config], { root: ws, env, sandbox: 'required', support });
    const listed = await servers.catalogue(spec.value, [], never);
    const reason = listed.servers[0]!.reason ?? '';
    assert.equal(listed.servers[0]!.status, 'failed');
    const stderr = reason.slice(reason.indexOf('its stderr: ') + 'its stderr: '.length);
    assert.match(stderr, /^node:internal\//, `the stderr is kept from its first line: ${reason}`);
    assert.match(stderr, /Error \[ERR_MODULE_NOT_FOUND\]: Cannot find package '@modelcontextprotocol\/sdk'/);
  });

  it('reaches a streamable-HTTP server, says it needs authentication, and reports it gone', async () => {
    http = await startHttpMcpServer({ token: 'sekrit' });
    const config = (headers: Record<string, string>): ServerConfig => ({ name: 'remote', source: 'test', transport: 'http', url: http!.url, headers });
    const withToken = new NodeMcpServers([config({ authorization: 'Bearer sekrit' })], { root: ws, env, sandbox: 'required', support });
    const listed = await withToken.catalogue(null, [], never);
    assert.equal(listed.servers[0]!.status, 'ok', listed.servers[0]!.reason);
    assert.equal(listed.servers[0]!.confinement, 'remote');
    const out = await call(withToken, 'remote', 'add_note', { text: 'x' });
    assert.ok(out.ok && /noted: x/.test(out.text));
    assert.deepEqual(
      http.calls.map((c) => c.tool),
      ['add_note'],
    );

    const noToken = new NodeMcpServers([config({})], { root: ws, env, sandbox: 'required', support });
    const refused = await noToken.catalogue(null, [], never);
    assert.match(refused.servers[0]!.reason!, /^auth: needs authentication/);
    const denied = await call(noToken, 'remote', 'echo', { text: 'y' });
    assert.equal(!denied.ok && denied.fault, 'auth');

    await http.close();
    const gone = await call(withToken, 'remote', 'echo', { text: 'z' }, { stepId: 's2' });
    assert.equal(gone.ok, false);
    assert.ok(!gone.ok && ['start_failed', 'disconnected'].includes(gone.fault), JSON.stringify(gone));
    http = undefined;
  });
});
