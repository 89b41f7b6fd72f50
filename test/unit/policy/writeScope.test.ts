import assert from 'node:assert/strict';
import { globWriteRoot, patternWritesGit, scopesOverlap, writeScopeOf } from '../../../src/core/policy/writeScope';

describe('write scope (where a step\'s commands may write)', () => {
  it('takes the longest literal directory of a glob, or the file itself when the glob is literal', () => {
    assert.equal(globWriteRoot('src/**/*.ts'), 'src');
    assert.equal(globWriteRoot('src/api/*.ts'), 'src/api');
    assert.equal(globWriteRoot('src/comp{a,b}/**'), 'src');
    assert.equal(globWriteRoot('README.md'), 'README.md');
    assert.equal(globWriteRoot('./docs/guide/'), 'docs/guide');
    assert.equal(globWriteRoot('src/a?.ts'), 'src');
    assert.equal(globWriteRoot('src/\\*literal'), 'src', 'an escape is magic enough to stop at');
  });

  it('widens to the whole workspace for a glob that is magic from its first segment, or a negation', () => {
    for (const glob of ['**/*.md', '*.json', '**', '!src/**', '{a,b}/x.ts']) assert.equal(globWriteRoot(glob), '', glob);
  });

  it('adds .git only for allowlist entries that may run a git subcommand that writes the repository', () => {
    for (const p of ['git commit *', 'git add src/a.ts', 'git -C . commit -m x', 'git *', 'git stash', '/usr/bin/git push']) assert.ok(patternWritesGit(p), p);
    for (const p of ['git status', 'git diff *', 'git log *', 'npm test', 'node git commit', 'gitk *']) assert.ok(!patternWritesGit(p), p);
  });

  it('drops nested roots and sorts, so equal authorities give equal scopes', () => {
    assert.deepEqual(writeScopeOf({ edit: ['src/a/x.ts', 'src/**', 'docs/*.md'], commands: ['git commit *'] }), ['.git', 'docs', 'src']);
    assert.deepEqual(writeScopeOf({ edit: ['src/**', '**/*.snap'], commands: [] }), ['']);
    assert.deepEqual(writeScopeOf({ edit: [], commands: ['npm test'] }), []);
  });

  it('says two scopes overlap when one contains the other at a path boundary', () => {
    assert.ok(scopesOverlap(['src'], ['src/api']));
    assert.ok(scopesOverlap([''], ['docs']));
    assert.ok(!scopesOverlap(['src'], ['srcx']));
    assert.ok(!scopesOverlap(['packages/api'], ['packages/web']));
    assert.ok(!scopesOverlap([], ['']));
  });
});
