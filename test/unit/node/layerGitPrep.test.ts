/**
 * The layer's own index and exclude file for what the sandbox hides (layerGitPrep.ts): a hidden file git
 * tracks is skip-worktree in the layer's index, an untracked one is excluded — each command as the
 * repository's index stands then, however often the step's commands ran before.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareGitForHidden, undoGitPrep } from '../../../src/node/sandbox/layerGitPrep';

describe('git around a staged command: hidden files (layerGitPrep.ts)', () => {
  let root = '';
  let layer = '';
  let upper = '';
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  const hidden = [
    { path: '.env', kind: 'file' as const },
    { path: 'keys/id.key', kind: 'file' as const },
  ];
  /** What git says of `.env` in the layer's index (`S .env`: skip-worktree), or null without one. */
  const layerTag = (): string | null => {
    const index = path.join(upper, '.git', 'index');
    if (!fs.existsSync(index)) return null;
    return execFileSync('git', ['ls-files', '-v', '--', '.env'], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', GIT_INDEX_FILE: index },
    }).trim();
  };
  const exclude = (): string => fs.readFileSync(path.join(upper, '.git', 'info', 'exclude'), 'utf8');

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-gitprep-')));
    layer = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-gitprep-layer-'));
    upper = path.join(layer, 'upper');
    fs.mkdirSync(upper);
    git('init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(root, '.env'), 'TOKEN=x\n');
    fs.mkdirSync(path.join(root, 'keys'));
    fs.writeFileSync(path.join(root, 'keys', 'id.key'), 'k');
    fs.writeFileSync(path.join(root, 'a.txt'), 'a');
    git('add', '.env', 'a.txt');
    git('commit', '-q', '-m', 'init');
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(layer, { recursive: true, force: true });
  });

  it('marks a tracked hidden file skip-worktree and excludes an untracked one, command after command, and leaves nothing behind', () => {
    for (let command = 0; command < 3; command++) {
      assert.deepEqual(prepareGitForHidden(root, upper, hidden), []);
      assert.equal(layerTag(), 'S .env', `command ${command}: .env is skip-worktree in the layer's index`);
      assert.match(exclude(), /^\/keys\/id\.key$/m);
      assert.deepEqual(undoGitPrep(root, upper), []);
      assert.deepEqual(fs.readdirSync(upper), [], 'what the command left as prepared is no change');
    }
    assert.equal(git('ls-files', '-v', '--', '.env').trim(), 'H .env', "the workspace's own index is never marked");
  });

  it('follows the repository: a hidden file git stops tracking is excluded instead at the next command', () => {
    prepareGitForHidden(root, upper, hidden);
    undoGitPrep(root, upper);
    git('rm', '-q', '--cached', '.env');
    prepareGitForHidden(root, upper, hidden);
    assert.equal(layerTag(), null, 'no index of its own: nothing hidden is tracked');
    assert.match(exclude(), /^\/\.env$/m);
    undoGitPrep(root, upper);
    git('add', '.env');
    prepareGitForHidden(root, upper, hidden);
    assert.equal(layerTag(), 'S .env', 'tracked again: marked again');
  });

  it("marks the layer's own index (a granted git add earlier in the step), and takes the mark off what the command wrote", () => {
    prepareGitForHidden(root, upper, hidden);
    const index = path.join(upper, '.git', 'index');
    // The command stages a file in the layer's index (as `git add` inside the sandbox would).
    fs.writeFileSync(path.join(root, 'b.txt'), 'b');
    execFileSync('git', ['add', 'b.txt'], { cwd: root, env: { PATH: process.env.PATH ?? '', GIT_INDEX_FILE: index } });
    assert.deepEqual(undoGitPrep(root, upper), []);
    assert.equal(layerTag(), 'H .env', "the command's index keeps its content without our mark");
    prepareGitForHidden(root, upper, hidden);
    assert.equal(layerTag(), 'S .env', 'marked again before the next command');
    assert.match(execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', GIT_INDEX_FILE: index } }), /b\.txt/);
  });
});
