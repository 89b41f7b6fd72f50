import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { authority, type AuthorityInput } from '../../support/fixtures';
import type { ScanEntry } from '../../../src/core/ports';
import { policyFor } from '../../../src/core/policy/policy';
import { isGitData, sandboxSpec, scanPrune, untouchableIn, type HostFacts, type SpecMemo } from '../../../src/core/policy/sandboxSpec';
import { hiddenOutsideOf, toolRootsOf } from '../../../src/core/policy/outsideView';
import { nodePolicyFs } from '../../../src/node/nodePolicyFs';

/** The spec is pure: a listing and host facts made by hand; only the policy needs a real (empty) root. */
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-spec-')));
after(() => fs.rmSync(root, { recursive: true, force: true }));

const host: HostFacts = {
  platform: 'linux',
  home: '/home/ada',
  pathEntries: ['/home/ada/.nvm/versions/node/v20/bin', '/home/ada/.local/bin', '/home/ada/.cargo/bin', '/usr/bin', '/bin'],
  listDir: (abs) => (abs === '/home/ada/.cargo' ? ['bin', 'credentials.toml', 'env'] : []),
};

function entries(...paths: string[]): ScanEntry[] {
  return paths.map((p) => ({ path: p.replace(/\/$/, ''), kind: p.endsWith('/') ? 'directory' : 'file', size: 1, mode: 0o644, signature: p }));
}

function spec(granted: AuthorityInput, list: ScanEntry[], options: { role?: 'executor' | 'verifier'; allowSensitive?: string[]; ignoreText?: string } = {}) {
  const policy = policyFor(
    root,
    { id: 's', authority: authority(granted) },
    { fs: nodePolicyFs, role: options.role ?? 'executor', allowSensitive: options.allowSensitive ?? [], ignoreText: options.ignoreText ?? null },
  );
  const built = sandboxSpec({
    policy,
    entries: list,
    env: { PATH: '/usr/bin', HOME: '/home/ada', TMPDIR: '/tmp/ada', XDG_RUNTIME_DIR: '/run/user/1000', LANG: 'C' },
    host,
  });
  assert.ok(built.ok, built.ok ? '' : built.error);
  return built.value;
}

const paths = (list: { path: string }[]): string[] => list.map((e) => e.path);

