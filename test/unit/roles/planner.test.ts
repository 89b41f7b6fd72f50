import { strict as assert } from 'node:assert';
import { createAnthropicModelClient } from '../../../src/node/model/anthropicClient';
import { createRoles } from '../../../src/core/roles/createRoles';
import { validatePlan } from '../../../src/core/plan/validate';
import { PLAN_DRAFT_JSON_SCHEMA } from '../../../src/core/roles/planDraft';
import { startMessagesServer, type MessagesServer } from '../../support/messages-server/server';
import type { ScenarioInput } from '../../support/messages-server/scenario';
import { fakeContext, fakeTools, VALID_DRAFT } from './fakes';

const request = {
  task: 'Add a greeting module',
  constraints: ['Do not touch package.json'],
  workspaceSummary: 'src/\n  index.js\npackage.json (scripts: test)',
};

async function withPlanner(scenario: ScenarioInput, fn: (server: MessagesServer, roles: ReturnType<typeof createRoles>) => Promise<void>): Promise<void> {
  const server = await startMessagesServer({ scenario });
  try {
    const client = createAnthropicModelClient({ apiKey: 'k', baseURL: server.url, retry: { baseDelayMs: 1 } });
    await fn(server, createRoles({ client }));
  } finally {
    await server.close();
  }
}

