/**
 * A staging layer for real (Linux): an overlay mounted in a user namespace over a workspace, a shell that
 * writes through it, then what the listing (stagedChanges.ts) reports and what settling (layerSettle.ts)
 * keeps — whiteouts, opaque folders and copy-ups are the kernel's, not hand-made. Elsewhere these are
 * pending; on Linux without util-linux they fail.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listStagedChanges } from '../../../src/node/sandbox/stagedChanges';
import { settleLayer } from '../../../src/node/sandbox/layerSettle';
import { renameShim } from '../../../src/node/sandbox/renameShim';

interface Layer {
  /** The workspace (the overlay's lower layer). */
  root: string;
  upper: string;
  /** What the script printed, and its status. */
  out: string;
  status: number | null;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) {
    spawnSync('chmod', ['-R', 'u+rwx', d]);
    fs.rmSync(d, { recursive: true, force: true });
  }
});

/** A workspace holding `files` ('dir/' for a folder), then `script` run in a fresh layer over it. */
function layerAfter(files: Record<string, string>, script: string, preload?: string, prepare?: (root: string) => void): Layer {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-layer-')));
  dirs.push(base);
  const root = path.join(base, 'ws');
  for (const d of ['ws', 'layer/upper', 'layer/work', 'merged']) fs.mkdirSync(path.join(base, d), { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    if (rel.endsWith('/')) fs.mkdirSync(abs, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, content);
    }
  }
  prepare?.(root);
  const mount = `mount -t overlay overlay -o lowerdir=${root},upperdir=${base}/layer/upper,workdir=${base}/layer/work,userxattr ${base}/merged || exit 90`;
  const r = spawnSync('unshare', ['--user', '--map-root-user', '--mount', '--', 'sh', '-c', `${mount}\ncd ${base}/merged || exit 91\n${script}`], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: base, ...(preload ? { LD_PRELOAD: preload } : {}) },
  });
  assert.notEqual(r.status, 90, `the overlay could not be mounted: ${r.stderr}`);
  return { root, upper: path.join(base, 'layer/upper'), out: `${r.stdout}${r.stderr}`, status: r.status };
}

const pathsOf = (changes: readonly { path: string; was: string | null; now: string | null }[]): string[] =>
  changes.map((c) => `${c.path} ${c.was ?? '-'}→${c.now ?? '-'}`);

