/**
 * The bash tool with the real Node terminal (bubblewrap on Linux): what a command changes inside the edit
 * globs joins the step's checkpoint, what it changes outside them is undone and named in a
 * permission_denied failure; and the sandbox setting (required / prefer / off) decides, before approval,
 * whether a command runs confined, asks to run unconfined, or is refused.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Step } from '../../../src/core/contracts/plan';
import type { SandboxMode } from '../../../src/core/contracts/sandbox';
import type { StepToolsContext } from '../../../src/core/ports';
import { revertStep, stepDiff } from '../../../src/core/tools/checkpoints';
import { createStepTools } from '../../../src/core/tools/stepTools';
import { NodeTerminal } from '../../../src/node/nodeTerminal';
import { detectSandbox } from '../../../src/node/sandbox/detect';
import { makeHarness, type Harness } from './harness';

const sh = (script: string): string => `node -e '${script}'`;

function authority(extra: Partial<Step['authority']> = {}): Step['authority'] {
  return { read: ['**'], edit: ['src/**/*.ts'], commands: ['node -e *'], network: false, mcp: [], ...extra };
}

describe("commands in the OS sandbox, with the step's checkpoint", function () {
  this.timeout(30_000);
  let h: Harness;
  const real = (harness: Harness, a: Step['authority'], sandbox: SandboxMode = 'required'): StepToolsContext => {
    const ctx = harness.ctx({ authority: a });
    return { ...ctx, terminal: new NodeTerminal(), settings: { ...ctx.settings, sandbox } };
  };

  before(function () {
    if (process.platform !== 'linux') this.skip();
    const support = detectSandbox();
    assert.ok(support.available, `bubblewrap must be installed and working: ${support.available ? '' : support.reason}`);
  });
  beforeEach(() => {
    h = makeHarness({ 'src/a.ts': 'export const a = 1;\n', 'src/data.json': '{"v":1}\n', 'README.md': 'readme\n' });
    fs.mkdirSync(path.join(h.dir, 'neighbour'));
    fs.writeFileSync(path.join(h.dir, 'neighbour', 'keep.txt'), 'neighbour\n');
  });
  afterEach(() => h.cleanup());

  it('puts what a command changed inside the edit globs in the checkpoint: its diff and Revert step cover it', async () => {
    const tools = createStepTools(real(h, authority()));
    const r = await tools.bash(sh(`const fs=require("fs"); fs.writeFileSync("src/a.ts","export const a = 2;\\n"); fs.writeFileSync("src/b.ts","new\\n");`));
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /files changed by the command: src\/a\.ts \(modified\), src\/b\.ts \(created\)/);
    const files = tools.sideEffects().files;
    assert.deepEqual(files.map((f) => [f.path, f.change]).sort(), [
      ['src/a.ts', 'modified'],
      ['src/b.ts', 'created'],
    ]);
    const diff = await stepDiff(h.store, files);
    assert.match(diff.find((d) => d.path === 'src/a.ts')?.unified ?? '', /-export const a = 1;\n\+export const a = 2;/);
    const reverted = await revertStep(h.workspace, h.store, files);
    assert.equal(reverted.ok, true);
    assert.equal(h.read('src/a.ts'), 'export const a = 1;\n');
    assert.ok(!fs.existsSync(path.join(h.root, 'src/b.ts')));
  });

  it('undoes what a command changed outside the edit globs and fails with permission_denied naming the paths', async () => {
    const tools = createStepTools(real(h, authority()));
    const r = await tools.bash(
      sh(
        `const fs=require("fs"); fs.writeFileSync("src/a.ts","kept\\n"); fs.writeFileSync("src/data.json","{}"); fs.writeFileSync("src/notes.md","x"); fs.mkdirSync("src/cache/deep",{recursive:true}); fs.writeFileSync("src/cache/deep/x.bin","x");`,
      ),
    );
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.failure.class === 'permission_denied' && r.failure.detail === 'sandbox.outside_edit_scope');
    assert.match(r.output, /src\/data\.json/);
    assert.match(r.output, /src\/notes\.md/);
    assert.equal(h.read('src/data.json'), '{"v":1}\n', 'restored');
    assert.ok(!fs.existsSync(path.join(h.root, 'src/notes.md')), 'removed');
    assert.ok(!fs.existsSync(path.join(h.root, 'src/cache')), 'the folders it made for them too');
    assert.equal(h.read('src/a.ts'), 'kept\n', 'the in-glob change stays');
    assert.deepEqual(
      tools.sideEffects().files.map((f) => f.path),
      ['src/a.ts'],
      'and is in the checkpoint',
    );
    const event = h.events.find((e) => e.type === 'command_sandbox');
    assert.ok(event && event.type === 'command_sandbox' && event.confinement === 'sandboxed' && event.sandbox === 'bubblewrap');
    assert.ok(event.rolledBack.includes('src/data.json') && event.rolledBack.includes('src/notes.md'));
  });

  it('undoes a file swapped for a link to outside without writing through the link', async () => {
    const tools = createStepTools(real(h, authority()));
    const target = path.join(h.dir, 'neighbour', 'keep.txt');
    // Inside the sandbox the neighbour is hidden, so the link is made to its host path and left for the rollback.
    const r = await tools.bash(
      sh(
        `const fs=require("fs"); fs.unlinkSync("src/data.json"); fs.symlinkSync(${JSON.stringify(target)}, "src/data.json"); fs.symlinkSync("../../neighbour", "src/cache");`,
      ),
    );
    assert.equal(r.ok, false, r.output);
    assert.equal(fs.lstatSync(path.join(h.root, 'src/data.json')).isFile(), true);
    assert.equal(h.read('src/data.json'), '{"v":1}\n');
    assert.equal(fs.readFileSync(target, 'utf8'), 'neighbour\n', 'the link target was not written');
    assert.ok(!fs.existsSync(path.join(h.root, 'src/cache')), 'the link to a folder outside is unlinked');
    assert.deepEqual(fs.readdirSync(path.join(h.dir, 'neighbour')), ['keep.txt'], 'and the folder it pointed at is intact');
  });

  it('keeps a hard-linked file in the scope read-only: a write through it would land on its other path', async () => {
    fs.linkSync(path.join(h.root, 'README.md'), path.join(h.root, 'src/notes.ts'));
    const r = await createStepTools(real(h, authority())).bash(
      sh(`try { require("fs").appendFileSync("src/notes.ts", "planted"); console.log("wrote"); } catch (e) { console.log(e.code); }`),
    );
    assert.match(r.output, /EROFS|EACCES|EPERM/, r.output);
    assert.equal(h.read('README.md'), 'readme\n', 'the other path is untouched');
  });

  it('removes, whole, a new folder too deep to list, and says so', async () => {
    // 600 levels of a 9-character name: far past PATH_MAX (4096), made by relative chdir.
    const r = await createStepTools(real(h, authority())).bash(
      sh(
        `const fs=require("fs"); process.chdir("src"); for (let i = 0; i < 600; i++) { fs.mkdirSync("deep-dir1"); process.chdir("deep-dir1"); } fs.writeFileSync("bottom.ts", "x");`,
      ),
    );
    assert.equal(r.ok, false, r.output);
    assert.match(r.output, /src\/deep-dir1\//);
    assert.ok(!fs.existsSync(path.join(h.root, 'src/deep-dir1')), 'the tree is gone');
  });

  it('fails closed when the command makes too many entries to list: new folders go whole, old files are compared', async () => {
    const ctx = real(h, authority());
    let scans = 0;
    const inner = ctx.workspace;
    const workspace: typeof inner = {
      get root() {
        return inner.root;
      },
      policyFs: inner.policyFs,
      readFile: (p) => inner.readFile(p),
      stat: (p) => inner.stat(p),
      readDir: (p) => inner.readDir(p),
      applyWrites: (w, l) => inner.applyWrites(w, l),
      removeEntries: (p, r) => inner.removeEntries(p, r),
      // The first scan after the command pretends to hit the entry limit.
      scan: async (o) => (++scans === 2 ? { entries: [], truncated: true } : inner.scan(o)),
    };
    const r = await createStepTools({ ...ctx, workspace }).bash(
      sh(
        `const fs=require("fs"); fs.writeFileSync("src/data.json","{}"); fs.mkdirSync("src/junk/a",{recursive:true}); fs.writeFileSync("src/junk/a/x","x"); fs.writeFileSync("src/a.ts","kept\\n");`,
      ),
    );
    assert.equal(r.ok, false, r.output);
    assert.equal(h.read('src/data.json'), '{"v":1}\n', 'an old file outside the globs is restored');
    assert.ok(!fs.existsSync(path.join(h.root, 'src/junk')), 'the new folder is removed whole');
    assert.match(r.output, /src\/junk\//);
    assert.equal(h.read('src/a.ts'), 'kept\n', 'the change the step may make stays');
  });

  it('lets a step granted git commit commit, and undoes what it plants in .git', async () => {
    execFileSync('git', ['init', '-q'], { cwd: h.root });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'base'], { cwd: h.root });
    const a = authority({ commands: ['git commit *', 'git add *', 'node -e *'], edit: ['src/**'] });
    const ctx = real(h, a);
    // This machine's user may have no git identity; the step's environment names one.
    const who = { GIT_AUTHOR_NAME: 'Step', GIT_AUTHOR_EMAIL: 'step@example.invalid', GIT_COMMITTER_NAME: 'Step', GIT_COMMITTER_EMAIL: 'step@example.invalid' };
    const tools = createStepTools({ ...ctx, env: { ...ctx.env, ...who } });
    assert.equal((await tools.bash(sh(`require("fs").writeFileSync("src/a.ts","export const a = 3;\\n")`))).ok, true);
    assert.equal((await tools.bash('git add src/a.ts')).ok, true);
    const commit = await tools.bash('git commit -q -m step');
    assert.equal(commit.ok, true, commit.output);
    assert.match(execFileSync('git', ['log', '--format=%s', '-1'], { cwd: h.root, encoding: 'utf8' }), /^step/);
    const planted = await tools.bash(
      sh(
        `const fs=require("fs"); fs.writeFileSync(".git/commondir","../src"); try { fs.writeFileSync(".git/hooks/pre-commit","#!/bin/sh\\necho pwned"); } catch (e) { console.log(e.code); }`,
      ),
    );
    assert.equal(planted.ok, false, planted.output);
    assert.ok(!fs.existsSync(path.join(h.root, '.git/commondir')), 'the redirect is undone');
    assert.ok(!fs.existsSync(path.join(h.root, '.git/hooks/pre-commit')), 'no hook');
    const status = execFileSync('git', ['status', '--short'], { cwd: h.root, encoding: 'utf8' });
    assert.match(status, /\?\? README\.md/, 'the repository still works (the harness files are untracked)');
  });

  it("tells the approver and the trace whether a granted network is the sandbox's own or the host's (its loopback services included)", async () => {
    for (const ownNetwork of [true, false]) {
      h.terminal.support = { available: true, kind: 'bubblewrap', detail: 'fake', ownNetwork };
      await createStepTools(h.ctx({ authority: authority({ network: true }) })).bash(`node -e ${ownNetwork ? 1 : 2}`);
      const asked = h.approver.requests.at(-1);
      assert.ok(asked?.kind === 'command' && asked.network && asked.hostLoopback === !ownNetwork, JSON.stringify(asked));
      const event = h.events.filter((e) => e.type === 'command_sandbox').at(-1);
      assert.ok(event?.type === 'command_sandbox' && event.hostLoopback === !ownNetwork, JSON.stringify(event));
    }
    await createStepTools(h.ctx({ authority: authority() })).bash('node -e 3');
    const denied = h.approver.requests.at(-1);
    assert.ok(denied?.kind === 'command' && !denied.network && denied.hostLoopback === undefined, 'no network: nothing to say about it');
  });

  it('refuses, under `required`, when the machine has no sandbox — before asking anyone, saying what to install', async () => {
    const ctx = h.ctx({ authority: authority() });
    h.terminal.support = {
      available: false,
      reason: 'bubblewrap (bwrap) is not installed',
      remedy: 'Install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap)',
    };
    const r = await createStepTools(ctx).bash('node -e 0');
    assert.ok(!r.ok && r.failure.cause === 'sandbox_unavailable' && /apt-get install bubblewrap/.test(r.output), r.output);
    assert.equal(h.terminal.runs.length, 0);
    assert.equal(h.approver.requests.length, 0);
  });

  it('asks, under `prefer` without a sandbox, every time — marked unsandboxed — and runs it unconfined', async () => {
    const ctx = h.ctx({ authority: authority() });
    h.terminal.support = { available: false, reason: 'no bwrap', remedy: '' };
    const tools = createStepTools({ ...ctx, settings: { ...ctx.settings, sandbox: 'prefer' } });
    assert.equal((await tools.bash('node -e 0')).ok, true);
    const second = await tools.bash('node -e 0');
    assert.equal(second.ok, true);
    assert.match(second.output, /UNSANDBOXED/);
    assert.deepEqual(
      h.approver.requests.map((r) => r.kind === 'command' && r.confinement),
      ['unsandboxed', 'unsandboxed'],
      'the same command is asked again',
    );
    assert.deepEqual(
      h.terminal.runs.map((r) => r.sandbox),
      [null, null],
    );
    assert.ok(h.events.some((e) => e.type === 'approval_requested' && /UNSANDBOXED/.test(e.summary)));
  });

  it('runs unconfined under `off`, marked sandbox_off, with the usual approval', async () => {
    const ctx = h.ctx({ authority: authority() });
    const tools = createStepTools({ ...ctx, settings: { ...ctx.settings, sandbox: 'off' } });
    await tools.bash('node -e 0');
    await tools.bash('node -e 0');
    assert.deepEqual(
      h.approver.requests.map((r) => r.kind === 'command' && r.confinement),
      ['sandbox_off'],
      'the second run reuses the approval of the same action',
    );
    assert.deepEqual(
      h.terminal.runs.map((r) => r.sandbox),
      [null, null],
    );
    assert.ok(h.events.some((e) => e.type === 'command_sandbox' && e.confinement === 'sandbox_off'));
  });
});
