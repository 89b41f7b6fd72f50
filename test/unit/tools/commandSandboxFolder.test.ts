/**
 * A literal edit glob (`src/a.ts`, `package.json`) under the real bubblewrap sandbox: its folder's direct
 * entries are writable, so tools that replace a file through a temporary file beside it (sed -i, npm's
 * write-file-atomic, formatters, git restore) work; the folder's existing subfolders stay read-only; and
 * whatever else the command leaves in the folder is rolled back and named.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Step } from '../../../src/core/contracts/plan';
import type { StepToolsContext } from '../../../src/core/ports';
import { createStepTools } from '../../../src/core/tools/stepTools';
import { NodeTerminal } from '../../../src/node/nodeTerminal';
import { detectSandbox } from '../../../src/node/sandbox/detect';
import { makeHarness, type Harness } from './harness';

const sh = (script: string): string => `node -e '${script}'`;
/** What npm's write-file-atomic and most formatters do: a temporary file beside the target, renamed over it. */
const atomicWrite = (rel: string, text: string): string =>
  `fs.writeFileSync(${JSON.stringify(`${rel}.tmp-1`)}, ${JSON.stringify(text)}); fs.renameSync(${JSON.stringify(`${rel}.tmp-1`)}, ${JSON.stringify(rel)});`;