describe('planner role', () => {
  it('returns a validated plan from structured output, with no tools at all', async () => {
    await withPlanner({ rules: [{ match: { role: 'planner' }, turns: [{ structured: VALID_DRAFT }] }] }, async (server, roles) => {
      const ctx = fakeContext();
      const out = await roles.planner.plan(request, ctx);
      assert.ok(out.ok, JSON.stringify(out));
      assert.equal(out.value.steps[0]?.id, 's1');
      assert.equal(out.value.version, 1);
      const body = server.requests[0]!.body;
      assert.equal(body.tools, undefined, 'planner gets no tools without lookups');
      const format = (body.output_config as { format?: { type: string; schema: { properties: Record<string, unknown> } } }).format;
      assert.equal(format?.type, 'json_schema');
      assert.ok('steps' in (format?.schema.properties ?? {}));
      assert.equal(server.requests[0]!.promptVersion, 'planner.v3');
      const call = ctx.events.find((e) => e.type === 'model_call');
      assert.equal(call?.type === 'model_call' && call.promptVersion, 'planner.v3');
      assert.equal(call?.type === 'model_call' && call.model, 'claude-opus-5-5');
    });
  });

  it('sends a strict output schema: closed objects, every field required, no defaults or refs', () => {
    const problems: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}[${i}]`));
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if ('default' in o || '$ref' in o) problems.push(`${path}: default/$ref`);
      if (o.type === 'object') {
        if (o.additionalProperties !== false) problems.push(`${path}: open object`);
        const keys = Object.keys((o.properties as object) ?? {});
        const required = new Set((o.required as string[]) ?? []);
        for (const k of keys) if (!required.has(k)) problems.push(`${path}.${k}: optional`);
      }
      for (const [k, v] of Object.entries(o)) walk(v, `${path}.${k}`);
    };
    walk(PLAN_DRAFT_JSON_SCHEMA, '$');
    assert.deepEqual(problems, []);
  });

  it('repairs a malformed plan once, quoting the exact validation errors', async () => {
    const cyclic = { ...VALID_DRAFT, steps: [{ ...VALID_DRAFT.steps[0]!, dependsOn: ['s9'] }] };
    await withPlanner({ rules: [{ match: { role: 'planner' }, turns: [{ structured: cyclic }, { structured: VALID_DRAFT }] }] }, async (server, roles) => {
      const out = await roles.planner.plan(request, fakeContext());
      assert.ok(out.ok, JSON.stringify(out));
      assert.equal(server.requests.length, 2);
      const repair = server.requests[1]!.body.messages!.at(-1)!;
      const text = JSON.stringify(repair.content);
      assert.match(text, /steps\[0\]\.dependsOn\[0\]/);
      assert.match(text, /s9/);
    });
  });

  it('repairs output that is not JSON at all', async () => {
    await withPlanner(
      { rules: [{ match: { role: 'planner' }, turns: [{ structured: '{"goal": "x", "steps": [' }, { structured: VALID_DRAFT }] }] },
      async (_server, roles) => {
        const out = await roles.planner.plan(request, fakeContext());
        assert.ok(out.ok);
      },
    );
  });

  it('asks again with twice the output budget when the plan is cut off at max_tokens', async () => {
    await withPlanner(
      { rules: [{ match: { role: 'planner' }, turns: [[{ structured: VALID_DRAFT, fault: 'max_tokens' }, { structured: VALID_DRAFT }]] }] },
      async (server, roles) => {
        const out = await roles.planner.plan(request, fakeContext());
        assert.ok(out.ok, JSON.stringify(out));
        assert.deepEqual(
          server.requests.map((r) => r.body.max_tokens),
          [16000, 32000],
        );
      },
    );
  });

  it('fails clearly after a second invalid plan', async () => {
    await withPlanner(
      { rules: [{ match: { role: 'planner' }, turns: [{ structured: '{}' }, { structured: { ...VALID_DRAFT, steps: [] } }] }] },
      async (server, roles) => {
        const out = await roles.planner.plan(request, fakeContext());
        assert.equal(out.ok, false);
        assert.equal(!out.ok && out.error.class, 'invalid_output');
        assert.match(!out.ok ? out.error.message : '', /invalid plan twice/);
        assert.equal(server.requests.length, 2);
      },
    );
  });

  it('offers only read-only lookups when given tools, and never a write tool', async () => {
    await withPlanner(
      { rules: [{ match: { role: 'planner' }, turns: [{ toolUse: [{ name: 'view_file', input: { path: 'package.json' } }] }, { structured: VALID_DRAFT }] }] },
      async (server, roles) => {
        const tools = fakeTools({ 'package.json': '{"scripts":{"test":"node --test"}}' });
        const out = await roles.planner.plan({ ...request, tools }, fakeContext());
        assert.ok(out.ok, JSON.stringify(out));
        for (const r of server.requests) {
          const names = (r.body.tools ?? []).map((t) => t.name);
          assert.deepEqual(names, ['view_file', 'list_files', 'search_files', 'fetch_tool_result']);
        }
        assert.deepEqual(
          tools.calls.map((c) => c.tool),
          ['view'],
        );
      },
    );
  });

  it('replans with capped summaries and versions the plan from the current one', async () => {
    await withPlanner(
      { rules: [{ match: { role: 'replanner' }, turns: [{ structured: { ...VALID_DRAFT, reason: 's1 failed: retry differently' } }] }] },
      async (server, roles) => {
        const current = validatePlan({ ...VALID_DRAFT, version: 2, parentVersion: 1 });
        assert.ok(current.ok);
        const long = 'x'.repeat(5000);
        const out = await roles.planner.replan(
          {
            ...request,
            mode: 'step',
            current: current.plan,
            trigger: { kind: 'step_failed', stepId: 's1', message: 'tests red', evidence: 'exit 1' },
            finished: [{ stepId: 's0', title: 'prep', summary: long, toolCallIds: ['tc7'] }],
            history: [{ version: 1, reason: 'initial plan' }],
          },
          fakeContext(),
        );
        assert.ok(out.ok, JSON.stringify(out));
        assert.equal(out.value.version, 3);
        assert.equal(out.value.parentVersion, 2);
        const sent = JSON.stringify(server.requests[0]!.body.messages);
        assert.ok(!sent.includes('x'.repeat(1000)), 'summary capped at ~200 tokens');
        assert.match(sent, /tc7/);
        assert.equal(server.requests[0]!.promptVersion, 'replanner.v2');
      },
    );
  });
});
