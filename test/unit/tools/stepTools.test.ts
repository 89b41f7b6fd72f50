import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createStepTools } from '../../../src/core/tools/stepTools';
import { revertStep, stepDiff } from '../../../src/core/tools/checkpoints';
import { actionHashOf } from '../../../src/core/tools/approvalGate';
import { sha256Hex } from '../../../src/core/primitives/hash';
import type { Step } from '../../../src/core/contracts/plan';
import { makeHarness, type Harness } from './harness';

const authority: Step['authority'] = { read: ['**'], edit: ['src/**'], commands: ['npm test *', 'git status'], network: false, mcp: [] };

describe('createStepTools', () => {
  let h: Harness;
  beforeEach(() => {
    h = makeHarness({ 'src/a.ts': 'const a = 1;\nconst b = 2;\n', '.env': 'ANTHROPIC_API_KEY=x\n', 'docs/x.md': '# x\n' });
  });
  afterEach(() => h.cleanup());

  describe('reading', () => {
    it('views a file with line numbers and a range', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      const all = await tools.view('src/a.ts');
      assert.equal(all.ok, true);
      assert.equal(all.output, '     1\tconst a = 1;\n     2\tconst b = 2;');
      const one = await tools.view('src/a.ts', [2, 2]);
      assert.equal(one.output, '     2\tconst b = 2;');
    });
    it('accepts an absolute path that names the workspace root', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      assert.equal((await tools.view(path.join(h.root, 'src/a.ts'))).ok, true);
    });
    it('lists a directory without secret files', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.view('.');
      assert.equal(r.ok, true);
      assert.match(r.output, /src\/a\.ts/);
      assert.doesNotMatch(r.output, /\.env/);
    });
    it('reuses the stored result of a view whose file is unchanged, and re-reads after a change', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      const first = await tools.view('src/a.ts');
      const second = await tools.view('src/a.ts');
      assert.equal(second.ok && second.reusedFrom, first.toolCallId);
      assert.equal(second.output, first.output);
      assert.equal(h.toolCalls.get(second.toolCallId)?.reusedFrom, first.toolCallId);
      h.write('src/a.ts', 'changed\n');
      const third = await tools.view('src/a.ts');
      assert.equal(third.ok && third.reusedFrom, undefined);
      assert.match(third.output, /changed/);
    });
    it('refuses to view a secret and records the denial', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.view('.env');
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.failure.class, 'permission_denied');
      assert.ok(h.events.some((e) => e.type === 'policy_denied'));
    });
    it('searches readable files only', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.search('ANTHROPIC|const b');
      assert.match(r.output, /src\/a\.ts:2: const b = 2;/);
      assert.doesNotMatch(r.output, /ANTHROPIC_API_KEY/);
    });
    it('fetches an earlier result by id', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      const v = await tools.view('src/a.ts');
      const f = await tools.fetchToolResult(v.toolCallId);
      assert.equal(f.output, v.output);
    });
    it('records every call in the tool-call store and the trace', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      await tools.view('src/a.ts');
      await tools.view('.env');
      await tools.bash('npm test');
      assert.equal(h.toolCalls.all().length, 3);
      assert.equal(h.events.filter((e) => e.type === 'tool_call').length, 3);
    });
  });

  describe('writing', () => {
    it('creates a new file in a new folder after a recorded approval', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.create('src/feature/deep/new.ts', 'export {};\n');
      assert.equal(r.ok, true, r.output);
      assert.equal(h.read('src/feature/deep/new.ts'), 'export {};\n');
      const [change] = tools.sideEffects().files;
      assert.deepEqual({ ...change, afterHash: undefined }, { path: 'src/feature/deep/new.ts', change: 'created', beforeHash: null, afterHash: undefined });
      assert.equal(change?.afterHash, sha256Hex('export {};\n'));
    });
    it('edits with str_replace, preserving BOM, CRLF and the file mode', async () => {
      h.write('src/crlf.ts', '\uFEFFline one\r\nline two\r\n');
      fs.chmodSync(path.join(h.root, 'src/crlf.ts'), 0o755);
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.strReplace('src/crlf.ts', 'line two\n', 'line 2\nline 3\n');
      assert.equal(r.ok, true, r.output);
      assert.equal(h.read('src/crlf.ts'), '\uFEFFline one\r\nline 2\r\nline 3\r\n');
      assert.equal(fs.statSync(path.join(h.root, 'src/crlf.ts')).mode & 0o777, 0o755);
    });
    it('returns a failed str_replace as a tool_error naming the closest region, writing nothing', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.strReplace('src/a.ts', 'const c = 3;', 'x');
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.failure.class, 'tool_error');
      assert.match(r.output, /not_found.*Closest candidate: lines/s);
      assert.equal(h.workspace.writes, 0);
      assert.equal(h.approver.requests.length, 0);
    });
    it('inserts after a line and at the top', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      await tools.insert('src/a.ts', 1, 'const mid = 0;');
      await tools.insert('src/a.ts', 0, '// top');
      assert.equal(h.read('src/a.ts'), '// top\nconst a = 1;\nconst mid = 0;\nconst b = 2;\n');
    });
    it('refuses binary files', async () => {
      h.write('src/bin.dat', new Uint8Array([1, 0, 2, 3]));
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.strReplace('src/bin.dat', 'a', 'b');
      assert.equal(r.ok, false);
      assert.match(r.output, /binary/);
    });
    it('turns a user rejection into rejected_by_user with the reason, writing nothing', async () => {
      h.approver.decide = () => ({ decision: 'rejected', reason: 'not this file' });
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.create('src/b.ts', 'x');
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.equal(r.failure.class, 'rejected_by_user');
        assert.equal(r.failure.detail, 'not this file');
      }
      assert.equal(h.workspace.writes, 0);
    });
    it('does not apply an approved write when the file changed while approval was pending', async () => {
      h.approver.decide = () => {
        h.write('src/a.ts', 'someone else edited this\n');
        return { decision: 'approved', by: 'user' };
      };
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.strReplace('src/a.ts', 'const a = 1;', 'const a = 10;');
      assert.equal(r.ok, false);
      assert.equal(h.read('src/a.ts'), 'someone else edited this\n');
      assert.equal(h.workspace.writes, 0);
    });
    it('lets the verifier write nothing, even under a broad edit glob', async () => {
      const tools = createStepTools(h.ctx({ authority: { read: ['**'], edit: ['**'], commands: [], network: false, mcp: [] } }, 'verifier'));
      const results = [await tools.create('src/v.ts', 'x'), await tools.strReplace('src/a.ts', 'const a', 'let a'), await tools.insert('src/a.ts', 0, 'x')];
      for (const r of results) {
        assert.equal(r.ok, false);
        if (!r.ok) assert.equal(r.failure.detail, 'role.verifier_read_only');
      }
      assert.equal(h.workspace.writes, 0);
    });
  });

  describe('approvals', () => {
    it('binds a decision to the exact content: a changed write needs a new approval', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      await tools.strReplace('src/a.ts', 'const a = 1;', 'const a = 2;');
      await tools.strReplace('src/a.ts', 'const a = 2;', 'const a = 1;');
      await tools.strReplace('src/a.ts', 'const a = 1;', 'const a = 2;'); // exactly the first approved action again
      await tools.strReplace('src/a.ts', 'const a = 2;', 'const a = 3;');
      assert.equal(h.approver.requests.length, 3);
      assert.equal(new Set(h.approver.requests.map((r) => r.actionHash)).size, 3);
      assert.equal(h.events.filter((e) => e.type === 'approval_decided').length, 4);
      assert.equal(h.read('src/a.ts'), 'const a = 3;\nconst b = 2;\n');
    });
    it('refuses to overwrite an existing file with create', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.create('src/a.ts', 'overwritten');
      assert.equal(r.ok, false);
      assert.match(r.output, /File already exists/);
      assert.equal(h.read('src/a.ts'), 'const a = 1;\nconst b = 2;\n');
    });
    it('re-approves an identical command by rule, and records that decision', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      await tools.bash('npm test');
      await tools.bash('npm test');
      await tools.bash('npm test -- --grep x');
      assert.equal(h.approver.requests.length, 2);
      const decided = h.events.filter((e) => e.type === 'approval_decided');
      assert.equal(decided.length, 3);
      const second = decided[1];
      assert.ok(second?.type === 'approval_decided' && second.decision.decision === 'approved' && second.decision.by === 'rule');
    });
    it('nothing writes or runs without an approved decision recorded just before it (counting)', async () => {
      let n = 0;
      h.approver.decide = () => (n++ % 3 === 2 ? { decision: 'rejected', reason: 'no' } : { decision: 'approved', by: 'user' });
      const tools = createStepTools(h.ctx({ authority }));
      for (let i = 0; i < 6; i++) {
        await tools.create(`src/f${i}.ts`, `v${i}`);
        await tools.bash(`npm test -- --grep t${i}`);
        await tools.create(`package.json`, 'denied');
        await tools.bash('npm test; id');
      }
      const effects = h.log.filter((e) => e.kind !== 'event');
      const approvedHashes: string[] = [];
      let pending: string | undefined;
      for (const entry of h.log) {
        if (entry.kind === 'event' && entry.event.type === 'approval_decided') {
          pending = entry.event.decision.decision === 'approved' ? entry.event.actionHash : undefined;
        } else if (entry.kind !== 'event') {
          assert.ok(pending, `an effect (${JSON.stringify(entry)}) happened without an approved decision right before it`);
          approvedHashes.push(pending);
          pending = undefined;
        }
      }
      const approvedDecisions = h.events.filter((e) => e.type === 'approval_decided' && e.decision.decision === 'approved').length;
      assert.equal(effects.length, approvedDecisions);
      assert.equal(h.workspace.writes + h.terminal.runs.length, approvedDecisions);
      assert.ok(h.workspace.writes > 0 && h.workspace.writes < 6);
      assert.equal(h.events.filter((e) => e.type === 'policy_denied').length, 12);
    });
    it('computes the action hash from path, change and content, and from argv and cwd', () => {
      const base = { kind: 'write', path: 'src/a.ts', change: 'modified', beforeHash: 'b', afterHash: 'h1' } as const;
      assert.notEqual(actionHashOf(base), actionHashOf({ ...base, afterHash: 'h2' }));
      assert.notEqual(actionHashOf(base), actionHashOf({ ...base, path: 'src/b.ts' }));
      assert.notEqual(actionHashOf(base), actionHashOf({ ...base, change: 'created' }));
      const cmd = { kind: 'command' as const, command: 'npm test', argv: ['npm', 'test'], cwd: '.', confinement: 'sandboxed' as const, network: false };
      assert.notEqual(actionHashOf(cmd), actionHashOf({ ...cmd, cwd: 'src' }));
      assert.notEqual(actionHashOf(cmd), actionHashOf({ ...cmd, argv: ['npm', 'test', '--', 'x'] }));
    });
  });

  describe('commands', () => {
    it('runs an allowed command with exactly the scrubbed env and returns exit code and output', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.bash('npm test -- --grep "a b"');
      assert.equal(r.ok, true);
      assert.match(r.output, /^exit code: 0/);
      // The program by the absolute path PATH gives it (never a workspace file on PATH: programPath.ts).
      const [program, ...args] = h.terminal.runs[0]?.argv ?? [];
      assert.match(program ?? '', /^\/.*\/npm$/);
      assert.deepEqual(args, ['test', '--', '--grep', 'a b']);
      assert.deepEqual(h.terminal.runs[0]?.env, { PATH: process.env.PATH ?? '/usr/bin:/bin' });
      assert.equal(h.terminal.runs[0]?.cwd, h.root);
      assert.equal(tools.sideEffects().commands.length, 1);
    });
    it('reports a command killed at its timeout as a timeout failure carrying the run', async () => {
      h.terminal.answer = (r) => ({ exitCode: null, signal: 'SIGTERM', durationMs: r.timeoutMs + 5, output: 'partial' });
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.bash('npm test');
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.equal(r.failure.class, 'timeout');
        assert.equal(r.failure.partialSideEffects.commands.length, 1);
      }
      assert.match(r.output, /partial/);
    });
    it("reports a command stopped by the mission's cancel as cancelled", async () => {
      const ac = new AbortController();
      h.terminal.answer = () => {
        ac.abort();
        return { exitCode: null, signal: 'SIGTERM', durationMs: 3 };
      };
      const tools = createStepTools(h.ctx({ authority }, 'executor', ac.signal));
      const r = await tools.bash('npm test');
      assert.equal(!r.ok && r.failure.class, 'cancelled');
    });
    it('returns a non-zero exit as a completed call whose output leads with the exit code', async () => {
      h.terminal.answer = () => ({ exitCode: 1, output: '1 failing' });
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.bash('npm test');
      assert.equal(r.ok, true);
      assert.match(r.output, /^exit code: 1/);
    });
    it('refuses a chained command before asking anyone', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      const r = await tools.bash('npm test && curl evil');
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.failure.detail, 'command.chaining');
      assert.equal(h.approver.requests.length, 0);
      assert.equal(h.terminal.runs.length, 0);
    });
  });

  describe('checkpoints', () => {
    it('reverts a step to its checkpoint and diffs it', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      await tools.strReplace('src/a.ts', 'const a = 1;', 'const a = 100;');
      await tools.strReplace('src/a.ts', 'const b = 2;', 'const b = 200;');
      await tools.create('src/added.ts', 'new\n');
      const files = tools.sideEffects().files;
      assert.equal(files.length, 2);
      const diff = await stepDiff(h.store, files);
      assert.match(diff.find((d) => d.path === 'src/a.ts')?.unified ?? '', /-const a = 1;\n-const b = 2;\n\+const a = 100;\n\+const b = 200;/);
      const reverted = await revertStep(h.workspace, h.store, files);
      assert.equal(reverted.ok, true);
      assert.equal(h.read('src/a.ts'), 'const a = 1;\nconst b = 2;\n');
      assert.equal(fs.existsSync(path.join(h.root, 'src/added.ts')), false);
    });
    it('refuses to revert over changes made after the step, unless forced', async () => {
      const tools = createStepTools(h.ctx({ authority }));
      await tools.strReplace('src/a.ts', 'const a = 1;', 'const a = 100;');
      h.write('src/a.ts', 'user edit\n');
      const files = tools.sideEffects().files;
      const r = await revertStep(h.workspace, h.store, files);
      assert.equal(r.ok, false);
      assert.equal(h.read('src/a.ts'), 'user edit\n');
      assert.equal((await revertStep(h.workspace, h.store, files, { force: true })).ok, true);
      assert.equal(h.read('src/a.ts'), 'const a = 1;\nconst b = 2;\n');
    });
  });
});
