import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gitRecordedSince, markGitRecord, resetGitRecord } from '../../../src/node/gitRecord';

const ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: os.tmpdir(),
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};

describe("git's record around a command (src/node/gitRecord.ts)", () => {
  let root: string;
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, env: ENV, encoding: 'utf8' }).trim();
  const put = (rel: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  /** Stages a blob for a path the working tree does not hold, hidden from `git status`. */
  const plant = (rel: string): void => {
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: root, env: ENV, input: 'planted\n', encoding: 'utf8' }).trim();
    git('update-index', '--add', '--cacheinfo', `100644,${blob},${rel}`);
    git('update-index', '--skip-worktree', rel);
  };

  beforeEach(() => {
    root = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-gitrecord-')));
    git('init', '-q', '-b', 'main');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('lists what a commit recorded, and flags a path the working tree does not hold (hidden by skip-worktree) — even at an unborn HEAD', () => {
    const mark = markGitRecord(root);
    assert.ok(mark);
    assert.equal(mark.head, null, 'unborn');
    put('src/a.js', 'a\n');
    git('add', 'src/a.js');
    plant('.github/workflows/ci.yml');
    git('commit', '-q', '-m', 'x');
    assert.equal(git('status', '--porcelain'), '', 'git status shows nothing');
    assert.deepEqual(gitRecordedSince(root, mark), [
      { path: '.github/workflows/ci.yml', matchesWorktree: false },
      { path: 'src/a.js', matchesWorktree: true },
    ]);
  });

  it("puts HEAD's branch and the index back; an unborn branch is unborn again", () => {
    const mark = markGitRecord(root);
    assert.ok(mark);
    put('src/a.js', 'a\n');
    git('add', 'src/a.js');
    plant('.vscode/tasks.json');
    git('commit', '-q', '-m', 'x');
    assert.deepEqual(resetGitRecord(root, mark), []);
    assert.throws(() => git('rev-parse', '--verify', '-q', 'HEAD'), 'no commit on main');
    assert.equal(git('ls-files', '--stage'), '', 'the index is empty again');
  });

  it('sees nothing when the record did not change, and no mismatch for a touched but unchanged file', () => {
    put('README.md', '# r\n');
    git('add', 'README.md');
    git('commit', '-q', '-m', 'init');
    const mark = markGitRecord(root);
    assert.ok(mark);
    fs.utimesSync(path.join(root, 'README.md'), new Date(2030, 1, 1), new Date(2030, 1, 1));
    assert.deepEqual(gitRecordedSince(root, mark), []);
    put('README.md', '# changed by the user\n');
    git('commit', '-q', '-a', '-m', 'user change');
    assert.deepEqual(gitRecordedSince(root, mark), [{ path: 'README.md', matchesWorktree: true }]);
    const before = mark.head;
    assert.deepEqual(resetGitRecord(root, mark), []);
    assert.equal(git('rev-parse', 'HEAD'), before, 'main is back on the marked commit');
  });

  it("judges a new tag or branch holding a file the working tree does not, and removes it on reset; a fetch's remote-tracking refs are not judged", () => {
    put('README.md', '# r\n');
    git('add', 'README.md');
    git('commit', '-q', '-m', 'init');
    const mark = markGitRecord(root);
    assert.ok(mark);
    // A commit made with plumbing only: HEAD, the index and the working tree never see it.
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: root, env: ENV, input: 'on: push\n', encoding: 'utf8' }).trim();
    const tree = execFileSync('git', ['mktree'], { cwd: root, env: ENV, input: `100644 blob ${blob}\tci.yml\n`, encoding: 'utf8' }).trim();
    const outer = execFileSync('git', ['mktree'], { cwd: root, env: ENV, input: `040000 tree ${tree}\tworkflows\n`, encoding: 'utf8' }).trim();
    const top = execFileSync('git', ['mktree'], {
      cwd: root,
      env: ENV,
      input: `${git('ls-tree', 'HEAD')}\n040000 tree ${outer}\t.github\n`,
      encoding: 'utf8',
    }).trim();
    const commit = git('commit-tree', top, '-p', 'HEAD', '-m', 'release');
    git('tag', '-a', 'v9', '-m', 'v9', commit);
    git('branch', 'release', commit);
    assert.equal(git('status', '--porcelain'), '');
    assert.deepEqual(gitRecordedSince(root, mark), [{ path: '.github/workflows/ci.yml', matchesWorktree: false }]);
    assert.deepEqual(resetGitRecord(root, mark), []);
    assert.equal(git('tag', '--list'), '', 'the tag is gone');
    assert.equal(git('branch', '--list', 'release'), '', 'and so is the branch');
    assert.deepEqual(gitRecordedSince(root, mark), []);
    git('update-ref', 'refs/remotes/origin/main', commit);
    assert.deepEqual(gitRecordedSince(root, mark), [], 'a remote-tracking ref (what a fetch brings) is not judged');
  });

  it('does not blame the command for what the user had staged before the mark (a partial change the working tree has moved past)', () => {
    put('README.md', '# r\n');
    git('add', 'README.md');
    git('commit', '-q', '-m', 'init');
    put('README.md', '# staged\n');
    git('add', 'README.md');
    put('README.md', '# staged, then edited on\n');
    const mark = markGitRecord(root);
    assert.ok(mark);
    put('src/a.js', 'a\n');
    git('add', 'src/a.js');
    assert.deepEqual(gitRecordedSince(root, mark), [{ path: 'src/a.js', matchesWorktree: true }]);
  });

  it('is null for a folder that is not a repository, or lies inside one rooted above it', () => {
    const plain = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-gitrecord-plain-')));
    try {
      assert.equal(markGitRecord(plain), null);
    } finally {
      fs.rmSync(plain, { recursive: true, force: true });
    }
    fs.mkdirSync(path.join(root, 'sub'));
    assert.equal(markGitRecord(path.join(root, 'sub')), null);
  });
});
