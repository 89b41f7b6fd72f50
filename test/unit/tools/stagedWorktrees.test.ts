import assert from 'node:assert/strict';
import type { StagedChange } from '../../../src/core/contracts/staging';
import { judgeWorktrees } from '../../../src/core/tools/stagedWorktrees';

const root = '/ws';
const enc = (t: string): Uint8Array => new TextEncoder().encode(t);
const file = (path: string, was: StagedChange['was'] = null): StagedChange => ({ path, was, now: 'file', content: true });

/** What `git worktree add .worktrees/hotfix` leaves in a layer, with `over` replacing file contents. */
function added(over: Record<string, string> = {}, extra: string[] = []): { changes: StagedChange[]; layer: Record<string, string> } {
  const layer: Record<string, string> = {
    '.git/worktrees/hotfix/gitdir': `${root}/.worktrees/hotfix/.git\n`,
    '.git/worktrees/hotfix/commondir': '../..\n',
    '.git/worktrees/hotfix/HEAD': 'ref: refs/heads/hotfix\n',
    '.worktrees/hotfix/.git': `gitdir: ${root}/.git/worktrees/hotfix\n`,
    '.worktrees/hotfix/src/a.js': 'a\n',
    ...over,
  };
  const paths = [...new Set([...Object.keys(layer), ...extra])];
  return { changes: [{ path: '.worktrees', was: null, now: 'directory', content: true }, ...paths.map((p) => file(p))], layer };
}

/** The main checkout: what the workspace holds at the root. */
const workspace: Record<string, string> = { '.vscode/settings.json': '{"editor.tabSize": 2}\n', 'src/a.js': 'a\n' };
const mayWrite = (p: string): boolean => p.startsWith('.worktrees/') && !/(^|\/)(\.git|\.vscode\/.*)$/.test(p);

async function judge(changes: StagedChange[], layer: Record<string, string>) {
  return judgeWorktrees(changes, {
    root,
    mayWrite,
    readLayer: async (p) => enc(layer[p] ?? ''),
    readWorkspace: async (p) => (workspace[p] !== undefined ? enc(workspace[p]) : null),
  });
}

describe('git worktree add in a staged command (src/core/tools/stagedWorktrees.ts)', () => {
  it('takes a registration whose links are what `git worktree add` writes: the .git file is accepted', async () => {
    const { changes, layer } = added();
    const v = await judge(changes, layer);
    assert.deepEqual(v.refused, []);
    assert.deepEqual([...v.accepted], ['.worktrees/hotfix/.git']);
    assert.deepEqual(v.pointers, ['.worktrees/hotfix/.git']);
  });

  it('takes a protected file of the checkout that holds what the main checkout holds there (a mirror), and no other', async () => {
    const same = added({ '.worktrees/hotfix/.vscode/settings.json': workspace['.vscode/settings.json'] ?? '' });
    assert.ok((await judge(same.changes, same.layer)).accepted.has('.worktrees/hotfix/.vscode/settings.json'));
    const other = added({ '.worktrees/hotfix/.vscode/tasks.json': '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\n' });
    const v = await judge(other.changes, other.layer);
    assert.equal(v.accepted.size, 0);
    assert.match(v.refused[0]?.why ?? '', /not within the step's edit globs/);
  });

  const refusals: [string, Record<string, string>, RegExp][] = [
    ['a .git file pointing at a folder of planted hooks', { '.worktrees/hotfix/.git': `gitdir: ${root}/src/evil\n` }, /does not point back/],
    ['a gitdir naming a folder outside the workspace', { '.git/worktrees/hotfix/gitdir': '/home/user/.ssh/.git\n' }, /not a folder of the workspace/],
    ['a gitdir naming a folder inside .git', { '.git/worktrees/hotfix/gitdir': `${root}/.git/x/.git\n` }, /not a folder of the workspace/],
    ['a commondir pointing at another repository', { '.git/worktrees/hotfix/commondir': '/srv/other.git\n' }, /not a folder of the workspace/],
  ];
  for (const [name, over, why] of refusals) {
    it(`refuses ${name}, with its .git file and every file of its git folder`, async () => {
      const { changes, layer } = added(over);
      const v = await judge(changes, layer);
      assert.equal(v.accepted.size, 0);
      assert.ok(v.refused.length > 0 && v.refused.every((r) => why.test(r.why)), JSON.stringify(v.refused));
      assert.ok(v.refused.some((r) => r.path === '.git/worktrees/hotfix/HEAD'));
    });
  }

  it('lets `git worktree remove` take the .git file with the folder and the registration — and only then', async () => {
    const real: Record<string, string> = { '.git/worktrees/old/gitdir': `${root}/.worktrees/old/.git\n` };
    const removed = (paths: string[]): StagedChange[] => paths.map((path) => ({ path, was: 'directory', now: null, content: true }));
    const judgeRemoval = (changes: StagedChange[]) =>
      judgeWorktrees(changes, { root, mayWrite, readLayer: async () => enc(''), readWorkspace: async (p) => (real[p] !== undefined ? enc(real[p]) : null) });
    assert.deepEqual([...(await judgeRemoval(removed(['.git/worktrees/old', '.worktrees/old']))).removable], ['.worktrees/old/.git']);
    assert.equal((await judgeRemoval(removed(['.worktrees/old']))).removable.size, 0, 'the folder alone: its registration stays, so does its .git');
    assert.equal((await judgeRemoval(removed(['.git/worktrees/old']))).removable.size, 0, 'the registration alone: nothing of the folder goes');
  });

  it("refuses a change to an existing registration's links (a worktree moved elsewhere)", async () => {
    const v = await judge([file('.git/worktrees/old/gitdir', 'file')], { '.git/worktrees/old/gitdir': `${root}/src/.git\n` });
    assert.match(v.refused[0]?.why ?? '', /never changed afterwards/);
  });
});
