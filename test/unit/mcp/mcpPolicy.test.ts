import { strict as assert } from 'node:assert';
import type { McpCatalogue, McpCallOutcome } from '../../../src/core/contracts/mcp';
import type { McpCallRequest, McpServers } from '../../../src/core/ports';
import { grantCovered, grantFor, parseGrant } from '../../../src/core/mcp/grants';
import { offeredTools, serverStates } from '../../../src/core/mcp/names';
import { createStepTools } from '../../../src/core/tools/stepTools';
import { validatePlan } from '../../../src/core/plan/validate';
import { applyPlanEdit } from '../../../src/core/plan/edits';
import { diffPlans } from '../../../src/core/plan/diff';
import { checkAction, policyFor } from '../../../src/core/policy/policy';
import { authority, wirePlan, wireStep, type WirePlan } from '../../support/fixtures';
import { makeHarness, type Harness } from '../tools/harness';
import { nodePolicyFs } from '../../../src/node/nodePolicyFs';

const catalogue: McpCatalogue = {
  notes: [],
  servers: [
    {
      name: 'db',
      transport: 'http',
      source: '.mcp.json',
      confinement: 'remote',
      status: 'ok',
      tools: [
        { name: 'query', description: 'Run a read query.', readOnly: true, inputSchema: { type: 'object' } },
        { name: 'drop table', description: 'Drop a table.', readOnly: false, inputSchema: { type: 'object' } },
      ],
    },
    {
      name: 'docs',
      transport: 'stdio',
      source: '.vscode/mcp.json',
      confinement: 'sandboxed',
      status: 'ok',
      tools: [{ name: 'search', description: '', readOnly: true, inputSchema: { type: 'object' } }],
    },
    {
      name: 'down',
      transport: 'stdio',
      source: '.vscode/mcp.json',
      confinement: 'sandboxed',
      status: 'failed',
      reason: 'start failed: exited (code 1)',
      tools: [],
    },
  ],
};

class FakeServers implements McpServers {
  calls: McpCallRequest[] = [];
  ended: string[] = [];
  answer: McpCallOutcome = { ok: true, text: 'rows: 3', isError: false, truncated: false };
  async call(request: McpCallRequest): Promise<McpCallOutcome> {
    this.calls.push(request);
    return this.answer;
  }
  async endStep(stepId: string): Promise<void> {
    this.ended.push(stepId);
  }
}

