import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMission } from '../../../src/core/mission/start';
import type { Terminal } from '../../../src/core/ports';
import { noHostFacts } from '../../../src/core/policy/sandboxSpec';
import { FakeExecutor, harness, succeeded } from './fakes';
import { fileStep, plan } from '../../support/fixtures';

describe('mission engine with the sandbox tools (the default factory)', () => {
  it('verifies a command check through the real policy and approval gate', async () => {
    const ran: string[][] = [];
    const terminal: Terminal = {
      hostFacts: () => noHostFacts(process.platform),
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
      evidence: {
        checks: [
          { kind: 'command', command: 'npm test', expectExitCode: 0, expectOutputIncludes: 'passing' },
          { kind: 'file_contains', path: 'src/a.ts', text: 'const a' },
        ],
      },
    });
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'pe-engine-')));
    after(() => rmSync(root, { recursive: true, force: true }));
    const h = harness(plan([step]), { executor, terminal, createStepTools: undefined, approve: 'all', root });
    const report = await runMission(h.options);
    const problems = h.store.trace(report.missionId).filter((e) => e.type === 'step_result' || e.type === 'verification' || e.type === 'policy_denied');
    assert.equal(report.outcome, 'succeeded', JSON.stringify(problems, null, 1));
    assert.deepEqual(ran, [['npm', 'test']]);
    assert.equal(h.ws.files.get('src/a.ts'), 'export const a = 1;\n');
    const v = h.store.trace(report.missionId).find((e) => e.type === 'verification');
    assert.ok(v && v.type === 'verification' && v.verification.passed);
  });
});

describe('commands without a sandbox under `prefer`', () => {
  it('are asked of the user even in approval mode `all`, marked unsandboxed, and run only when approved', async () => {
    const ran: (string | null)[] = [];
    const terminal: Terminal = {
      hostFacts: () => noHostFacts(process.platform),
      run: async (request) => {
        ran.push(request.sandbox === null ? 'unconfined' : 'confined');
        return { command: request.command, cwd: request.cwd, exitCode: 0, signal: null, durationMs: 1, output: '12 passing', truncated: false };
      },
      confinement: async () => ({ available: false, reason: 'no bwrap here', remedy: 'install bubblewrap' }),
    };
    const executor = new FakeExecutor({
      t1: async (h, tools) => {
        const r = await tools.bash('npm test');
        assert.ok(r.ok, r.output);
        return succeeded(h.step.id, [r.toolCallId]);
      },
    });
    const step = fileStep('t1', {
      kind: 'command',
      authority: { read: ['**'], edit: [], commands: ['npm test'] },
      evidence: { checks: [{ kind: 'command', command: 'npm test', expectExitCode: 0 }] },
    });
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'pe-engine-')));
    after(() => rmSync(root, { recursive: true, force: true }));
    const h = harness(plan([step]), { executor, terminal, createStepTools: undefined, approve: 'all', root, toolSettings: { sandbox: 'prefer' } });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', JSON.stringify(report));
    const asked = h.approver.requests.filter((r) => r.kind === 'command');
    assert.equal(asked.length, 2, "the executor's run and the verifier's evidence run were both asked");
    assert.ok(asked.every((r) => r.kind === 'command' && r.confinement === 'unsandboxed'));
    assert.deepEqual(ran, ['unconfined', 'unconfined']);
    const marks = h.store.trace(report.missionId).filter((e) => e.type === 'command_sandbox');
    assert.ok(marks.length === 2 && marks.every((e) => e.type === 'command_sandbox' && e.confinement === 'unsandboxed' && e.sandbox === 'none'));
  });

  it('are refused under `required`, naming what to install, and nothing runs', async () => {
    const ran: string[] = [];
    const terminal: Terminal = {
      hostFacts: () => noHostFacts(process.platform),
      run: async (request) => {
        ran.push(request.command);
        return { command: request.command, cwd: request.cwd, exitCode: 0, signal: null, durationMs: 1, output: '', truncated: false };
      },
      confinement: async () => ({
        available: false,
        reason: 'bubblewrap (bwrap) is not installed',
        remedy: 'Install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap)',
      }),
    };
    const executor = new FakeExecutor({
      t1: async (h, tools) => {
        const r = await tools.bash('npm test');
        assert.ok(!r.ok && r.failure.cause === 'sandbox_unavailable', r.output);
        return {
          stepId: h.step.id,
          status: 'failed',
          output: r.output,
          evidence: [],
          sideEffects: { files: [], commands: [] },
          failure: r.failure,
          toolCallIds: [r.toolCallId],
        };
      },
    });
    const step = fileStep('t1', {
      kind: 'command',
      authority: { read: ['**'], edit: [], commands: ['npm test'] },
      evidence: { checks: [{ kind: 'command', command: 'npm test', expectExitCode: 0 }] },
    });
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'pe-engine-')));
    after(() => rmSync(root, { recursive: true, force: true }));
    const h = harness(plan([step], { direct: true }), {
      executor,
      terminal,
      createStepTools: undefined,
      approve: 'all',
      root,
      toolSettings: { sandbox: 'required' },
    });
    const report = await runMission(h.options);
    assert.notEqual(report.outcome, 'succeeded');
    assert.deepEqual(ran, []);
    assert.ok(
      h.store
        .trace(report.missionId)
        .some((e) => e.type === 'policy_denied' && e.rule === 'sandbox.unavailable' && /apt-get install bubblewrap/.test(e.reason)),
    );
  });
});

describe('review checks', () => {
  it('give the verifier read-only tools: no write method is reachable', async () => {
    const seen: string[][] = [];
    const step = fileStep('r1', {
      kind: 'research',
      authority: { read: ['**'], edit: [], commands: [] },
      evidence: { checks: [{ kind: 'review', criterion: 'names the cause' }] },
    });
    const executor = new FakeExecutor({ r1: async (h) => succeeded(h.step.id, [], 'the cause is X') });
    const h = harness(plan([step]), {
      executor,
      verifier: {
        review: async (_h, result, criterion, tools) => {
          seen.push(Object.keys(tools).sort());
          return { check: criterion, passed: result.output.includes('cause'), detail: 'ok' };
        },
      },
    });
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.deepEqual(seen, [['fetchToolResult', 'list', 'search', 'view']]);
  });
});
