import assert from 'node:assert/strict';
import { buildHandoff } from '../../../src/core/handoff/builder';
import { ToolCallStore } from '../../../src/core/handoff/toolCallStore';
import { HandoffSchema } from '../../../src/core/contracts/handoff';
import { validatePlan } from '../../../src/core/plan/validate';
import type { StepResult } from '../../../src/core/contracts/results';
import { plan, step } from '../../support/fixtures';

describe('handoff builder', () => {
  const parsed = validatePlan(
    plan(
      [
        step('s1'),
        step('s2', { binding: { prerequisite: 'tests compile', fallback: 'revert', consequence: 'api exported' } }),
        step('s3', { dependsOn: ['s1', 's2'] }),
      ],
      { constraints: ['never touch package.json'] },
    ),
  );
  if (!parsed.ok) throw new Error('fixture plan invalid');
  const thePlan = parsed.plan;
  const calls = new ToolCallStore();
  const long = 'L'.repeat(50_000);
  calls.add({
    id: 'c1',
    stepId: 's1',
    role: 'executor',
    tool: 'bash',
    input: { command: 'npm test' },
    output: long,
    ok: false,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:02.000Z',
    inputsFingerprint: {},
  });
  calls.add({
    id: 'c2',
    stepId: 's1',
    role: 'executor',
    tool: 'view',
    input: { path: 'a.ts' },
    output: 'export const a = 1;',
    ok: true,
    startedAt: '2026-01-01T00:00:03.000Z',
    finishedAt: '2026-01-01T00:00:03.000Z',
    inputsFingerprint: { 'a.ts': 'h' },
  });
  calls.add({
    id: 'c3',
    stepId: 'other',
    role: 'executor',
    tool: 'view',
    input: { path: 'a.ts' },
    output: 'x',
    ok: true,
    startedAt: '2026-01-01T00:00:03.000Z',
    finishedAt: '2026-01-01T00:00:03.000Z',
    inputsFingerprint: { 'a.ts': 'h' },
  });
  const result = (id: string, toolCallIds: string[]): StepResult => ({
    stepId: id,
    status: 'succeeded',
    output: `${id} done`,
    evidence: [],
    sideEffects: { files: [], commands: [] },
    toolCallIds,
  });
  const results = new Map([
    ['s1', result('s1', ['c1', 'c2'])],
    ['s2', result('s2', [])],
  ]);

  it('carries raw dependency tool calls, capped, with timestamps and ok flags, plus binding constraints', async () => {
    const handoff = await buildHandoff({
      missionId: 'm1',
      plan: thePlan,
      step: thePlan.steps[2]!,
      results,
      toolCalls: calls,
      attempt: 2,
      previousFailure: { class: 'tool_error', message: 'boom', partialSideEffects: { files: [], commands: [] }, recoverable: true, suggestion: '' },
      hashOf: async () => 'h',
      budget: { perToolCallChars: 500, toolCallsPerDependency: 12, summaryChars: 100 },
    });
    assert.ok(HandoffSchema.safeParse(handoff).success, 'the handoff matches the contract');
    assert.deepEqual(
      handoff.dependencies.map((d) => d.stepId),
      ['s1', 's2'],
    );
    const [bash, view] = handoff.dependencies[0]!.toolCalls;
    assert.equal(bash!.ok, false);
    assert.equal(bash!.startedAt, '2026-01-01T00:00:00.000Z');
    assert.ok(bash!.output.length <= 500 && bash!.output.includes('fetch tool call c1'));
    assert.equal(view!.output, 'export const a = 1;');
    assert.deepEqual(handoff.constraints, ['never touch package.json']);
    assert.deepEqual(handoff.authority, thePlan.steps[2]!.authority);
    assert.equal(handoff.attempt, 2);
    assert.equal(handoff.previousFailure?.message, 'boom');
    assert.deepEqual(handoff.reusableToolCalls, ['c2'], 'only valid calls from its dependencies');
  });

  it("carries the step's own binding fields", async () => {
    const handoff = await buildHandoff({
      missionId: 'm1',
      plan: thePlan,
      step: thePlan.steps[1]!,
      results,
      toolCalls: calls,
      attempt: 1,
      hashOf: async () => null,
    });
    assert.deepEqual(handoff.binding, { prerequisite: 'tests compile', fallback: 'revert', consequence: 'api exported' });
    assert.deepEqual(handoff.dependencies, []);
  });
});