describe("sandbox spec (what a command may touch, from the step's authority)", () => {
  it('makes the write scope writable and nothing else; the verifier writes nothing', () => {
    const list = entries('src/', 'src/a.ts', 'README.md');
    assert.deepEqual(spec({ edit: ['src/**/*.ts', 'docs/README.md'] }, list).writable, [
      { path: 'docs', kind: 'directory' },
      { path: 'src', kind: 'directory' },
    ]);
    assert.deepEqual(spec({ edit: ['src/**'] }, list, { role: 'verifier' }).writable, []);
    assert.deepEqual(spec({ edit: [] }, list).writable, []);
    assert.deepEqual(
      spec({ edit: ['gen/**', 'docs/new.md'] }, list).writable,
      [
        { path: 'docs', kind: 'directory' },
        { path: 'gen', kind: 'directory' },
      ],
      'a missing root is a folder too',
    );
  });

  it('gives a literal glob its folder writable with every existing subfolder mounted back read-only', () => {
    const list = entries('src/', 'src/math.js', 'src/lib/', 'src/lib/x.js', 'src/lib/deep/', 'src/gen/', 'src/node_modules/', 'src/.env', 'src/link');
    const s = spec({ edit: ['src/math.js'] }, list);
    assert.deepEqual(s.writable, [{ path: 'src', kind: 'directory' }]);
    assert.deepEqual(paths(s.readOnly), ['src/gen', 'src/lib', 'src/node_modules'], 'each subfolder once, nothing inside them again');
    assert.deepEqual(paths(s.hidden), ['src/.env']);
    const untouchable = untouchableIn(s, false);
    assert.ok(
      !untouchable('src/math.js') && !untouchable('src/math.js.tmp-1') && !untouchable('src/new-dir/x'),
      "direct entries and new folders are the command's",
    );
    assert.ok(untouchable('src/lib/x.js') && untouchable('src/lib') && untouchable('src/.env'), 'old subfolders and hidden entries are not');
  });

  it("mounts a write root below a folder root's read-only subfolder writable again (the deepest mount decides)", () => {
    const list = entries(
      'package.json',
      'src/',
      'src/gen/',
      'src/gen/a.ts',
      'docs/',
      '.git/',
      '.git/hooks/',
      '.git/objects/',
      '.vscode/',
      '.vscode/settings.json',
      'README.md',
      '.gitmodules',
    );
    const s = spec({ edit: ['package.json', 'src/gen/**'], commands: ['git commit *'] }, list);
    assert.deepEqual(paths(s.writable), ['', '.git', 'src/gen']);
    assert.deepEqual(
      paths(s.readOnly),
      ['.gitmodules', '.vscode', 'docs', 'src', '.git/hooks'],
      "a protected top-level file, the subfolders but .git (a root), git's hooks",
    );
    const untouchable = untouchableIn(s, true);
    assert.ok(untouchable('src/x.ts') && !untouchable('src/gen/a.ts') && !untouchable('src/gen/new/b.ts'));
    assert.ok(!untouchable('package.json') && !untouchable('package-lock.json') && untouchable('.gitmodules') && untouchable('.vscode/tasks.json'));
  });

  it('refuses, with what to do instead, a one-file glob in a folder of too many subfolders', () => {
    const policy = policyFor(root, { id: 's', authority: authority({ edit: ['packages/README.md'] }) }, { fs: nodePolicyFs, ignoreText: null });
    const built = sandboxSpec({ policy, entries: entries('packages/', ...Array.from({ length: 300 }, (_, i) => `packages/p${i}/`)), env: {}, host });
    assert.ok(!built.ok);
    assert.match(built.error, /packages holds 300 subfolders[\s\S]*packages\/\*/);
  });

  it('hides secrets everywhere, unless a read glob names them or the user allowed them', () => {
    const list = entries(
      '.env',
      '.env.test',
      'src/',
      'src/server.pem',
      '.vscode/',
      '.vscode/.env',
      '.devcontainer/',
      '.devcontainer/.env',
      'config/',
      'config/credentials.json',
      '.venv/',
      '.venv/lib/',
      '.venv/lib/cacert.pem',
    );
    assert.deepEqual(paths(spec({ edit: ['src/**'] }, list).hidden), [
      '.env',
      '.env.test',
      '.devcontainer/.env',
      '.vscode/.env',
      'config/credentials.json',
      'src/server.pem',
    ]);
    assert.deepEqual(
      paths(spec({ edit: ['src/**'], read: ['**', '.env.test'] }, list).hidden),
      ['.env', '.devcontainer/.env', '.vscode/.env', 'config/credentials.json', 'src/server.pem'],
      'a read glob that names the file',
    );
    assert.ok(!paths(spec({ read: ['**/*'] }, list).hidden).includes('.env.test') === false, 'a pure wildcard does not name it');
    assert.ok(!paths(spec({}, list, { allowSensitive: ['**/*.pem'] }).hidden).includes('src/server.pem'), 'the mission grant');
  });

  it('hides our own store and what .planexecuteignore excludes', () => {
    const hidden = paths(spec({ edit: ['**'] }, entries('.plan-execute/', 'data/', 'data/big.bin', 'src/', 'src/a.ts'), { ignoreText: 'data/\n' }).hidden);
    assert.deepEqual(hidden, ['.plan-execute', 'data']);
  });

  it('keeps protected paths inside the write scope read-only, unless the user allowed them', () => {
    const list = entries('.git/', '.git/hooks/', '.git/config', '.git/objects/', '.vscode/', '.vscode/tasks.json', 'node_modules/', '.husky/', 'src/');
    assert.deepEqual(paths(spec({ edit: ['**'] }, list).readOnly), ['.git', '.husky', '.vscode', 'node_modules']);
    assert.deepEqual(paths(spec({ edit: ['src/**'] }, list).readOnly), [], 'outside the write scope everything is read-only anyway');
    assert.deepEqual(paths(spec({ edit: ['**'] }, list, { allowSensitive: ['.vscode/**'] }).readOnly), ['.git', '.husky', 'node_modules']);
  });

  it('lets a step granted git writes write .git, except what runs code or redirects git', () => {
    const list = entries('.git/', '.git/hooks/', '.git/config', '.git/info/', '.git/objects/', '.git/refs/', '.git/HEAD', 'src/');
    const s = spec({ edit: ['src/**'], commands: ['git commit *'] }, list);
    assert.deepEqual(paths(s.writable), ['.git', 'src']);
    assert.deepEqual(paths(s.readOnly), ['.git/config', '.git/hooks', '.git/info']);
    const untouchable = untouchableIn(s, true);
    assert.ok(untouchable('.git/objects/ab/cdef') && untouchable('.git/HEAD') && untouchable('.git/hooks/pre-commit'));
    assert.ok(!untouchable('.git/commondir') && !untouchable('.git/config.worktree'), 'new redirecting files are judged (and undone) after the command');
    assert.ok(isGitData('.git/refs/heads/main') && !isGitData('.git/hooks/x') && !isGitData('src/.git/objects'));
  });

  it("keeps a worktree's .git file read-only, even for a step granted git writes", () => {
    const s = spec({ edit: ['**'], commands: ['git commit *'] }, [{ path: '.git', kind: 'file', size: 40, mode: 0o644, signature: 'x' }]);
    assert.deepEqual(paths(s.readOnly), ['.git']);
  });

  it('drops a writable path that lies inside a read-only or hidden one', () => {
    const s = spec({ edit: ['node_modules/foo/**', 'src/**'] }, entries('node_modules/', 'src/'));
    assert.deepEqual(
      paths(s.writable),
      ['node_modules/foo', 'src'].filter((p) => p === 'src'),
    );
  });

  it("hides the home, the workspace's neighbours and runtime sockets; shows toolchains again without their secrets", () => {
    const outside = hiddenOutsideOf('/work/projects/app', host);
    for (const p of ['/home/ada', '/work', '/home', '/root', '/run', '/var/tmp']) assert.ok(outside.includes(p), p);
    assert.ok(!outside.includes('/work/projects/app'));
    const tools = toolRootsOf(outside, host);
    assert.deepEqual(tools.visible, ['/home/ada/.cargo', '/home/ada/.local/bin', '/home/ada/.local/lib', '/home/ada/.nvm/versions/node/v20']);
    assert.deepEqual(tools.secrets, ['/home/ada/.cargo/credentials.toml']);
    assert.deepEqual(hiddenOutsideOf('/Users/ada/app', { ...host, platform: 'darwin', home: '/Users/ada' }), ['/Users', '/Users/ada', '/Volumes']);
  });

  it('passes the network only when the authority grants it, and drops variables that point into hidden places', () => {
    const s = spec({ network: true }, []);
    assert.equal(s.network, true);
    assert.equal(spec({}, []).network, false);
    assert.deepEqual(s.env, { PATH: '/usr/bin', LANG: 'C' });
  });

  it('refuses, with a reason, a spec that would need too many mounts', () => {
    const policy = policyFor(root, { id: 's', authority: authority() }, { fs: nodePolicyFs, ignoreText: null });
    const many = entries(...Array.from({ length: 300 }, (_, i) => `keys/k${i}.pem`));
    const built = sandboxSpec({ policy, entries: many, env: {}, host });
    assert.ok(!built.ok);
    assert.match(built.error, /300 separate mounts/);
  });

  it('lists secret, ignored and store folders without entering them; enters protected folders to find secrets', () => {
    const policy = policyFor(root, { id: 's', authority: authority({ edit: ['src/**'] }) }, { fs: nodePolicyFs, ignoreText: 'data/\n' });
    const prune = scanPrune(policy, [{ path: 'src', kind: 'tree' }]);
    for (const dir of ['.plan-execute', 'data', '.ssh', 'node_modules', 'a/node_modules', '.git', 'sub/.git', '.venv']) assert.ok(prune(dir), dir);
    for (const dir of ['src', '.vscode', '.devcontainer', 'src/.venv']) assert.ok(!prune(dir), dir);
    const folderPrune = scanPrune(policy, [{ path: '', kind: 'folder' }]);
    assert.ok(folderPrune('.venv') && folderPrune('vendor'), 'a folder root reaches none of its old subfolders: a dependency folder there is not entered');
    const gitPrune = scanPrune(
      policyFor(root, { id: 's', authority: authority({ edit: ['src/**'], commands: ['git commit *'] }) }, { fs: nodePolicyFs, ignoreText: null }),
      [
        { path: '.git', kind: 'tree' },
        { path: 'src', kind: 'tree' },
      ],
    );
    assert.ok(!gitPrune('.git') && !gitPrune('.git/hooks') && gitPrune('.git/objects') && gitPrune('.git/refs'));
  });
});

