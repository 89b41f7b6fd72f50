import assert from 'node:assert/strict';
import { globWriteRoot, patternWritesGit, scopeGlobs, scopesOverlap, writeScopeOf, type WriteRoot } from '../../../src/core/policy/writeScope';

const tree = (path: string): WriteRoot => ({ path, kind: 'tree' });
const folder = (path: string): WriteRoot => ({ path, kind: 'folder' });

describe("write scope (where a step's commands may write)", () => {
  it('takes the longest literal directory of a glob as a tree', () => {
    assert.deepEqual(globWriteRoot('src/**/*.ts'), tree('src'));
    assert.deepEqual(globWriteRoot('src/api/*.ts'), tree('src/api'));
    assert.deepEqual(globWriteRoot('src/comp{a,b}/**'), tree('src'));
    assert.deepEqual(globWriteRoot('src/a?.ts'), tree('src'));
    assert.deepEqual(globWriteRoot('src/\\*literal'), tree('src'), 'an escape is magic enough to stop at');
  });

  it('gives a literal glob its parent folder (direct entries only), so a tool can write beside its file and rename it over', () => {
    assert.deepEqual(globWriteRoot('src/math.js'), folder('src'));
    assert.deepEqual(globWriteRoot('./docs/guide/intro.md'), folder('docs/guide'));
    assert.deepEqual(globWriteRoot('package.json'), folder(''), "a top-level file: the root's direct entries, not the whole tree");
    assert.deepEqual(globWriteRoot('./README.md'), folder(''));
  });

  it('widens to the whole workspace tree for a glob that is magic from its first segment, or a negation', () => {
    for (const glob of ['**/*.md', '*.json', '**', '!src/**', '{a,b}/x.ts']) assert.deepEqual(globWriteRoot(glob), tree(''), glob);
  });

  it('adds .git only for allowlist entries that may run a git subcommand that writes the repository', () => {
    for (const p of ['git commit *', 'git add src/a.ts', 'git -C . commit -m x', 'git *', 'git stash', '/usr/bin/git push']) assert.ok(patternWritesGit(p), p);
    for (const p of ['git status', 'git diff *', 'git log *', 'npm test', 'node git commit', 'gitk *']) assert.ok(!patternWritesGit(p), p);
  });

  it('collapses: trees inside trees and folders inside (or at) trees go, trees inside folders and nested folders stay; sorted', () => {
    assert.deepEqual(writeScopeOf({ edit: ['src/a/x.ts', 'src/**', 'docs/*.md'], commands: ['git commit *'] }), [tree('.git'), tree('docs'), tree('src')]);
    assert.deepEqual(writeScopeOf({ edit: ['src/**', '**/*.snap'], commands: [] }), [tree('')]);
    assert.deepEqual(writeScopeOf({ edit: [], commands: ['npm test'] }), []);
    assert.deepEqual(writeScopeOf({ edit: ['src/*.ts', 'src/index.ts'], commands: [] }), [tree('src')], 'equal paths: the tree wins');
    assert.deepEqual(writeScopeOf({ edit: ['package.json', 'src/gen/**', 'src/a.js', 'src/lib/b.js', 'package-lock.json'], commands: ['git commit *'] }), [
      folder(''),
      tree('.git'),
      folder('src'),
      tree('src/gen'),
      folder('src/lib'),
    ]);
    assert.deepEqual(writeScopeOf({ edit: ['src/b.js', 'src/a.js'], commands: [] }), [folder('src')], 'one folder for two files in it');
  });

  describe('overlap (what the scheduler keeps apart): a root of either kind counts as its path and everything below', () => {
    const overlap = (a: WriteRoot[], b: WriteRoot[]): boolean => {
      const result = scopesOverlap(a, b);
      assert.equal(scopesOverlap(b, a), result, 'symmetric');
      return result;
    };

    it('trees: one contains the other at a path boundary', () => {
      assert.ok(overlap([tree('src')], [tree('src/api')]));
      assert.ok(overlap([tree('')], [tree('docs')]));
      assert.ok(!overlap([tree('src')], [tree('srcx')]));
      assert.ok(!overlap([tree('packages/api')], [tree('packages/web')]));
      assert.ok(!overlap([], [tree('')]));
    });

    it('a folder P meets any root at P, any root below P (a folder too), and any tree above P', () => {
      assert.ok(overlap([folder('src')], [folder('src')]), 'src/a.js and src/b.js: same folder');
      assert.ok(overlap([folder('src')], [tree('src')]));
      assert.ok(overlap([folder('src')], [tree('src/gen/out')]), 'a command in src may make src/gen, which the other step writes in');
      assert.ok(overlap([folder('src')], [folder('src/lib')]), 'one folder is an ancestor of the other');
      assert.ok(overlap([folder('src/lib')], [tree('src')]), 'a tree above the folder');
      assert.ok(overlap([folder('')], [tree('docs')]) && overlap([folder('')], [folder('src')]), 'a top-level literal glob meets every writer');
    });

    it('two folders, or a folder and a tree, side by side never meet', () => {
      assert.ok(!overlap([folder('src/a')], [folder('src/b')]));
      assert.ok(!overlap([folder('src')], [tree('docs')]));
      assert.ok(!overlap([folder('src/lib')], [tree('src/gen')]));
      assert.ok(!overlap([folder('src')], [folder('srcx')]));
    });

    it('gives the scheduler globs that say the same', () => {
      assert.deepEqual(scopeGlobs([folder(''), tree('docs'), folder('src/lib')]), ['**', 'docs/**', 'src/lib/**']);
    });
  });
});
