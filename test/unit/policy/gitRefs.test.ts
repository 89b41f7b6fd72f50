import assert from 'node:assert/strict';
import { isNotePath, refRole, remoteOf, remoteRefsGranted } from '../../../src/core/policy/gitRefs';

describe('what a ref is for (src/core/policy/gitRefs.ts)', () => {
  const roles: [string, ReturnType<typeof refRole>][] = [
    ['refs/heads/main', 'worktree'],
    ['refs/tags/v1', 'worktree'],
    ['refs/stash', 'worktree'],
    ['refs/custom/anything', 'worktree'],
    ['refs/notes/commits', 'notes'],
    ['refs/notes/review', 'notes'],
    ['refs/remotes/origin/main', 'remote'],
    ['refs/replace/0123abcd', 'replace'],
  ];
  for (const [name, role] of roles) it(`${name} is a ${role} ref`, () => assert.equal(refRole(name), role));

  const notes: [string, boolean][] = [
    ['0123456789abcdef0123456789abcdef01234567', true],
    ['01/23456789abcdef0123456789abcdef01234567', true],
    ['01/23/456789abcdef0123456789abcdef01234567', true],
    [`${'ab'.repeat(32)}`, true],
    ['0123456789abcdef0123456789abcdef0123456', false],
    ['012/3456789abcdef0123456789abcdef01234567', false],
    ['.github/workflows/x.yml', false],
    ['01/23456789ABCDEF0123456789abcdef01234567', false],
    ['AGENTS.md', false],
  ];
  for (const [path, note] of notes) it(`${path} ${note ? 'is' : 'is not'} a note`, () => assert.equal(isNotePath(path), note));

  it('finds the remote of a remote-tracking ref, the longest configured name first', () => {
    assert.equal(remoteOf('refs/remotes/origin/main', ['origin']), 'origin');
    assert.equal(remoteOf('refs/remotes/team/upstream/main', ['team', 'team/upstream']), 'team/upstream');
    assert.equal(remoteOf('refs/remotes/evil/main', ['origin']), undefined);
  });

  const remotes = ['origin', 'upstream'];
  const grants: [string[], string[]][] = [
    [['git', 'fetch'], remotes],
    [['git', 'fetch', 'origin'], ['origin']],
    [['git', 'fetch', '-q', '--prune', 'upstream', 'main'], ['upstream']],
    [['git', 'fetch', '--depth', '1', 'origin'], ['origin']],
    [['git', 'fetch', '--all'], remotes],
    [['git', 'fetch', '--multiple', 'origin'], ['origin']],
    [['git', 'pull', '--ff-only'], remotes],
    [['git', 'pull', 'origin', 'main'], ['origin']],
    [['git', 'push', '-u', 'origin', 'feature'], ['origin']],
    [['git', '-C', '.', 'fetch', 'origin'], ['origin']],
    [['/usr/bin/git', 'fetch', 'origin'], ['origin']],
    [['git', 'remote', 'update'], remotes],
    // A fetch from a path or URL that is no configured remote moves no remote-tracking ref.
    [['git', 'fetch', '.', 'evil:refs/remotes/origin/main'], []],
    [['git', 'fetch', '../elsewhere.git'], []],
    [['git', 'fetch', 'https://example.invalid/x.git', 'main:refs/remotes/origin/main'], []],
    [['git', 'update-ref', 'refs/remotes/origin/main', 'HEAD'], []],
    [['git', 'commit', '-m', 'fetch origin'], []],
    [['git', 'remote', 'add', 'evil', '../x'], []],
    [['sh', '-c', 'git fetch origin'], []],
  ];
  for (const [argv, granted] of grants) {
    it(`\`${argv.join(' ')}\` may move the remote-tracking refs of ${granted.length > 0 ? granted.join(', ') : 'no remote'}`, () =>
      assert.deepEqual(remoteRefsGranted(argv, remotes), granted));
  }
});
