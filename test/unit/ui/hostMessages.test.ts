/**
 * The webview's check of host messages is the protocol itself: `ToWebviewSchema` as JSON Schema
 * (hostMessageJsonSchema, which the build bakes into the webview bundle) checked by src/webview/shapeCheck.ts.
 * A real snapshot — a mission shaped by the host from a real trace, approval cards of each kind — passes; a
 * message missing what a render relies on, at any depth, is dropped.
 */
import { strict as assert } from 'node:assert';
import type { TraceEvent, TraceEventBody } from '../../../src/core/contracts/traceEvents';
import { missionViewFromEvents } from '../../../src/core/mission/view';
import { toUiMission } from '../../../src/vscode/view/uiMission';
import { hostMessageJsonSchema, type SurfaceState } from '../../../src/webview/protocol';
import { hostMessageParser } from '../../../src/webview/hostMessages';
import { KNOWN_KEYWORDS, type JsonSchema } from '../../../src/webview/shapeCheck';
import { parsedPlan, step } from '../../support/fixtures';

const schema = hostMessageJsonSchema() as JsonSchema;
const parse = hostMessageParser(schema);

function trace(...bodies: TraceEventBody[]): TraceEvent[] {
  return bodies.map((b, seq) => ({ missionId: 'm1', seq, at: `2026-01-01T00:00:${String(seq).padStart(2, '0')}.000Z`, ...b }) as TraceEvent);
}

/** A mission with something in every record the surfaces show: results, a verification, a replan, a wait, a failure, MCP servers. */
function richMission(): SurfaceState['mission'] {
  const plan = parsedPlan([step('s1'), step('s2', { dependsOn: ['s1'] })], { goal: 'g', version: 1, parentVersion: null, reason: 'initial' });
  const events = trace(
    { type: 'mission_started', task: 'do it', workspaceRoot: '/w', settings: {} },
    {
      type: 'mcp_catalogue',
      catalogue: {
        servers: [
          {
            name: 'docs',
            transport: 'stdio',
            source: '.mcp.json',
            confinement: 'sandboxed',
            status: 'ok',
            tools: [{ name: 'search', description: 'search the docs', readOnly: true, inputSchema: { type: 'object' } }],
          },
        ],
        notes: [],
      },
    },
    { type: 'plan_version', plan, author: 'planner', diff: null },
    { type: 'mission_phase', phase: 'running' },
    { type: 'step_status', stepId: 's1', status: 'running', attempt: 1 },
    {
      type: 'step_result',
      result: {
        stepId: 's1',
        status: 'succeeded',
        output: 'done',
        evidence: [],
        sideEffects: { files: [{ path: 'src/s1/a.ts', change: 'created', beforeHash: null, afterHash: 'h1' }], commands: [] },
        toolCallIds: [],
      },
    },
    {
      type: 'verification',
      verification: {
        stepId: 's1',
        passed: true,
        checks: [{ check: 'npm test', passed: true, detail: 'exit 0', toolCallId: 't1' }],
        at: '2026-01-01T00:00:09.000Z',
      },
    },
    {
      type: 'model_wait',
      role: 'executor',
      stepId: 's2',
      provider: 'anthropic',
      model: 'm',
      reason: 'rate_limited',
      waitMs: 8_000,
      attempt: 1,
      message: 'slow down',
    },
    {
      type: 'replan',
      trigger: 'step_failed',
      stepId: 's2',
      mode: 'step',
      evidence: 'broken',
      fromVersion: 1,
      toVersion: null,
      invalidated: [],
      refusedBecause: ['too wide'],
    },
    {
      type: 'mission_finished',
      outcome: 'failed',
      summary: 's2 failed',
      failure: {
        class: 'tool_error',
        message: 'boom',
        partialSideEffects: { files: [], commands: [] },
        recoverable: false,
        suggestion: '',
        cause: 'connection',
        provider: 'anthropic',
      },
    },
  );
  return toUiMission(missionViewFromEvents(events), { live: true });
}