describe('MCP grants: the authority field `mcp`', () => {
  it('parses server/tool and server/*, and matches exactly one server', () => {
    assert.deepEqual(parseGrant('db/query'), { server: 'db', tool: 'query' });
    assert.deepEqual(parseGrant('db/*'), { server: 'db', tool: '*' });
    for (const bad of ['*/query', 'db', 'db/q*', 'a/b/c', '/x', 'db/']) assert.equal(parseGrant(bad), null, bad);
    assert.equal(grantFor(['db/*'], { server: 'db', tool: 'anything' }), 'db/*');
    assert.equal(grantFor(['db/*'], { server: 'dbx', tool: 'query' }), undefined);
    assert.equal(grantCovered('db/query', ['db/*']), true);
    assert.equal(grantCovered('db/*', ['db/query']), false);
  });

  it('is validated against the catalogue, and a tightening can only drop grants', () => {
    const plan = (mcp: string[]): WirePlan =>
      wirePlan(
        [
          wireStep('s1', {
            kind: 'research',
            authority: { read: ['**'], edit: [], commands: [], network: false, mcp },
            evidence: { checks: [{ kind: 'review', criterion: 'c' }], description: '' },
          }),
        ],
        { goal: 'g' },
      );
    const tools = offeredTools(catalogue);
    const ok = validatePlan(plan(['db/query', 'docs/*']), { mcpTools: tools });
    assert.ok(ok.ok);
    assert.deepEqual(ok.plan.steps[0]!.authority.mcp, ['db/query', 'docs/*']);
    const absent = validatePlan(
      wirePlan(
        [
          wireStep('s1', {
            kind: 'research',
            authority: { read: ['**'], edit: [], commands: [] },
            evidence: { checks: [{ kind: 'review', criterion: 'c' }], description: '' },
          }),
        ],
        { goal: 'g' },
      ),
    );
    assert.ok(absent.ok);
    assert.deepEqual(absent.plan.steps[0]!.authority.mcp, [], 'absent means none');
    const unknown = validatePlan(plan(['db/qurey', 'mail/*']), { mcpTools: tools });
    assert.ok(!unknown.ok);
    assert.deepEqual(
      unknown.errors.map((e) => e.path),
      ['steps[0].authority.mcp[0]', 'steps[0].authority.mcp[1]'],
    );
    assert.match(unknown.errors[0]!.message, /offers no tool "qurey" \(it offers: query, drop table\)/);
    assert.match(validatePlan(plan(['db/q*']), { mcpTools: tools }).ok ? '' : 'shape', /shape/);

    const v1 = ok.plan;
    const narrowed = applyPlanEdit(v1, { kind: 'tighten_authority', stepId: 's1', authority: { mcp: ['db/query'] } }, 2);
    assert.ok(narrowed.ok);
    assert.deepEqual(diffPlans(v1, narrowed.value).changed, [{ stepId: 's1', fields: ['authority'] }]);
    const widened = applyPlanEdit(v1, { kind: 'tighten_authority', stepId: 's1', authority: { mcp: ['db/*'] } }, 2);
    assert.ok(!widened.ok && widened.error.reason === 'widening');
    assert.match(!widened.ok ? widened.error.message : '', /MCP tools "db\/\*" are not granted today/);
  });

  it('forbid_paths checks narrow every step: validation and the policy refuse writes there', () => {
    const plan = wirePlan(
      [
        wireStep('s1', {
          authority: { read: ['**'], edit: ['gen/api.ts'], commands: [], network: false, mcp: [] },
          evidence: { checks: [{ kind: 'files_exist', paths: ['gen/api.ts'] }], description: '' },
        }),
      ],
      {
        goal: 'g',
        constraints: ['Never edit gen/'],
        constraintChecks: [{ constraint: 'Never edit gen/', source: 'AGENTS.md', check: { kind: 'forbid_paths', globs: ['gen/**'] }, steps: [] }],
      },
    );
    const refused = validatePlan(plan);
    assert.ok(!refused.ok);
    assert.match(refused.errors.map((e) => e.message).join(), /may edit "gen\/api.ts", which the constraint "Never edit gen\/" forbids/);
    const unlisted = validatePlan({
      ...plan,
      constraints: [],
      steps: [
        wireStep('s1', {
          authority: { read: ['**'], edit: ['src/**'], commands: [] },
          evidence: { checks: [{ kind: 'files_exist', paths: ['x'] }], description: '' },
        }),
      ],
    });
    assert.ok(!unlisted.ok);
    assert.match(unlisted.errors[0]!.message, /not one of the plan's constraints/);
    const policy = policyFor(
      process.cwd(),
      { id: 's1', authority: authority({ edit: ['**'] }) },
      { fs: nodePolicyFs, forbidden: [{ constraint: 'Never edit gen/', globs: ['gen/**'] }] },
    );
    assert.deepEqual(checkAction(policy, { kind: 'write', path: 'gen/api.ts' }), {
      allowed: false,
      rule: 'constraint.forbid_paths',
      reason: 'gen/api.ts may not be written: the mission\'s constraint "Never edit gen/" forbids it',
    });
    assert.deepEqual(checkAction(policy, { kind: 'write', path: 'src/a.ts' }), { allowed: true });
  });
});

describe("MCP calls through a step's tools: policy, approval, trace", () => {
  let h: Harness;
  let servers: FakeServers;
  beforeEach(() => {
    h = makeHarness({ 'package.json': '{}' });
    servers = new FakeServers();
  });
  afterEach(() => h.cleanup());
  const tools = (mcp: string[], role: 'executor' | 'verifier' = 'executor') => {
    return createStepTools({
      ...h.ctx({ authority: authority({ mcp }) }, role),
      mcp: { servers, tools: offeredTools(catalogue), serverState: serverStates(catalogue) },
    }).mcp!;
  };

  it('offers only granted tools under names that cannot shadow ours; the verifier only read-only ones', () => {
    assert.deepEqual(
      tools(['db/*'])
        .offered()
        .map((t) => t.name),
      ['mcp__db__query', 'mcp__db__drop_table'],
    );
    assert.deepEqual(
      tools(['db/*'], 'verifier')
        .offered()
        .map((t) => t.name),
      ['mcp__db__query'],
    );
    assert.deepEqual(tools([]).offered(), []);
    assert.deepEqual(tools(['down/*']).offered(), [], 'a server whose listing failed offers nothing');
  });

  it('refuses what the step was not granted before anyone is asked, and the server never hears of it', async () => {
    const t = tools(['db/query']);
    for (const [name, rule] of [
      ['mcp__db__drop_table', 'mcp.not_granted'],
      ['mcp__mail__send', 'mcp.unknown_tool'],
      ['mcp__docs__search', 'mcp.not_granted'],
    ] as const) {
      const out = await t.call(name, {});
      assert.equal(out.ok, false);
      assert.equal(!out.ok && out.failure.detail, rule);
    }
    const verifier = tools(['db/*'], 'verifier');
    const write = await verifier.call('mcp__db__drop_table', {});
    assert.equal(!write.ok && write.failure.detail, 'mcp.verifier_read_only');
    const notObject = await t.call('mcp__db__query', ['select 1']);
    assert.equal(!notObject.ok && notObject.failure.detail, 'mcp.invalid_arguments');
    assert.equal(servers.calls.length, 0);
    assert.equal(h.approver.requests.length, 0);
    assert.deepEqual(
      h.events.filter((e) => e.type === 'policy_denied').map((e) => e.type === 'policy_denied' && e.rule),
      ['mcp.not_granted', 'mcp.unknown_tool', 'mcp.not_granted', 'mcp.verifier_read_only', 'mcp.invalid_arguments'],
    );
  });

  it('asks with server, tool, arguments and confinement; runs only after the recorded decision; records the outcome', async () => {
    const t = tools(['db/query']);
    const out = await t.call('mcp__db__query', { sql: 'select 1' });
    assert.ok(out.ok);
    assert.equal(out.output, 'rows: 3');
    const request = h.approver.requests[0]!;
    assert.equal(request.kind, 'mcp');
    assert.ok(request.kind === 'mcp');
    assert.deepEqual(
      { server: request.server, tool: request.tool, arguments: request.arguments, readOnly: request.readOnly, confinement: request.confinement },
      { server: 'db', tool: 'query', arguments: { sql: 'select 1' }, readOnly: true, confinement: 'remote' },
    );
    assert.deepEqual(
      servers.calls.map((c) => [c.server, c.tool, c.sandbox]),
      [['db', 'query', null]],
    );
    const types = h.events.map((e) => e.type);
    assert.deepEqual(types.slice(0, 4), ['approval_requested', 'approval_decided', 'mcp_call', 'tool_call']);
    const record = h.events.find((e) => e.type === 'tool_call');
    assert.ok(record?.type === 'tool_call' && record.record.tool === 'mcp:db/query');

    h.approver.decide = () => ({ decision: 'rejected', reason: 'not now' });
    const rejected = await t.call('mcp__db__query', { sql: 'select 2' });
    assert.equal(!rejected.ok && rejected.failure.class, 'rejected_by_user');
    assert.equal(servers.calls.length, 1, 'a rejected call never reaches the server');
  });

  it('turns a fault into a failure naming the server; a timeout is a timeout', async () => {
    const t = tools(['db/query']);
    servers.answer = { ok: false, fault: 'timeout', message: 'timed out (did not answer within 60 s)' };
    const slow = await t.call('mcp__db__query', { sql: 'x' });
    assert.equal(!slow.ok && slow.failure.class, 'timeout');
    assert.match(!slow.ok ? slow.failure.message : '', /^MCP server "db": timed out/);
    servers.answer = { ok: false, fault: 'auth', message: 'needs authentication' };
    const auth = await t.call('mcp__db__query', { sql: 'y' });
    assert.equal(!auth.ok && auth.failure.detail, 'mcp.auth:db');
    servers.answer = { ok: true, text: 'bad table', isError: true, truncated: false };
    const toolError = await t.call('mcp__db__query', { sql: 'z' });
    assert.equal(toolError.ok, false);
    assert.match(toolError.output, /reported an error:\nbad table/);
  });
});
