/**
 * Private build outputs for real (Linux, bubblewrap): a command writes the folders git ignores (dist/,
 * build/, coverage/) in a copy of its own, which never reaches the workspace. Every assertion looks at
 * what the process saw and at the disk afterwards. On Linux without bubblewrap these tests fail (they
 * never pass in silence); elsewhere they are pending.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { authority, type AuthorityInput } from '../../support/fixtures';
import type { SandboxSpec } from '../../../src/core/contracts/sandbox';
import { scrubEnv } from '../../../src/core/policy/env';
import { hostFacts } from '../../../src/node/sandbox/hostFacts';
import { policyFor } from '../../../src/core/policy/policy';
import { commandWriteScope, sandboxSpec, scanPrune } from '../../../src/core/policy/sandboxSpec';
import { NodeTerminal } from '../../../src/node/nodeTerminal';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { detectSandbox } from '../../../src/node/sandbox/detect';
import { COPY_MAX_ENTRIES } from '../../../src/node/sandbox/privateOutputs';
import { nodePolicyFs } from '../../../src/node/nodePolicyFs';

const node = '/usr/bin/node';

/** Every path under a folder with its content ('' for folders), to compare the disk before and after. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const d of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        out[r] = '';
        walk(r);
      } else out[r] = d.isFile() ? fs.readFileSync(path.join(dir, r), 'utf8') : `(${d.isSymbolicLink() ? 'link' : 'special'})`;
    }
  };
  walk('');
  return out;
}

describe('private build outputs (bubblewrap, real commands)', function () {
  this.timeout(30_000);
  let base: string;
  let root: string;
  const terminal = new NodeTerminal();

  before(function () {
    if (process.platform !== 'linux') this.skip();
    const support = detectSandbox();
    assert.ok(
      support.available,
      `bubblewrap must be installed and working for these tests: ${support.available ? '' : `${support.reason} — ${support.remedy}`}`,
    );
  });

  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-outputs-')));
    root = path.join(base, 'ws');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(path.join(root, 'dist'));
    fs.writeFileSync(path.join(root, 'src', 'a.js'), 'a\n');
    fs.writeFileSync(path.join(root, 'dist', 'old.js'), 'console.log("old build")\n');
    fs.writeFileSync(path.join(root, '.gitignore'), 'dist/\n/build\ncoverage\n');
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  async function specFor(granted: AuthorityInput, role: 'executor' | 'verifier' = 'executor'): Promise<SandboxSpec> {
    const policy = policyFor(root, { id: 's', authority: authority(granted) }, { fs: nodePolicyFs, ignoreText: null, role });
    const { entries } = await new NodeWorkspace(root).scan({ prune: scanPrune(policy, commandWriteScope(policy)), limit: 10_000 });
    const env = scrubEnv(process.env);
    const built = sandboxSpec({ policy, entries, env, host: hostFacts(env) });
    assert.ok(built.ok);
    return built.value;
  }

  async function run(spec: SandboxSpec, script: string) {
    return terminal.run(
      { command: 'node -e …', argv: [node, '-e', script], cwd: root, timeoutMs: 15_000, maxOutputBytes: 64_000, env: spec.env, sandbox: spec },
      new AbortController().signal,
    );
  }

  /** Builds into dist/ (and a missing build/ and coverage/), then runs what it built — in one command. */
  const buildThenRun = `
    const fs = require('fs');
    const { execFileSync } = require('child_process');
    const old = fs.readFileSync('dist/old.js', 'utf8');
    fs.mkdirSync('dist/sub', { recursive: true });
    fs.writeFileSync('dist/sub/a.js', 'console.log("built " + 6 * 7)');
    fs.writeFileSync('dist/old.js', 'overwritten');
    fs.mkdirSync('build/x', { recursive: true });
    fs.writeFileSync('coverage/lcov.info', 'TN:');
    console.log(JSON.stringify({ old, ran: execFileSync(process.execPath, ['dist/sub/a.js'], { encoding: 'utf8' }).trim() }));`;

  it('lets a command build into ignored folders and use what it built; the workspace keeps its own content and gets none of it', async () => {
    const before = tree(root);
    const r = await run(await specFor({ edit: ['src/**'] }), buildThenRun);
    assert.equal(r.exitCode, 0, r.output);
    const seen = JSON.parse(r.output.trim().split('\n').pop() ?? '{}') as { old: string; ran: string };
    assert.equal(seen.old, 'console.log("old build")\n', 'the copy holds the existing build');
    assert.equal(seen.ran, 'built 42');
    assert.deepEqual(tree(root), before, 'no dist/sub, dist/old.js unchanged, no build/ or coverage/ left behind');
  });

  it('gives the verifier (no writable path at all) the same: an evidence command that builds then tests passes', async () => {
    const spec = await specFor({ edit: ['src/**'] }, 'verifier');
    assert.deepEqual(spec.writable, []);
    const before = tree(root);
    const r = await run(spec, buildThenRun);
    assert.equal(r.exitCode, 0, r.output);
    assert.deepEqual(tree(root), before);
  });

  it('leaves an ignored folder inside the write scope writable on the host, as before (the checkpoint covers it)', async () => {
    const r = await run(await specFor({ edit: ['dist/**'] }), `require('fs').writeFileSync('dist/new.js', 'x'); require('fs').writeFileSync('build/out', 'x')`);
    assert.equal(r.exitCode, 0, r.output);
    assert.equal(fs.readFileSync(path.join(root, 'dist', 'new.js'), 'utf8'), 'x');
    assert.ok(!fs.existsSync(path.join(root, 'build')), 'build/ was private');
  });

  it('gives a hostile .gitignore naming src, .git and node_modules no write on the host', async () => {
    fs.mkdirSync(path.join(root, '.git'));
    fs.writeFileSync(path.join(root, '.git', 'config'), '[core]\n');
    fs.mkdirSync(path.join(root, 'node_modules', 'dep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    fs.writeFileSync(path.join(root, '.gitignore'), 'src\n.git\nnode_modules\n.gitignore\n');
    const before = tree(root);
    const r = await run(
      await specFor({ edit: [] }),
      `
      const fs = require('fs');
      const tryWrite = (p) => { try { fs.writeFileSync(p, 'pwned'); return 'wrote'; } catch (e) { return e.code; } };
      console.log(JSON.stringify({ src: tryWrite('src/a.js'), git: tryWrite('.git/config'), deps: tryWrite('node_modules/dep/index.js'), ignore: tryWrite('.gitignore') }));`,
    );
    const seen = JSON.parse(r.output.trim().split('\n').pop() ?? '{}') as Record<string, string>;
    assert.equal(seen.src, 'wrote', 'src is a private copy');
    assert.notEqual(seen.git, 'wrote');
    assert.notEqual(seen.deps, 'wrote');
    assert.notEqual(seen.ignore, 'wrote');
    assert.deepEqual(tree(root), before, 'nothing changed on the host');
  });

  it("gives two commands running side by side a copy each: neither sees the other's files", async () => {
    const spec = await specFor({ edit: ['src/**'] });
    const script = (name: string): string => `
      const fs = require('fs');
      fs.writeFileSync('dist/${name}', '${name}');
      fs.mkdirSync('build', { recursive: true });
      fs.writeFileSync('build/${name}', '${name}');
      setTimeout(() => console.log(JSON.stringify([...fs.readdirSync('dist'), ...fs.readdirSync('build')].sort())), 1500);`;
    const [a, b] = await Promise.all([run(spec, script('a.txt')), run(spec, script('b.txt'))]);
    assert.equal(a.exitCode, 0, a.output);
    assert.equal(b.exitCode, 0, b.output);
    assert.deepEqual(JSON.parse(a.output.trim().split('\n').pop() ?? '[]'), ['a.txt', 'a.txt', 'old.js']);
    assert.deepEqual(JSON.parse(b.output.trim().split('\n').pop() ?? '[]'), ['b.txt', 'b.txt', 'old.js']);
    assert.ok(!fs.existsSync(path.join(root, 'build')), 'the shared placeholder is gone once both are done');
    assert.deepEqual(fs.readdirSync(path.join(root, 'dist')), ['old.js']);
  });

  it('keeps a folder too large to copy read-only, and says so', async () => {
    for (let i = 0; i <= COPY_MAX_ENTRIES; i++) fs.writeFileSync(path.join(root, 'dist', `f${i}.js`), '');
    const r = await run(
      await specFor({ edit: ['src/**'] }),
      `try { require('fs').writeFileSync('dist/new.js', 'x'); console.log('wrote') } catch (e) { console.log(e.code) }`,
    );
    assert.match(r.output, new RegExp(`dist is ignored by git but more than ${COPY_MAX_ENTRIES} entries: it stays read-only`));
    assert.match(r.output, /EROFS/);
    assert.ok(!fs.existsSync(path.join(root, 'dist', 'new.js')));
  });

  it("keeps each copied file's times and mode (make and incremental compilers decide by them)", async () => {
    fs.utimesSync(path.join(root, 'dist', 'old.js'), 1_000_000, 1_000_000);
    fs.chmodSync(path.join(root, 'dist', 'old.js'), 0o750);
    const r = await run(
      await specFor({ edit: ['src/**'] }),
      `const s = require('fs').statSync('dist/old.js'); console.log(JSON.stringify([s.mtimeMs, s.mode & 0o777]))`,
    );
    assert.deepEqual(JSON.parse(r.output.trim().split('\n').pop() ?? '[]'), [1_000_000_000, 0o750], r.output);
  });

  it('does not copy a hidden entry into the private copy', async () => {
    fs.writeFileSync(path.join(root, 'dist', '.env'), 'TOKEN=canary-in-dist\n');
    const r = await run(
      await specFor({ edit: ['src/**'] }),
      `const fs = require('fs'); let s = ''; try { s = fs.readFileSync('dist/.env', 'utf8') } catch (e) { s = e.code } console.log(JSON.stringify(s)); fs.writeFileSync('dist/x', 'x')`,
    );
    assert.equal(r.exitCode, 0, r.output);
    assert.doesNotMatch(r.output, /canary-in-dist/);
  });
});