describe('sandbox spec with a memo (the commands of one step)', () => {
  const stagedWith = (list: readonly ScanEntry[], memo: SpecMemo) => {
    const policy = memoPolicy;
    const built = sandboxSpec({ policy, entries: list as ScanEntry[], env: { PATH: '/usr/bin' }, host, staged: true, memo });
    assert.ok(built.ok, built.ok ? '' : built.error);
    return built.value;
  };
  const memoPolicy = policyFor(root, { id: 's', authority: authority({ edit: ['src/**'] }) }, { fs: nodePolicyFs, ignoreText: null });
  const pem = path.join(root, 'site.pem');
  afterEach(() => fs.rmSync(pem, { force: true }));

  it('comes to the same spec for the same listing, and judges again what a peek at a file decided', () => {
    fs.writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    // A memoized scan of an unchanged workspace hands back the same frozen list.
    const list = Object.freeze(entries('src/', 'src/a.ts', '.env', '.vscode/', 'site.pem'));
    const memo: SpecMemo = { verdicts: new WeakMap() };
    const first = stagedWith(list, memo);
    assert.deepEqual(stagedWith(list, memo), first, 'the same listing, the same spec');
    assert.ok(!paths(first.hidden).includes('site.pem'), 'a certificate is not a secret');
    fs.writeFileSync(pem, '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n');
    const after = stagedWith(list, memo);
    assert.ok(paths(after.hidden).includes('site.pem'), 'the same listing, but the file is now a private key: hidden');
    assert.deepEqual(paths(after.hidden).sort(), ['.env', 'site.pem']);
  });
});