(process.platform === 'linux' ? describe : describe.skip)('a staging layer, listed and settled', function () {
  this.timeout(60_000);
  it('lists what changed — a rewrite, a new file, a removal, a mode — and not a file only opened read-write or touched', () => {
    const l = layerAfter(
      { 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'src/c.ts': 'c\n', 'data/app.db': 'db\n', 'run.sh': 'echo\n' },
      "echo A > src/a.ts && echo new > src/n.ts && rm src/b.ts && chmod 755 run.sh && python3 -c \"open('data/app.db','r+b').close()\" && touch src/c.ts",
    );
    assert.equal(l.status, 0, l.out);
    const listing = listStagedChanges(l.root, l.upper);
    assert.deepEqual(pathsOf(listing.changes), ['run.sh file→file', 'src/a.ts file→file', 'src/b.ts file→-', 'src/n.ts -→file']);
    assert.deepEqual(listing.changes.find((c) => c.path === 'run.sh')?.mode, { was: 0o644, now: 0o755 });
  });

  it("reports what a folder removed and made again held as removed, and never probes a folder merely written into, nor the layer's root", () => {
    const l = layerAfter(
      { 'gen/old.js': '1', 'gen/keep.js': '2\n', 'src/x.ts': 'x', 'src/y.ts': 'y', 'README.md': 'r' },
      'rm -r gen && mkdir gen && echo 2 > gen/keep.js && echo X > src/x.ts',
    );
    assert.equal(l.status, 0, l.out);
    const real = listStagedChanges(l.root, l.upper);
    assert.deepEqual(pathsOf(real.changes), ['gen/old.js file→-', 'src/x.ts file→file']);
    const asked: string[] = [];
    listStagedChanges(l.root, l.upper, (paths) => {
      asked.push(...paths);
      return paths.map(() => true);
    });
    assert.deepEqual(asked.sort(), ['gen/old.js', 'src/y.ts'], 'one sample per copied-up folder with unmentioned entries; none at the root');
  });

  it('fails closed at the entry cap and at the byte cap, saying which', () => {
    const l = layerAfter({ 'big.bin': 'x'.repeat(4096) }, 'mkdir out && for i in $(seq 1 60); do : > out/f$i; done && printf "%4096s" y > big.bin');
    assert.equal(l.status, 0, l.out);
    const byEntries = listStagedChanges(l.root, l.upper, undefined, { maxEntries: 50 });
    assert.deepEqual(byEntries.capped, { cap: 'entries', limit: 50 });
    assert.deepEqual(byEntries.changes, [], 'nothing of a capped layer is offered to the judge');
    const byBytes = listStagedChanges(l.root, l.upper, undefined, { maxBytes: 4096 });
    assert.deepEqual(byBytes.capped, { cap: 'bytes', limit: 4096 });
    assert.equal(listStagedChanges(l.root, l.upper, undefined, { maxEntries: 100, maxBytes: 10_000 }).capped, undefined);
  });

  it('names an entry it cannot read (a path past PATH_MAX) as unjudgeable instead of leaving it out', () => {
    // Folders of 200 characters, 19 deep: the folder can still be listed, the file in it cannot be lstat'ed.
    const deep = Array.from({ length: 19 }, (_, i) => `${i}`.padEnd(200, 'd')).join('/');
    const name = 'f'.padEnd(250, 'f');
    const l = layerAfter({ 'keep.txt': 'k' }, `mkdir -p ${deep} && cd ${deep} && echo x > ${name}`);
    try {
      assert.equal(l.status, 0, l.out);
      assert.ok(path.join(l.upper, deep).length < 4096 && path.join(l.upper, deep, name).length > 4096, 'the folder is listable, the file is not');
      const listing = listStagedChanges(l.root, l.upper);
      assert.equal(listing.unjudgeable.length, 1, listing.unjudgeable.join('\n'));
      assert.ok(listing.unjudgeable[0]?.startsWith(`${deep}/${name} (could not be read: `), listing.unjudgeable[0]);
      assert.match(listing.unjudgeable[0] ?? '', /ENAMETOOLONG/);
      assert.ok(!listing.changes.some((c) => c.path.endsWith(name)), 'never offered to the judge as a change');
    } finally {
      spawnSync('rm', ['-rf', path.join(l.upper, deep.slice(0, 200))]); // rm walks by folder; Node's rmSync cannot unlink past PATH_MAX
    }
  });

  it('reports a folder the engine keeps whole once, without walking what it holds', () => {
    const l = layerAfter(
      { 'package.json': '{}' },
      'mkdir -p node_modules/a/lib && for i in $(seq 1 40); do : > node_modules/a/lib/f$i; done && echo 1 > index.js',
    );
    const listing = listStagedChanges(l.root, l.upper, undefined, { keepWhole: (p) => p === 'node_modules', maxEntries: 10 });
    assert.equal(listing.capped, undefined, 'what is kept whole is not counted against the cap');
    assert.deepEqual(listing.keptWhole, ['node_modules']);
    assert.deepEqual(pathsOf(listing.changes), ['index.js -→file']);
  });

  const GIT = 'git -c user.name=T -c user.email=t@example.invalid';
  const helper = (): string => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-shim-')));
    dirs.push(base);
    const shim = renameShim(base);
    assert.ok(shim.ok, `the rename helper builds (${shim.ok ? '' : shim.error.reason})`);
    return shim.value;
  };

  it('turns folder renames (git mv, fs.renameSync) into removals and additions through the rename helper; without it they fail with EXDEV', () => {
    const files = { 'src/utils/a.js': 'a\n', 'src/utils/deep/b.js': 'b\n', 'lib/x.js': 'x\n' };
    const script = [
      `${GIT} init -q && ${GIT} add -A && ${GIT} commit -qm init`,
      `${GIT} mv src/utils src/helpers && echo moved`,
      `node -e "require('fs').renameSync('lib', 'lib2'); console.log('renamed')"`,
    ].join(' && ');
    const without = layerAfter(files, script);
    assert.notEqual(without.status, 0);
    assert.match(without.out, /cross-device|EXDEV/, 'the kernel alone refuses the rename');
    const l = layerAfter(files, script, helper());
    assert.equal(l.status, 0, l.out);
    assert.match(l.out, /moved[\s\S]*renamed/);
    const changes = pathsOf(listStagedChanges(l.root, l.upper).changes);
    for (const line of [
      'src/utils directory→-',
      'src/helpers -→directory',
      'src/helpers/a.js -→file',
      'src/helpers/deep/b.js -→file',
      'lib directory→-',
      'lib2/x.js -→file',
    ])
      assert.ok(changes.includes(line), `${line} in ${changes.join(', ')}`);
  });

  it("clones a repository of the workspace locally through the layer (git's hard links become copies)", () => {
    const bare = (root: string): void => {
      const run = (args: string[], cwd: string): void =>
        void spawnSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8' });
      const work = path.join(path.dirname(root), 'lib-src');
      fs.mkdirSync(work);
      fs.writeFileSync(path.join(work, 'lib.js'), 'module.exports = 1;\n');
      for (const args of [
        ['init', '-q'],
        ['add', '-A'],
        ['commit', '-qm', 'lib'],
      ])
        run(args, work);
      // A local bare clone: its objects are hard links to lib-src's (two names each), as a fixture made
      // with `git clone --bare` is. Copying up such a file gives its name a new inode at once.
      run(['clone', '-q', '--bare', work, path.join(root, 'fixtures/lib.git')], root);
    };
    const script = 'git clone -q fixtures/lib.git vendor/lib 2>&1 && cat vendor/lib/lib.js';
    const without = layerAfter({ 'README.md': 'r' }, script, undefined, bare);
    assert.match(without.out, /hardlink different from source/, 'the kernel alone breaks the clone');
    const l = layerAfter({ 'README.md': 'r' }, script, helper(), bare);
    assert.equal(l.status, 0, l.out);
    assert.match(l.out, /module\.exports = 1/);
  });

  it('keeps a new folder whole when all it holds is kept, and the entries of a workspace folder one by one', () => {
    const l = layerAfter({ 'dist/old.js': 'o', 'src/a.ts': 'a' }, 'mkdir -p out/a out/b && : > out/a/x && echo 1 > dist/new.js && echo 2 > dist/old.js');
    assert.equal(settleLayer(l.root, l.upper, ['out/a', 'out/b', 'dist/new.js']).length, 0);
    assert.deepEqual(fs.readdirSync(l.upper).sort(), ['dist', 'out']);
    assert.deepEqual(fs.readdirSync(path.join(l.upper, 'out')).sort(), ['a', 'b']);
    assert.deepEqual(fs.readdirSync(path.join(l.upper, 'dist')), ['new.js'], 'dist/old.js (applied or refused) is gone from the layer');
  });
});
