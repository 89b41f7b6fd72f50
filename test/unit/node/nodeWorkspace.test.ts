import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('NodeWorkspace', () => {
  let dir: string;
  let root: string;
  let journal: string;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-nodews-')));
    root = path.join(dir, 'ws');
    journal = path.join(dir, 'journal');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src/a.txt'), 'old a');
    fs.writeFileSync(path.join(root, 'src/b.txt'), 'old b');
    fs.chmodSync(path.join(root, 'src/a.txt'), 0o750);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('applies a batch of creates, modifications and deletes', async () => {
    const ws = new NodeWorkspace(root, { journalDir: journal });
    await ws.applyWrites(
      [
        { path: 'src/a.txt', content: enc('new a') },
        { path: 'src/new/dir/c.txt', content: enc('c') },
        { path: 'src/b.txt', content: null },
      ],
      'batch',
    );
    assert.equal(fs.readFileSync(path.join(root, 'src/a.txt'), 'utf8'), 'new a');
    assert.equal(fs.readFileSync(path.join(root, 'src/new/dir/c.txt'), 'utf8'), 'c');
    assert.equal(fs.existsSync(path.join(root, 'src/b.txt')), false);
    assert.deepEqual(fs.readdirSync(path.join(root, 'src')).sort(), ['a.txt', 'new']);
    assert.deepEqual(fs.readdirSync(journal), []);
  });

  it('preserves the mode of a modified file and gives new files 0644', async () => {
    const ws = new NodeWorkspace(root, { journalDir: journal });
    await ws.applyWrites(
      [
        { path: 'src/a.txt', content: enc('x') },
        { path: 'src/n.txt', content: enc('n') },
      ],
      'modes',
    );
    assert.equal(fs.statSync(path.join(root, 'src/a.txt')).mode & 0o777, 0o750);
    assert.equal(fs.statSync(path.join(root, 'src/n.txt')).mode & 0o777, 0o644);
    assert.equal((await ws.stat('src/a.txt'))?.mode, 0o750);
  });

  it('leaves every file untouched when one write in the batch fails', async () => {
    const ws = new NodeWorkspace(root, { journalDir: journal });
    fs.mkdirSync(path.join(root, 'src/isdir'));
    await assert.rejects(
      ws.applyWrites(
        [
          { path: 'src/a.txt', content: enc('new a') },
          { path: 'src/isdir', content: enc('x') },
        ],
        'bad',
      ),
    );
    assert.equal(fs.readFileSync(path.join(root, 'src/a.txt'), 'utf8'), 'old a');
    assert.deepEqual(fs.readdirSync(path.join(root, 'src')).sort(), ['a.txt', 'b.txt', 'isdir']);
  });

  it('rolls back a batch a crash interrupted mid-commit (old content everywhere)', async () => {
    // Simulate the state after a crash: journal written, a.txt renamed to its backup and replaced, b.txt not yet.
    fs.mkdirSync(journal);
    const a = path.join(root, 'src/a.txt');
    const b = path.join(root, 'src/b.txt');
    fs.renameSync(a, path.join(root, 'src/.a.txt.pe-t.bak'));
    fs.writeFileSync(a, 'new a');
    fs.writeFileSync(path.join(root, 'src/.b.txt.pe-t.tmp'), 'new b');
    fs.writeFileSync(
      path.join(journal, 't.json'),
      JSON.stringify({
        label: 'x',
        committed: false,
        entries: [
          { target: a, temp: path.join(root, 'src/.a.txt.pe-t.tmp'), backup: path.join(root, 'src/.a.txt.pe-t.bak'), existed: true },
          { target: b, temp: path.join(root, 'src/.b.txt.pe-t.tmp'), backup: path.join(root, 'src/.b.txt.pe-t.bak'), existed: true },
        ],
      }),
    );
    await NodeWorkspace.open(root, { journalDir: journal });
    assert.equal(fs.readFileSync(a, 'utf8'), 'old a');
    assert.equal(fs.readFileSync(b, 'utf8'), 'old b');
    assert.deepEqual(fs.readdirSync(path.join(root, 'src')).sort(), ['a.txt', 'b.txt']);
  });

  it('rolls forward a batch that had committed before the crash', async () => {
    fs.mkdirSync(journal);
    const a = path.join(root, 'src/a.txt');
    fs.renameSync(a, path.join(root, 'src/.a.txt.pe-t.bak'));
    fs.writeFileSync(a, 'new a');
    fs.writeFileSync(
      path.join(journal, 't.json'),
      JSON.stringify({ label: 'x', committed: true, entries: [{ target: a, temp: null, backup: path.join(root, 'src/.a.txt.pe-t.bak'), existed: true }] }),
    );
    await NodeWorkspace.open(root, { journalDir: journal });
    assert.equal(fs.readFileSync(a, 'utf8'), 'new a');
    assert.deepEqual(fs.readdirSync(path.join(root, 'src')).sort(), ['a.txt', 'b.txt']);
  });

  it('refuses paths that leave the workspace, even though the policy checks them first', async () => {
    fs.symlinkSync(dir, path.join(root, 'up'));
    fs.writeFileSync(path.join(dir, 'outside.txt'), 'secret');
    const ws = new NodeWorkspace(root, { journalDir: journal });
    await assert.rejects(ws.readFile('../journal'), /refused/);
    await assert.rejects(ws.readFile('up/outside.txt'), /refused/);
    assert.equal(new TextDecoder().decode(await ws.readFile('up/ws/src/a.txt')), 'old a');
    await assert.rejects(ws.applyWrites([{ path: '/etc/x', content: enc('x') }], 'x'), /refused/);
  });

  it('scans below nested roots once each: a root inside another is listed and entered a single time', async () => {
    fs.mkdirSync(path.join(root, 'src/gen/deep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src/gen/deep/x.txt'), 'x');
    const ws = new NodeWorkspace(root, { journalDir: journal });
    const { entries } = await ws.scan({ prune: () => false, limit: 100, under: ['src', 'src/gen', ''] });
    const listed = entries.map((e) => e.path);
    assert.deepEqual([...listed].sort(), ['src', 'src/a.txt', 'src/b.txt', 'src/gen', 'src/gen/deep', 'src/gen/deep/x.txt']);
    assert.equal(new Set(listed).size, listed.length);
    const pruned = await ws.scan({ prune: (rel) => rel === 'src', limit: 100, under: ['', 'src/gen'] });
    assert.deepEqual(
      pruned.entries.map((e) => e.path).sort(),
      ['src', 'src/gen', 'src/gen/deep', 'src/gen/deep/x.txt'],
      'a pruned folder does not hide a root below it',
    );
  });

  it('stats only the entries asked for in detail; the others carry their name and kind from the listing', async () => {
    fs.mkdirSync(path.join(root, 'lib'));
    fs.symlinkSync('../src/a.txt', path.join(root, 'lib/link'));
    const ws = new NodeWorkspace(root, { journalDir: journal });
    const { entries } = await ws.scan({ prune: () => false, limit: 100, detail: (rel) => rel.startsWith('src/') });
    const byPath = new Map(entries.map((e) => [e.path, e]));
    assert.deepEqual([...byPath.keys()].sort(), ['lib', 'lib/link', 'src', 'src/a.txt', 'src/b.txt']);
    assert.equal(byPath.get('src/a.txt')?.size, 5);
    assert.notEqual(byPath.get('src/a.txt')?.signature, '');
    assert.deepEqual([byPath.get('lib')?.kind, byPath.get('lib/link')?.kind, byPath.get('lib/link')?.signature], ['directory', 'symlink', '']);
  });
});
