import { strict as assert } from 'node:assert';
import { sep } from 'node:path';
import { isBelow, isBelowNative, isWithin, isWithinAny, isWithinNative, pathBelow, pathsOverlap, WORKSPACE_ROOT } from '../../../src/core/primitives/paths';

describe('primitives/paths', () => {
  describe('isWithinAny(path, dirs)', () => {
    it('holds a path that is one of the folders or lies below one, by whole segments', () => {
      const dirs = new Set(['out/d1', 'node_modules']);
      assert.equal(isWithinAny('out/d1', dirs), true);
      assert.equal(isWithinAny('out/d1/x/y', dirs), true);
      assert.equal(isWithinAny('node_modules/a', dirs), true);
      assert.equal(isWithinAny('out/d10', dirs), false);
      assert.equal(isWithinAny('out', dirs), false);
      assert.equal(isWithinAny('src/a.ts', new Set()), false);
      assert.equal(isWithinAny('src/a.ts', new Set([WORKSPACE_ROOT])), true, 'the root holds every relative path');
    });
  });

  describe('isWithin(path, dir)', () => {
    it('holds the folder itself and what lies below it', () => {
      assert.equal(isWithin('/a/b', '/a/b'), true);
      assert.equal(isWithin('/a/b/c', '/a/b'), true);
      assert.equal(isWithin('/a/b/c/d', '/a/b'), true);
      assert.equal(isWithin('src/x.ts', 'src'), true);
      assert.equal(isWithin('src', 'src'), true);
    });

    it('compares whole segments: a shared prefix is not containment', () => {
      assert.equal(isWithin('/a/bc', '/a/b'), false);
      assert.equal(isWithin('/ws-evil/a', '/ws'), false);
      assert.equal(isWithin('srcx/a', 'src'), false);
      assert.equal(isWithin('/a', '/a/b'), false);
    });

    it('takes the path first and the folder second', () => {
      assert.equal(isWithin('/a/b', '/a'), true);
      assert.equal(isWithin('/a', '/a/b'), false);
    });

    it("reads '' as the workspace root: it holds every relative path, no absolute one", () => {
      assert.equal(WORKSPACE_ROOT, '');
      assert.equal(isWithin('', ''), true);
      assert.equal(isWithin('a', ''), true);
      assert.equal(isWithin('a/b/c', ''), true);
      assert.equal(isWithin('.git/config', WORKSPACE_ROOT), true);
      assert.equal(isWithin('/etc', ''), false);
      assert.equal(isWithin('', 'a'), false);
    });

    it('ignores a trailing slash on the folder, so / holds every absolute path', () => {
      assert.equal(isWithin('/a/b', '/a/'), true);
      assert.equal(isWithin('/a', '/a/'), true);
      assert.equal(isWithin('/ab', '/a/'), false);
      assert.equal(isWithin('/etc/passwd', '/'), true);
      assert.equal(isWithin('/', '/'), true);
      // A path spelled with a trailing slash (a folder in a listing) lies in its folder.
      assert.equal(isWithin('a/b/', 'a/b'), true);
      assert.equal(isWithin('a/', 'a/b'), false);
    });

    it('resolves nothing: `..` is a name, callers normalise first', () => {
      assert.equal(isWithin('/a/b/../c', '/a/b'), true);
      assert.equal(isWithin('/a/c', '/a/b'), false);
      assert.equal(isWithin('a/../../x', 'a'), true);
      assert.equal(isWithin('../x', ''), true);
    });
  });

  describe('isBelow(path, dir)', () => {
    it('is isWithin without the folder itself', () => {
      assert.equal(isBelow('/a/b/c', '/a/b'), true);
      assert.equal(isBelow('/a/b', '/a/b'), false);
      assert.equal(isBelow('/a/b', '/a/b/'), false);
      assert.equal(isBelow('/a/bc', '/a/b'), false);
      assert.equal(isBelow('a', ''), true);
      assert.equal(isBelow('', ''), false);
      assert.equal(isBelow('/x', '/'), true);
      assert.equal(isBelow('/', '/'), false);
    });
  });

  describe('pathsOverlap(a, b)', () => {
    it('is true when either holds the other', () => {
      assert.equal(pathsOverlap('a', 'a/b'), true);
      assert.equal(pathsOverlap('a/b', 'a'), true);
      assert.equal(pathsOverlap('a', 'a'), true);
      assert.equal(pathsOverlap('a/b', 'a/c'), false);
      assert.equal(pathsOverlap('a/b', 'a/bc'), false);
      assert.equal(pathsOverlap('', 'x/y'), true);
      assert.equal(pathsOverlap('/home/u/.ssh', '/home/u'), true);
    });
  });

  describe('pathBelow(path, dir)', () => {
    it('gives what follows the folder, or undefined', () => {
      assert.equal(pathBelow('/ws/src/a.ts', '/ws'), 'src/a.ts');
      assert.equal(pathBelow('/ws/src/a.ts', '/ws/'), 'src/a.ts');
      assert.equal(pathBelow('/ws', '/ws'), undefined);
      assert.equal(pathBelow('/wsx/a', '/ws'), undefined);
      assert.equal(pathBelow('a/b', ''), 'a/b');
      assert.equal(pathBelow('', ''), undefined);
      assert.equal(pathBelow('/etc/passwd', '/'), 'etc/passwd');
    });
  });

  describe('isWithinNative / isBelowNative: the platform separator', () => {
    const root = ['', 'ws'].join(sep);
    it('compares by the separator of this machine', () => {
      assert.equal(isWithinNative(root, root), true);
      assert.equal(isWithinNative([root, 'a', 'b'].join(sep), root), true);
      assert.equal(isWithinNative(`${root}x${sep}a`, root), false);
      assert.equal(isWithinNative([root, 'a'].join(sep), root + sep), true);
      assert.equal(isBelowNative([root, 'a'].join(sep), root), true);
      assert.equal(isBelowNative(root, root), false);
    });

    it("does not read '' as the workspace root (real paths are absolute)", () => {
      assert.equal(isWithinNative('a', ''), false);
    });

    if (sep === '/')
      it('on POSIX, a backslash is part of a name', () => {
        assert.equal(isWithinNative('/ws\\a', '/ws'), false);
      });
  });
});
