import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMission } from '../../../src/core/mission/start';
import type { Terminal } from '../../../src/core/ports';
import { FakeExecutor, fileStep, harness, planOf, succeeded } from './fakes';

describe('mission engine with the sandbox tools (the default factory)', () => {
  it('verifies a command check through the real policy and approval gate', async () => {
    const ran: string[][] = [];
    const terminal: Terminal = {
      run: async (request) => {
        ran.push(request.argv);
        return { command: request.command, cwd: request.cwd, exitCode: 0, signal: null, durationMs: 1, output: '12 passing', truncated: false };
      },
      confinement: async () => ({ available: true, kind: 'bubblewrap', detail: 'fake' }),
    };
    const executor = new FakeExecutor({
      t1: async (h, tools) => {
        const made = await tools.create('src/a.ts', 'export const a = 1;\n');
        assert.ok(made.ok, made.output);
        return succeeded(h.step.id, [made.toolCallId]);
      },
    });
    const step = fileStep('t1', {
      authority: { read: ['**'], edit: ['src/**'], commands: ['npm test'] },
      evidence: { checks: [{ kind: 'command', command: 'npm test', expectExitCode: 0, expectOutputIncludes: 'passing' }, { kind: 'file_contains', path: 'src/a.ts', text: 'const a' }] },
    });
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'pe-engine-')));
    after(() => rmSync(root, { recursive: true, force: true }));
    const h = harness(planOf([step]), { executor, terminal, createStepTools: undefined, approve: 'all', root });
    const report = await runMission(h.options);
    const problems = h.store.trace(report.missionId).filter((e) => e.type === 'step_result' || e.type === 'verification' || e.type === 'policy_denied');
    assert.equal(report.outcome, 'succeeded', JSON.stringify(problems, null, 1));
    assert.deepEqual(ran, [['npm', 'test']]);
    assert.equal(h.ws.files.get('src/a.ts'), 'export const a = 1;\n');
    const v = h.store.trace(report.missionId).find((e) => e.type === 'verification');
    assert.ok(v && v.type === 'verification' && v.verification.passed);
  });
});

describe('review checks', () => {
  it('give the verifier read-only tools: no write method is reachable', async () => {
    const seen: string[][] = [];
    const step = fileStep('r1', { kind: 'research', authority: { read: ['**'], edit: [], commands: [] }, evidence: { checks: [{ kind: 'review', criterion: 'names the cause' }] } });
    const executor = new FakeExecutor({ r1: async (h) => succeeded(h.step.id, [], 'the cause is X') });
    const h = harness(planOf([step]), {
      executor,
      verifier: { review: async (_h, result, criterion, tools) => { seen.push(Object.keys(tools).sort()); return { check: criterion, passed: result.output.includes('cause'), detail: 'ok' }; } },
    });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.deepEqual(seen, [['fetchToolResult', 'list', 'search', 'view']]);
  });
});