function richState(): SurfaceState {
  const base = { stepId: 's2', stepTitle: 'T', stepWhy: null, why: 'because', at: '2026-01-01T00:00:00.000Z', verification: false };
  return {
    rev: 3,
    trusted: true,
    hasApiKey: true,
    busy: null,
    mission: richMission(),
    approvals: [
      { ...base, requestId: 'r1', kind: 'write', path: 'a.ts', change: 'modified', size: { added: 1, removed: 2 } },
      { ...base, requestId: 'r2', kind: 'command', command: 'npm test', cwd: '/w', confinement: 'unsandboxed', network: false },
      { ...base, requestId: 'r3', kind: 'mcp', server: 'docs', tool: 'search', arguments: '{}', readOnly: true, confinement: 'sandboxed', network: false },
    ],
    planAwaitingApproval: null,
    rules: [{ id: 'rule-1', kind: 'command', pattern: 'npm test' }],
    taskPrefill: null,
    taskDraft: 'next',
    demo: false,
    notices: [{ id: 'n1', level: 'error', message: 'no key', actions: ['setApiKey'] }],
    sandbox: { mode: 'prefer', state: 'unsandboxed', detail: 'no bwrap' },
    status: {
      kind: 'failed',
      label: 'failed',
      detail: null,
      active: false,
      waiting: { count: 3, summary: '3 waiting' },
      steps: { done: 1, total: 2 },
      costUsd: 0.01,
    },
  };
}

/** A copy of `value` with `change` applied (the original stays valid for the next case). */
function edited<T>(value: T, change: (copy: T) => void): T {
  const copy = structuredClone(value);
  change(copy);
  return copy;
}

describe("the webview's check of host messages (derived from the protocol)", () => {
  it('accepts a real snapshot: a mission shaped from a real trace, and cards of every kind', () => {
    const state = richState();
    assert.ok(state.mission && state.mission.steps.length === 2 && state.mission.replans.length === 1 && state.mission.mcpServers?.length === 1);
    assert.deepEqual(parse({ type: 'state', state }), { type: 'state', state });
  });

  it('accepts every notification the host sends', () => {
    for (const message of [
      { type: 'didChangeStepStatus', rev: 1, stepId: 's1', status: 'running' },
      { type: 'didRequestTaskFocus' },
      { type: 'didNotify', level: 'warning', message: 'careful' },
      { type: 'didSelectStep', stepId: 's2' },
      { type: 'didRequestQueueFocus' },
    ]) {
      assert.deepEqual(parse(message), message, message.type);
    }
  });

  it('drops a message missing what a render relies on, at any depth', () => {
    const state = richState();
    const broken: [string, SurfaceState][] = [
      ['no mission steps', edited(state, (s) => delete (s.mission as Partial<NonNullable<SurfaceState['mission']>>).steps)],
      ['a step status that does not exist', edited(state, (s) => ((s.mission!.steps[0] as { status: string }).status = 'exploded'))],
      ['a step without its authority', edited(state, (s) => delete (s.mission!.steps[1] as { authority?: unknown }).authority)],
      ['a verification check without its text', edited(state, (s) => delete (s.mission!.steps[0]!.verification!.checks[0] as { check?: string }).check)],
      ['a replan whose refusals are not a list', edited(state, (s) => ((s.mission!.replans[0] as { refusedBecause: unknown }).refusedBecause = 'too wide'))],
      ['a write card without its size', edited(state, (s) => delete (s.approvals[0] as { size?: unknown }).size)],
      ['a card of an unknown kind', edited(state, (s) => ((s.approvals[1] as { kind: string }).kind = 'shell'))],
      ['a status without its waiting count', edited(state, (s) => delete (s.status.waiting as { count?: number }).count)],
      ['a revision that is not a number', edited(state, (s) => ((s as { rev: unknown }).rev = '3'))],
    ];
    for (const [what, bad] of broken) assert.equal(parse({ type: 'state', state: bad }), undefined, what);
    assert.equal(parse({ type: 'didNotify', level: 'loud', message: 'x' }), undefined, 'an unknown notice level');
    assert.equal(parse({ type: 'didChangeStepStatus', rev: 1, stepId: 's1' }), undefined, 'a status change without the status');
    assert.equal(parse({ type: 'somethingElse' }), undefined, 'an unknown message type');
    assert.equal(parse(null), undefined);
  });

  it('keeps a snapshot an older extension saved without the additive fields', () => {
    const older = edited(richState(), (s) => {
      delete s.sandbox;
      delete s.mission!.instructions;
      delete s.mission!.mcpServers;
    });
    assert.notEqual(parse({ type: 'state', state: older }), undefined);
  });

  it('understands every keyword the derived schema uses (a new one would go unchecked)', () => {
    const used = new Set<string>();
    const walk = (node: unknown, inProperties = false): void => {
      if (Array.isArray(node)) return node.forEach((n) => walk(n));
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (!inProperties) used.add(key);
        walk(value, !inProperties && (key === 'properties' || key === '$defs' || key === 'definitions'));
      }
    };
    walk(schema);
    assert.deepEqual(
      [...used].filter((k) => !KNOWN_KEYWORDS.has(k)),
      [],
    );
  });
});
