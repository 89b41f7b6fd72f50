import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { takePrivateDirs } from '../../../src/node/sandbox/privateDirs';

describe("a command's private home and /tmp", () => {
  it('under bubblewrap, serves the next command the same folders, emptied of all the last one left', () => {
    const first = takePrivateDirs(true);
    fs.writeFileSync(path.join(first.tmp, 'payload.sh'), 'x');
    fs.mkdirSync(path.join(first.home, '.cache', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(first.dir, 'resolv.conf'), 'nameserver 10.0.2.3\n');
    fs.chmodSync(first.tmp, 0o777);
    first.release();
    const next = takePrivateDirs(true);
    try {
      assert.equal(next.dir, first.dir, 'reused');
      assert.deepEqual(fs.readdirSync(next.tmp), []);
      assert.deepEqual(fs.readdirSync(next.home), []);
      assert.deepEqual(fs.readdirSync(next.dir).sort(), ['home', 'tmp']);
      assert.equal(fs.statSync(next.tmp).mode & 0o777, 0o700, 'its mode reset');
    } finally {
      next.release();
    }
  });

  it('under bubblewrap, gives the next command new home and /tmp folders: what the last one set on the folders themselves (extended attributes, times) does not reach it (red-team F30)', () => {
    const first = takePrivateDirs(true);
    const setXattr = `import os, sys\nfor d in sys.argv[1:]: os.setxattr(d, 'user.left', b'payload')`;
    execFileSync('python3', ['-c', setXattr, first.home, first.tmp]);
    fs.utimesSync(first.home, 1234567, 1234567);
    fs.utimesSync(first.tmp, 1234567, 1234567);
    first.release();
    const next = takePrivateDirs(true);
    try {
      assert.equal(next.dir, first.dir, 'the pool folder is reused');
      const listed = execFileSync('python3', ['-c', 'import os, sys\nprint([os.listxattr(d) for d in sys.argv[1:]])', next.home, next.tmp], {
        encoding: 'utf8',
      });
      assert.equal(listed.trim(), '[[], []]', 'no extended attribute is left');
      assert.notEqual(fs.statSync(next.home).mtimeMs, 1234567000);
      assert.notEqual(fs.statSync(next.tmp).mtimeMs, 1234567000);
    } finally {
      next.release();
    }
  });

  it('gives two commands at once two different folders', () => {
    const a = takePrivateDirs(true);
    const b = takePrivateDirs(true);
    try {
      assert.notEqual(a.dir, b.dir);
    } finally {
      a.release();
      b.release();
    }
  });

  it('does not reuse a folder it cannot vouch for: one the command replaced by something else', () => {
    const first = takePrivateDirs(true);
    fs.rmSync(first.tmp, { recursive: true });
    fs.symlinkSync('/etc', first.tmp);
    first.release();
    assert.ok(!fs.existsSync(first.dir), 'removed, not pooled');
    assert.ok(fs.existsSync('/etc/hostname') || fs.readdirSync('/etc').length > 0, 'and the link target untouched');
    const next = takePrivateDirs(true);
    next.release();
    assert.notEqual(next.dir, first.dir);
  });

  it('elsewhere (Seatbelt: no PID namespace, a daemon may outlive the command) makes new folders each time and removes them', () => {
    const first = takePrivateDirs(false);
    first.release();
    assert.ok(!fs.existsSync(first.dir));
    const next = takePrivateDirs(false);
    assert.notEqual(next.dir, first.dir);
    next.release();
  });
});
