import assert from 'node:assert/strict';
import { decodeTrace, encodeTrace } from '../../../src/core/trace/jsonl';
import { analytics } from '../../../src/core/trace/analytics';
import { TraceRecorder } from '../../../src/core/trace/recorder';
import type { TraceEvent } from '../../../src/core/contracts/traceEvents';
import { MemoryStore, realClock } from '../mission/fakes';

const at = '2026-01-01T00:00:00.000Z';
const modelCall = (
  seq: number,
  role: 'planner' | 'executor' | 'verifier' | 'replanner',
  tokens: number,
  ms: number,
  stepId: string | null = null,
): TraceEvent => ({
  missionId: 'm',
  seq,
  at,
  type: 'model_call',
  role,
  stepId,
  model: 'x',
  promptVersion: 'v1',
  usage: { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: tokens / 1000,
  durationMs: ms,
  stopReason: 'end_turn',
  requestId: null,
});
const replan = (seq: number, stepId: string): TraceEvent => ({
  missionId: 'm',
  seq,
  at,
  type: 'replan',
  trigger: 'step_failed',
  stepId,
  mode: 'step',
  evidence: 'e',
  fromVersion: 1,
  toVersion: 2,
  invalidated: [],
});

describe('JSONL trace', () => {
  it('round-trips events and validates them when read back', () => {
    const events = [modelCall(0, 'planner', 10, 5), replan(1, 's1')];
    const decoded = decodeTrace(encodeTrace(events));
    assert.deepEqual(decoded.events, events);
    assert.deepEqual(decoded.problems, []);
  });

  it('reports malformed and invalid lines by line number instead of guessing', () => {
    const good = JSON.stringify(modelCall(0, 'planner', 1, 1));
    const text = [good, '{"missionId":"m","seq":1,"at":"x","type":"no_such_event"}', '{"truncated'].join('\n');
    const decoded = decodeTrace(text);
    assert.equal(decoded.events.length, 1);
    assert.deepEqual(
      decoded.problems.map((p) => p.line),
      [2, 3],
    );
    assert.match(decoded.problems[1]!.message, /partial write/);
  });
});

describe('trace recorder', () => {
  it('numbers events in order, persists each before emitting it', async () => {
    const store = new MemoryStore();
    const emittedWhenStored: boolean[] = [];
    const recorder = new TraceRecorder('m', store, { emit: (e) => emittedWhenStored.push(store.trace('m').some((s) => s.seq === e.seq)) }, realClock);
    await Promise.all([1, 2, 3].map((n) => recorder.record({ type: 'log', level: 'info', message: `n${n}` })));
    assert.deepEqual(
      store.trace('m').map((e) => e.seq),
      [0, 1, 2],
    );
    assert.deepEqual(emittedWhenStored, [true, true, true]);
  });
});

describe('analytics', () => {
  it('ranks steps by replans and splits effort between planning, acting and verifying', () => {
    const a = analytics([
      modelCall(0, 'planner', 300, 100),
      replan(1, 's2'),
      modelCall(2, 'replanner', 100, 50),
      replan(3, 's2'),
      replan(4, 's5'),
      modelCall(5, 'executor', 500, 300, 's1'),
      modelCall(6, 'executor', 100, 50, 's2'),
      modelCall(7, 'verifier', 0, 0, 's1'),
    ]);
    assert.deepEqual(a.replansByStep, [
      { stepId: 's2', replans: 2 },
      { stepId: 's5', replans: 1 },
    ]);
    assert.equal(a.effort.planning.modelCalls, 2);
    assert.equal(a.effort.planning.inputTokens, 400);
    assert.equal(a.effort.acting.inputTokens, 600);
    assert.equal(a.effort.verifying.modelCalls, 1);
    assert.equal(a.planningShare.tokens, 0.4);
    assert.equal(a.planningShare.time, 0.3);
    assert.equal(a.replanLog.length, 3);
    assert.equal(a.byStep.find((s) => s.stepId === 's1')!.effort.modelCalls, 2);
  });
});
