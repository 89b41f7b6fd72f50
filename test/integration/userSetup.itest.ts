/**
 * The user's setup inside a real VS Code: the project's instruction files listed before the mission (one
 * left out with its switch), the mission reading the rest (nested AGENTS.md, applyTo) and turning the rule
 * into a visible constraint, and the workspace's .vscode/mcp.json server started by Plan & Execute inside
 * the step's sandbox — an ungranted call refused, the granted one asked on an MCP card (server, tool,
 * arguments, confinement), approved with "always allow this tool", traced.
 *
 * VS Code's own MCP servers are not reachable here: in code-server 1.100.3 `vscode.lm.tools` lists no MCP
 * tool (checked with a server started through `workbench.mcp.startServer`), so the extension reads the same
 * mcp.json and runs the servers itself (src/vscode/setup/mcpSettings.ts).
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { startMessagesServer, type MessagesServer } from '../support/messages-server/server';
import { messageText } from '../support/messages-server/scenario';
import { toolResultsOf } from '../support/messages-server/toolResults';
import { API_AGENTS, CONSTRAINT, COPILOT, setupScenario, stdioMcpJson, TS_RULE, writeSetupWorkspace } from '../support/mcp/setupScenario';
import { api, workspaceRoot } from './missionDriver';

const SERVER_SCRIPT = resolve(__dirname, '../mcp/stdioServer.js');
const WRITTEN = ['AGENTS.md', 'packages', '.github', '.cursor', 'docs', '.vscode/mcp.json'];

describe("the user's setup in VS Code: instruction files and an MCP server granted per step", () => {
  let server: MessagesServer | undefined;
  after(async () => {
    await server?.close();
    for (const rel of WRITTEN) rmSync(join(workspaceRoot(), rel), { recursive: true, force: true });
  });

  it('lists the instruction files (one left out), plans with the rest as constraints, and asks for the granted MCP call on its own card', async function () {
    this.timeout(180_000);
    assert.ok(existsSync(SERVER_SCRIPT), `the test MCP server is built (${SERVER_SCRIPT})`);
    const pe = await api();
    server = await startMessagesServer({ scenario: setupScenario() });
    process.env.ANTHROPIC_BASE_URL = server.url;
    await pe.test.setApiKey('sk-ant-setup-test');
    await vscode.workspace.getConfiguration('planExecute').update('approvalMode', 'ask', vscode.ConfigurationTarget.Global);
    const root = workspaceRoot();
    writeSetupWorkspace(root, stdioMcpJson(SERVER_SCRIPT));

    // Before the mission: the files the next one will read, found in the workspace (the watcher saw them).
    const listed = await pe.test.waitForState((s) => (s.instructions?.files.length ?? 0) >= 5, 30_000);
    const files = new Map(listed.instructions!.files.map((f) => [f.path, f]));
    assert.equal(listed.instructions!.source, 'workspace');
    assert.equal(files.get('packages/api/AGENTS.md')?.state, 'used');
    assert.match(files.get('packages/api/AGENTS.md')!.scope, /under packages\/api\//);
    assert.equal(files.get('.cursor/rules/broken.mdc')?.state, 'unusable');
    assert.match(files.get('.cursor/rules/broken.mdc')!.notes.join(), /malformed front matter/);
    assert.ok((files.get('AGENTS.md')?.size ?? 0) > 0);
    pe.test.postFromWebview({ type: 'setInstructionIncluded', path: '.github/copilot-instructions.md', included: false });
    await pe.test.waitForState((s) => s.instructions?.files.find((f) => f.path === '.github/copilot-instructions.md')?.state === 'excluded', 10_000);

    assert.equal(pe.test.postFromWebview({ type: 'runTask', task: 'Add b to the api' }), true);
    const planned = await pe.test.waitForState((s) => s.mission?.phase === 'awaiting_approval' && s.planAwaitingApproval !== null, 60_000);
    const mission = planned.mission!;
    assert.equal(mission.instructions?.source, 'mission');
    assert.equal(
      mission.instructions?.files.find((f) => f.path === '.github/copilot-instructions.md')?.state,
      'excluded',
      'the mission records what was left out',
    );
    assert.match(mission.instructions?.files.find((f) => f.path === 'AGENTS.md')?.hash ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual(mission.constraints, [CONSTRAINT], 'the rule is a visible constraint');
    assert.deepEqual(mission.steps.find((s) => s.id === 's1')?.authority.mcp, ['notes/echo']);
    const notes = mission.mcpServers?.find((s) => s.name === 'notes');
    assert.equal(notes?.status, 'ok', notes?.reason);
    assert.equal(notes?.confinement, 'sandboxed');
    const plannerText = messageText(server.requests.find((r) => r.role === 'planner')!.body.messages?.[0]);
    assert.ok(plannerText.includes(API_AGENTS) && plannerText.includes(TS_RULE), 'the planner read the files');
    assert.ok(!plannerText.includes(COPILOT), 'the file left out is not read');

    pe.test.postFromWebview({ type: 'approvePlan', version: planned.planAwaitingApproval! });
    const asked = await pe.test.waitForState((s) => s.approvals.some((a) => a.kind === 'mcp'), 60_000);
    const card = asked.approvals.find((a) => a.kind === 'mcp');
    assert.ok(card?.kind === 'mcp');
    assert.deepEqual(
      { server: card.server, tool: card.tool, confinement: card.confinement, readOnly: card.readOnly, network: card.network },
      { server: 'notes', tool: 'echo', confinement: 'sandboxed', readOnly: true, network: false },
    );
    assert.equal(card.arguments, '{\n  "text": "hello"\n}');
    assert.equal(card.stepId, 's1');
    const refused = toolResultsOf(server.requests).get('u_add');
    assert.ok(refused?.isError && /mcp\.not_granted/.test(refused.content), 'the ungranted call was refused before any card');
    pe.test.postFromWebview({ type: 'approveAction', requestId: card.requestId, remember: true });
    const ruled = await pe.test.waitForState((s) => s.rules.some((r) => r.kind === 'mcp'), 10_000);
    assert.deepEqual(
      ruled.rules.filter((r) => r.kind === 'mcp').map((r) => r.pattern),
      ['notes/echo'],
    );

    // The edits of both steps, then the end.
    for (;;) {
      const state = await pe.test.waitForState(
        (s) => s.approvals.some((a) => a.kind === 'write') || (s.mission?.phase === 'succeeded' && !s.mission.live) || s.mission?.phase === 'failed',
        60_000,
      );
      if (state.mission?.phase === 'succeeded' || state.mission?.phase === 'failed') break;
      for (const a of state.approvals.filter((x) => x.kind === 'write')) pe.test.postFromWebview({ type: 'approveAction', requestId: a.requestId });
      await new Promise((r) => setTimeout(r, 200));
    }
    const done = pe.test.sidebarState().mission!;
    assert.equal(done.phase, 'succeeded', done.summary ?? '');
    assert.match(readFileSync(join(root, 'packages/api/src/a.ts'), 'utf8'), /export const b = 2;/);
    assert.match(toolResultsOf(server.requests).get('u_echo')!.content, /echo: hello \(call #1\)/, 'the server ran the granted call, its first');
    const trace = await (await pe.test.missionStore())!.readEvents(done.missionId);
    assert.ok(
      trace.some((e) => (e as { type?: string }).type === 'mcp_call'),
      'the call is in the trace',
    );
  });
});