describe("commands under a one-file edit scope (the folder's direct entries, in the OS sandbox)", function () {
  this.timeout(30_000);
  let h: Harness;
  const real = (edit: string[], commands: string[] = ['node -e *']): StepToolsContext => {
    const ctx = h.ctx({ authority: { read: ['**'], edit, commands, network: false, mcp: [] } satisfies Step['authority'] });
    return { ...ctx, terminal: new NodeTerminal(), settings: { ...ctx.settings, sandbox: 'required' } };
  };

  before(function () {
    if (process.platform !== 'linux') this.skip();
    const support = detectSandbox();
    assert.ok(support.available, `bubblewrap must be installed and working: ${support.available ? '' : support.reason}`);
  });
  beforeEach(() => {
    h = makeHarness({
      'src/a.ts': 'export const a = 1;\n',
      'src/data.json': '{"v":1}\n',
      'src/lib/util.ts': 'export const u = 1;\n',
      'package.json': '{"name":"x"}\n',
      'README.md': 'readme\n',
      'docs/guide.md': 'guide\n',
    });
  });
  afterEach(() => h.cleanup());

  it('lets sed -i edit the file in place (a temporary file beside it, renamed over it)', async () => {
    const tools = createStepTools(real(['src/a.ts'], ['sed -i s/1/2/ src/a.ts']));
    const r = await tools.bash('sed -i s/1/2/ src/a.ts');
    assert.equal(r.ok, true, r.output);
    assert.equal(h.read('src/a.ts'), 'export const a = 2;\n');
    assert.deepEqual(fs.readdirSync(path.join(h.root, 'src')).sort(), ['a.ts', 'data.json', 'lib'], 'no temporary file is left');
    assert.deepEqual(
      tools.sideEffects().files.map((f) => [f.path, f.change]),
      [['src/a.ts', 'modified']],
      'the change is in the checkpoint',
    );
  });

  it('keeps the atomically replaced file, rolls back a sibling outside the globs, and names it', async () => {
    const tools = createStepTools(real(['src/a.ts']));
    const r = await tools.bash(
      sh(
        `const fs=require("fs"); ${atomicWrite('src/a.ts', 'export const a = 3;\n')} fs.writeFileSync("src/data.json", "{}"); fs.writeFileSync("src/stray.ts", "x");`,
      ),
    );
    assert.ok(!r.ok && r.failure.class === 'permission_denied' && r.failure.detail === 'sandbox.outside_edit_scope', r.output);
    assert.match(r.output, /src\/data\.json/);
    assert.match(r.output, /src\/stray\.ts/);
    assert.equal(h.read('src/a.ts'), 'export const a = 3;\n', 'the replaced file stays');
    assert.equal(h.read('src/data.json'), '{"v":1}\n', 'the sibling is restored');
    assert.ok(!fs.existsSync(path.join(h.root, 'src/stray.ts')), 'the new sibling is removed');
    assert.deepEqual(
      tools.sideEffects().files.map((f) => f.path),
      ['src/a.ts'],
    );
  });

  it("keeps the folder's existing subfolders read-only: no write, no rename, no removal", async () => {
    const tools = createStepTools(real(['src/a.ts']));
    const attempt = (what: string, code: string): string => `try { ${code}; console.log("${what}:done"); } catch (e) { console.log("${what}:" + e.code); }`;
    const r = await tools.bash(
      sh(
        `const fs=require("fs"); ${[
          attempt('write', 'fs.writeFileSync("src/lib/util.ts", "planted")'),
          attempt('create', 'fs.writeFileSync("src/lib/new.ts", "planted")'),
          attempt('rename', 'fs.renameSync("src/lib", "src/lib2")'),
          attempt('remove', 'fs.rmSync("src/lib", { recursive: true })'),
        ].join(' ')}`,
      ),
    );
    assert.equal(r.ok, true, r.output);
    for (const what of ['write', 'create', 'rename', 'remove']) assert.match(r.output, new RegExp(`${what}:(EROFS|EBUSY|EPERM|EACCES)`), r.output);
    assert.equal(h.read('src/lib/util.ts'), 'export const u = 1;\n');
    assert.deepEqual(fs.readdirSync(path.join(h.root, 'src/lib')), ['util.ts']);
  });

  it('removes a new subfolder the command made in the folder, whole, and names it', async () => {
    const r = await createStepTools(real(['src/a.ts'])).bash(
      sh(`const fs=require("fs"); fs.mkdirSync("src/cache/deep", { recursive: true }); fs.writeFileSync("src/cache/deep/x.bin", "x");`),
    );
    assert.ok(!r.ok && r.failure.class === 'permission_denied', r.output);
    assert.match(r.output, /src\/cache\//);
    assert.ok(!fs.existsSync(path.join(h.root, 'src/cache')));
  });

  it('lets a top-level package.json be replaced atomically, and rolls back the rest of the workspace root', async () => {
    const tools = createStepTools(real(['package.json']));
    const r = await tools.bash(
      sh(
        `const fs=require("fs"); ${atomicWrite('package.json', '{"name":"y"}\n')} fs.writeFileSync("README.md", "changed"); fs.mkdirSync(".vscode"); fs.writeFileSync(".vscode/tasks.json", "{}"); try { fs.writeFileSync("docs/guide.md", "x"); } catch (e) { console.log("docs:" + e.code); }`,
      ),
    );
    assert.ok(!r.ok && r.failure.class === 'permission_denied', r.output);
    assert.match(r.output, /docs:EROFS/, 'an old top-level folder is read-only');
    assert.equal(h.read('package.json'), '{"name":"y"}\n');
    assert.equal(h.read('README.md'), 'readme\n');
    assert.equal(h.read('docs/guide.md'), 'guide\n');
    assert.ok(!fs.existsSync(path.join(h.root, '.vscode')), 'a new protected folder goes whole');
    assert.deepEqual(
      tools.sideEffects().files.map((f) => f.path),
      ['package.json'],
    );
  });

  it('lets git restore put back one file the step may edit (it unlinks and recreates it)', async () => {
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: h.root, encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '-m', 'base');
    fs.writeFileSync(path.join(h.root, 'src/a.ts'), 'broken\n');
    const r = await createStepTools(real(['src/a.ts'], ['git restore *'])).bash('git restore src/a.ts');
    assert.equal(r.ok, true, r.output);
    assert.equal(h.read('src/a.ts'), 'export const a = 1;\n');
    assert.equal(git('status', '--porcelain'), '');
  });
});
