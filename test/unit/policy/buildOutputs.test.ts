import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { authority, type AuthorityInput } from '../../support/fixtures';
import type { ScanEntry } from '../../../src/core/ports';
import { gitIgnoredFolders } from '../../../src/core/policy/buildOutputs';
import { policyFor } from '../../../src/core/policy/policy';
import { sandboxSpec, untouchableIn, type HostFacts } from '../../../src/core/policy/sandboxSpec';
import { nodePolicyFs } from '../../../src/node/nodePolicyFs';

function entries(...paths: string[]): ScanEntry[] {
  return paths.map((p) => ({ path: p.replace(/\/$/, ''), kind: p.endsWith('/') ? 'directory' : 'file', size: 1, mode: 0o644, signature: p }));
}

describe('build outputs (the folders git ignores)', () => {
  it('finds the existing folders git ignores, only the topmost, with nested ignore files and negations as git reads them', () => {
    const list = entries('dist/', 'dist/sub/', 'src/', 'src/gen/', 'pkg/', 'pkg/build/', 'pkg/keep/', 'logs/', 'a.log');
    const found = gitIgnoredFolders(list, [
      { dir: '', text: '# outputs\ndist/\n*.log\nbuild\nkeep/\n' },
      { dir: 'pkg', text: '!keep/\n' },
      { dir: 'src', text: 'gen/\n' },
    ]);
    assert.deepEqual(
      found.folders,
      ['build', 'dist', 'keep', 'pkg/build', 'src/gen'],
      'dist/sub is part of dist; pkg/keep is unignored by the deeper file; build and keep/ name root folders too',
    );
    assert.ok(found.ignored('dist/sub') && !found.ignored('pkg/keep') && !found.ignored('src'));
  });

  it('takes folders a pattern names literally, existing or not, relative to their ignore file; never a dotted name without a slash (a file)', () => {
    const found = gitIgnoredFolders(
      entries('src/'),
      [
        { dir: '', text: '/build\ntarget\ncoverage/\n.pytest_cache/\nout/**\n.eslintcache\nnpm-debug.log\n*.tsbuildinfo\n!coverage/keep\n' },
        { dir: 'packages/a', text: 'dist\n' },
      ],
      '.cache/\n',
    );
    assert.deepEqual(found.folders, ['.cache', '.pytest_cache', 'build', 'coverage', 'out', 'target', 'packages/a/dist']);
  });

  it('reads no ignore file inside an ignored folder, and no pattern that leaves its folder', () => {
    const found = gitIgnoredFolders(entries('vendor/'), [
      { dir: '', text: 'vendor/\n../outside\n/./x\na//b\n' },
      { dir: 'vendor', text: 'lib/\n' },
    ]);
    assert.deepEqual(found.folders, ['vendor']);
  });
});

describe('private outputs in the sandbox spec', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-outputs-spec-')));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  function spec(
    granted: AuthorityInput,
    list: ScanEntry[],
    files: Record<string, string>,
    options: { role?: 'executor' | 'verifier'; ignoreText?: string } = {},
  ) {
    const host: HostFacts = {
      platform: 'linux',
      home: '/home/ada',
      pathEntries: ['/usr/bin'],
      listDir: () => [],
      readIgnoreFile: (abs) => files[path.relative(root, abs)],
    };
    const policy = policyFor(
      root,
      { id: 's', authority: authority(granted) },
      { fs: nodePolicyFs, role: options.role ?? 'executor', ignoreText: options.ignoreText ?? null },
    );
    const built = sandboxSpec({ policy, entries: list, env: { PATH: '/usr/bin' }, host });
    assert.ok(built.ok, built.ok ? '' : built.error);
    return built.value;
  }

  it('makes the ignored folders outside the write scope private, for the executor and the verifier alike', () => {
    const list = entries('.gitignore', 'src/', 'dist/', 'dist/a.js', 'coverage/');
    const files = { '.gitignore': 'dist/\ncoverage/\ntarget\n' };
    assert.deepEqual(spec({ edit: ['src/**'] }, list, files).privateOutputs, ['coverage', 'dist', 'target']);
    assert.deepEqual(spec({ edit: ['src/**'] }, list, files, { role: 'verifier' }).privateOutputs, ['coverage', 'dist', 'target']);
  });

  it('leaves an ignored folder in the write scope writable as before (checkpointed), and one holding a write root private around it', () => {
    const list = entries('.gitignore', 'dist/', 'dist/types/', 'out/');
    const files = { '.gitignore': 'dist/\nout/\n' };
    assert.deepEqual(spec({ edit: ['dist/**'] }, list, files).privateOutputs, ['out']);
    assert.deepEqual(spec({ edit: ['**'] }, list, files).privateOutputs, []);
    const nested = spec({ edit: ['dist/types/**'] }, list, files);
    assert.deepEqual(nested.privateOutputs, ['dist', 'out']);
    assert.deepEqual(
      nested.writable.map((w) => w.path),
      ['dist/types'],
    );
  });

  it("keeps a folder root's ignored subfolder out of the checkpoint: the command writes its private copy", () => {
    const list = entries('.gitignore', 'package.json', 'dist/', 'dist/a.js', 'src/');
    const s = spec({ edit: ['package.json'] }, list, { '.gitignore': 'dist/\n' });
    assert.deepEqual(s.privateOutputs, ['dist']);
    assert.ok(untouchableIn(s, false)('dist/a.js'), 'the rollback never looks at it (it is read-only where it cannot be private)');
  });

  it('never makes private what is protected, a dependency folder, hidden or our store — whatever a hostile .gitignore names', () => {
    const list = entries(
      '.gitignore',
      '.git/',
      'node_modules/',
      '.venv/',
      'venv/',
      '.direnv/',
      '.vscode/',
      '.husky/',
      'secrets/',
      '.plan-execute/',
      'private/',
      'src/',
      'src/node_modules/',
    );
    const files = { '.gitignore': '.git\nnode_modules\n.venv\nvenv\n.direnv\n.vscode\n.husky\nsecrets\n.plan-execute\nprivate\nsrc\n' };
    const s = spec({ edit: [] }, list, files, { ignoreText: 'private/\n' });
    // A folder named secrets is no credential store (secrets.ts): its files are judged one by one, and a
    // private copy shows no more than the read-only view would.
    assert.deepEqual(s.privateOutputs, ['secrets', 'src'], 'src and secrets are only private copies: nothing reaches the workspace');
  });

  it('reads no ignore file where the host gives none (Seatbelt tests, hosts without the reader)', () => {
    const policy = policyFor(root, { id: 's', authority: authority() }, { fs: nodePolicyFs, ignoreText: null });
    const built = sandboxSpec({
      policy,
      entries: entries('.gitignore', 'dist/'),
      env: {},
      host: { platform: 'linux', home: undefined, pathEntries: [], listDir: () => [] },
    });
    assert.ok(built.ok);
    assert.deepEqual(built.value.privateOutputs, []);
  });
});
