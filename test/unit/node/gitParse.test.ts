import assert from 'node:assert/strict';
import { parseRawZ, parseWorktreeList } from '../../../src/node/gitParse';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const Z = '0'.repeat(40);

describe("readers of git's machine output (src/node/gitParse.ts)", () => {
  const raw: [string, string, { commit: string; path: string; mode: string; id: string; status: string }[]][] = [
    ['a plain diff', `${C}\0:100644 100644 ${A} ${B} M\0src/a.js\0`, [{ commit: C, path: 'src/a.js', mode: '100644', id: B, status: 'M' }]],
    ['a root commit (--root)', `${C}\0:000000 100644 ${Z} ${A} A\0README.md\0`, [{ commit: C, path: 'README.md', mode: '100644', id: A, status: 'A' }]],
    ['a removal', `${C}\0:100644 000000 ${A} ${Z} D\0gone.txt\0`, [{ commit: C, path: 'gone.txt', mode: '000000', id: Z, status: 'D' }]],
    [
      'a merge (-c): the commit’s own mode and id last',
      `${C}\0::100644 100644 100755 ${A} ${B} ${C} MM\0bin/run\0`,
      [{ commit: C, path: 'bin/run', mode: '100755', id: C, status: 'MM' }],
    ],
    [
      'git log --format=%H (a newline before the raw lines)',
      `${C}\0\n:100644 100644 ${A} ${B} M\0a b\tc\0`,
      [{ commit: C, path: 'a b\tc', mode: '100644', id: B, status: 'M' }],
    ],
    [
      'two commits',
      `${A}\0:000000 100644 ${Z} ${B} A\0x\0${C}\0:100644 100644 ${B} ${A} M\0x\0`,
      [
        { commit: A, path: 'x', mode: '100644', id: B, status: 'A' },
        { commit: C, path: 'x', mode: '100644', id: A, status: 'M' },
      ],
    ],
    ['nothing', '', []],
  ];
  for (const [name, out, want] of raw) {
    it(`reads raw -z output: ${name}`, () =>
      assert.deepEqual(
        parseRawZ(out).map(({ commit, path, mode, id, status }) => ({ commit, path, mode, id, status })),
        want,
      ));
  }

  it('reads `git worktree list --porcelain -z`: branches, detached and prunable worktrees', () => {
    const out = `worktree /ws\0HEAD ${A}\0branch refs/heads/main\0\0worktree /ws/.worktrees/hotfix\0HEAD ${B}\0branch refs/heads/hotfix\0prunable gitdir file points to non-existent location\0\0worktree /elsewhere\0HEAD ${C}\0detached\0\0`;
    assert.deepEqual(parseWorktreeList(out), [
      { path: '/ws', head: A, branch: 'refs/heads/main' },
      { path: '/ws/.worktrees/hotfix', head: B, branch: 'refs/heads/hotfix' },
      { path: '/elsewhere', head: C },
    ]);
  });
});
