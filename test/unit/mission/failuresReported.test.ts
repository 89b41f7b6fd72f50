/**
 * Errors never vanish: a failure that must not stop the run (a snapshot write, a cleanup, a sink that
 * throws) lands in the trace as a `log` event, and in the host's log (the Diagnostics port) when the
 * trace itself is what failed.
 */
import assert from 'node:assert/strict';
import { runMission } from '../../../src/core/mission/start';
import type { Diagnostics, McpServers, StagingLayers, Terminal } from '../../../src/core/ports';
import type { TraceEvent } from '../../../src/core/contracts/traceEvents';
import { MemoryStore, harness } from './fakes';
import { fileStep, plan as planOf } from '../../support/fixtures';

const plan = planOf([fileStep('s1'), fileStep('s2', { dependsOn: ['s1'] })]);

function collecting(): Diagnostics & { lines: string[] } {
  const lines: string[] = [];
  return { lines, error: (message) => void lines.push(message) };
}

function logLines(trace: readonly TraceEvent[], level: 'warn' | 'error'): string[] {
  return trace.flatMap((e) => (e.type === 'log' && e.level === level ? [e.message] : []));
}

/** A store whose snapshots always fail (the trace works). */
class FailingSnapshots extends MemoryStore {
  override async saveState(): Promise<void> {
    throw new Error('EACCES: state.json');
  }
}

/** A store whose trace appends fail once step s2 starts (the mission is running by then). */
class FailingTrace extends MemoryStore {
  #broken = false;
  override async appendEvent(missionId: string, event: TraceEvent): Promise<void> {
    if (event.type === 'step_status' && event.stepId === 's2') this.#broken = true;
    if (this.#broken) throw new Error('ENOSPC: trace.jsonl');
    await super.appendEvent(missionId, event);
  }
}

describe('failures that must not stop a mission are reported, never dropped', () => {
  it('a failing state snapshot is noted in the trace once, and the mission still succeeds', async () => {
    const store = new FailingSnapshots();
    const diagnostics = collecting();
    const h = harness(plan, { store, diagnostics, snapshotIntervalMs: 0 });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    const warnings = logLines(store.trace(report.missionId), 'warn').filter((m) => m.includes('saving the mission state failed'));
    assert.equal(warnings.length, 1, `one note for one repeated cause: ${warnings.join(' | ')}`);
    assert.match(warnings[0]!, /EACCES: state\.json/);
    assert.deepEqual(diagnostics.lines, [], 'the trace held it, so the host log hears of it through the trace');
  });

  it('when the trace store fails, the engine error reaches the host log with why it is not in the trace', async () => {
    const store = new FailingTrace();
    const diagnostics = collecting();
    const h = harness(plan, { store, diagnostics });
    // The run still ends (in a report, or by rejecting when even its end cannot be recorded)…
    await runMission(h.options).catch((error: unknown) => assert.match(String(error), /ENOSPC/));
    // …and the host log names the failure and why the trace lacks it.
    const engineLines = diagnostics.lines.filter((l) => l.includes('engine error'));
    assert.ok(engineLines.length >= 1, `host log: ${diagnostics.lines.join(' | ')}`);
    assert.match(engineLines[0]!, /ENOSPC: trace\.jsonl/);
    assert.match(engineLines[0]!, /not in the trace/);
  });

  it('a staging layer that cannot be dropped and MCP servers that cannot be stopped are noted per step', async () => {
    const staging: StagingLayers = {
      support: async () => ({ available: false, reason: 'not staged in this test' }),
      changes: async () => assert.fail('not listed in this test'),
      read: async () => assert.fail('not read in this test'),
      settle: async () => assert.fail('not settled in this test'),
      drop: async () => {
        throw new Error('EBUSY: layer');
      },
      gitReview: async () => null,
      applyGitData: async () => [],
    };
    const servers: McpServers = {
      call: async () => assert.fail('no MCP call in this test'),
      endStep: async () => {
        throw new Error('server would not exit');
      },
    };
    const h = harness(plan);
    const terminal: Terminal = { ...h.options.terminal, staging };
    const report = await runMission({ ...h.options, terminal, mcp: { servers, catalogue: { servers: [], notes: [] } } });
    assert.equal(report.outcome, 'succeeded', report.summary);
    const warnings = logLines(h.store.trace(report.missionId), 'warn');
    for (const id of ['s1', 's2']) {
      assert.ok(
        warnings.some((m) => m.startsWith(`step ${id}: dropping its staging layer failed`) && m.includes('EBUSY: layer')),
        `${id} staging: ${warnings.join(' | ')}`,
      );
      assert.ok(
        warnings.some((m) => m.startsWith(`step ${id}: stopping its MCP servers failed`) && m.includes('server would not exit')),
        `${id} MCP: ${warnings.join(' | ')}`,
      );
    }
  });

  it('a sink that throws is told to the host log; the trace stays complete', async () => {
    const diagnostics = collecting();
    let emitted = 0;
    const h = harness(plan, {
      diagnostics,
      events: {
        emit: () => {
          if (++emitted === 3) throw new Error('webview gone');
        },
      },
    });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.equal(diagnostics.lines.length, 1, diagnostics.lines.join(' | '));
    assert.match(diagnostics.lines[0]!, /showing trace event 2 .*webview gone/);
    const seqs = h.store.trace(report.missionId).map((e) => e.seq);
    assert.deepEqual(
      seqs,
      seqs.map((_, i) => i),
    );
  });
});
