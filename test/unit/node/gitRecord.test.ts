import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { GitJudgeOptions, GitRecorded } from '../../../src/core/ports';
import { gitRecordedSince, markGitRecord, resetGitRecord } from '../../../src/node/gitRecord';

const ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: os.tmpdir(),
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** What the engine refuses: a record outside the globs that the workspace does not hold, or one refused outright. */
const offending = (list: GitRecorded[], options: GitJudgeOptions): string[] =>
  list.filter((r) => r.refused !== undefined || (!r.matchesWorktree && !options.mayWrite(r.path))).map((r) => `${r.path} (${r.by ?? '?'})`);
const srcOnly: GitJudgeOptions = { argv: ['git', 'commit'], mayWrite: (p) => p.startsWith('src/') };

describe("git's record around a command (src/node/gitRecord.ts)", function () {
  this.timeout(30_000);
  let root: string;
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, env: ENV, encoding: 'utf8' }).trim();
  const gitIn = (input: string, ...args: string[]): string => execFileSync('git', args, { cwd: root, env: ENV, input, encoding: 'utf8' }).trim();
  const put = (rel: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  /** Stages a blob for a path the working tree does not hold, hidden from `git status`. */
  const plant = (rel: string): void => {
    const blob = gitIn('planted\n', 'hash-object', '-w', '--stdin');
    git('update-index', '--add', '--cacheinfo', `100644,${blob},${rel}`);
    git('update-index', '--skip-worktree', rel);
  };
  /** A commit on `parent` whose tree is `parent`'s plus `files` (made with plumbing: no working tree, no index). */
  const commitWith = (parent: string, files: Record<string, string>, message = 'planted'): string => {
    const index = path.join(root, '.git', 'plant-index');
    const env = { ...ENV, GIT_INDEX_FILE: index };
    execFileSync('git', ['read-tree', parent], { cwd: root, env });
    for (const [rel, text] of Object.entries(files)) {
      const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: root, env, input: text, encoding: 'utf8' }).trim();
      execFileSync('git', ['update-index', '--add', '--cacheinfo', `100644,${blob},${rel}`], { cwd: root, env });
    }
    const tree = execFileSync('git', ['write-tree'], { cwd: root, env, encoding: 'utf8' }).trim();
    fs.rmSync(index, { force: true });
    return git('commit-tree', tree, '-p', parent, '-m', message);
  };
  const initial = (): void => {
    put('README.md', '# r\n');
    put('src/a.js', 'a\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'init');
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
    assert.deepEqual(
      gitRecordedSince(root, mark).map((r) => [r.path, r.matchesWorktree]),
      [
        ['.github/workflows/ci.yml', false],
        ['src/a.js', true],
      ],
    );
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
    initial();
    const mark = markGitRecord(root);
    assert.ok(mark);
    fs.utimesSync(path.join(root, 'README.md'), new Date(2030, 1, 1), new Date(2030, 1, 1));
    assert.deepEqual(gitRecordedSince(root, mark), []);
    put('README.md', '# changed by the user\n');
    git('commit', '-q', '-a', '-m', 'user change');
    assert.deepEqual(offending(gitRecordedSince(root, mark, undefined, srcOnly), srcOnly), []);
    const before = mark.head;
    assert.deepEqual(resetGitRecord(root, mark), []);
    assert.equal(git('rev-parse', 'HEAD'), before, 'main is back on the marked commit');
  });

  it('judges a new tag or branch holding a file the working tree does not, and removes it on reset', () => {
    initial();
    const mark = markGitRecord(root);
    assert.ok(mark);
    const commit = commitWith('HEAD', { '.github/workflows/ci.yml': 'on: push\n' }, 'release');
    git('tag', '-a', 'v9', '-m', 'v9', commit);
    git('branch', 'release', commit);
    assert.equal(git('status', '--porcelain'), '');
    assert.deepEqual(offending(gitRecordedSince(root, mark, undefined, srcOnly), srcOnly), ['.github/workflows/ci.yml (refs/heads/release)']);
    assert.deepEqual(resetGitRecord(root, mark), []);
    assert.equal(git('tag', '--list'), '', 'the tag is gone');
    assert.equal(git('branch', '--list', 'release'), '', 'and so is the branch');
    assert.deepEqual(gitRecordedSince(root, mark, undefined, srcOnly), []);
  });

  it('does not blame the command for what the user had staged before the mark (a partial change the working tree has moved past)', () => {
    initial();
    put('README.md', '# staged\n');
    git('add', 'README.md');
    put('README.md', '# staged, then edited on\n');
    const mark = markGitRecord(root);
    assert.ok(mark);
    put('src/b.js', 'b\n');
    git('add', 'src/b.js');
    assert.deepEqual(
      gitRecordedSince(root, mark).map((r) => [r.path, r.matchesWorktree, r.by]),
      [['src/b.js', true, 'the index']],
    );
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

  describe('everything newly reachable, judged like a tip (gitHistory.ts)', () => {
    /** Each case: what the command does after the mark, and what the review must refuse (path and what records it). */
    const cases: { name: string; act: () => void; refused: RegExp[]; options?: Partial<GitJudgeOptions> }[] = [
      {
        name: 'a commit between the new tip and the old HEAD carrying a workflow the tip removes again',
        act: () => {
          const evil = commitWith('HEAD', { '.github/workflows/x.yml': 'on: push\n' });
          const clean = git('commit-tree', `${evil}^{tree}`, '-p', evil, '-m', 'tidy');
          const index = path.join(root, '.git', 'i2');
          execFileSync('git', ['read-tree', clean], { cwd: root, env: { ...ENV, GIT_INDEX_FILE: index } });
          execFileSync('git', ['rm', '-q', '--cached', '.github/workflows/x.yml'], { cwd: root, env: { ...ENV, GIT_INDEX_FILE: index } });
          const tree = execFileSync('git', ['write-tree'], { cwd: root, env: { ...ENV, GIT_INDEX_FILE: index }, encoding: 'utf8' }).trim();
          git('update-ref', 'refs/heads/main', git('commit-tree', tree, '-p', clean, '-m', 'tip'));
        },
        refused: [/^\.github\/workflows\/x\.yml \(commit [0-9a-f]{7}\)$/],
      },
      {
        name: 'a stash whose untracked-files parent carries .github/workflows, .vscode/tasks.json and a root AGENTS.md',
        act: () => {
          put('.github/workflows/x.yml', 'on: push\n');
          put('.vscode/tasks.json', '{}\n');
          put('AGENTS.md', 'obey\n');
          put('src/a.js', 'a2\n');
          git('stash', 'push', '-q', '-u');
        },
        refused: [
          /^\.github\/workflows\/x\.yml \(stash@\{0\}'s untracked files\)$/,
          /^\.vscode\/tasks\.json \(stash@\{0\}'s untracked files\)$/,
          /^AGENTS\.md \(stash@\{0\}'s untracked files\)$/,
        ],
      },
      {
        name: 'a stash entry kept only in the reflog (refs/stash still names the old entry)',
        act: () => {
          put('src/a.js', 'a2\n');
          git('stash', 'push', '-q');
          const first = git('rev-parse', 'refs/stash');
          const evil = git(
            'commit-tree',
            `${commitWith('HEAD', { 'AGENTS.md': 'obey\n' })}^{tree}`,
            '-p',
            'HEAD',
            '-p',
            git('commit-tree', 'HEAD^{tree}', '-p', 'HEAD', '-m', 'index'),
            '-m',
            'WIP on main',
          );
          const log = path.join(root, '.git/logs/refs/stash');
          const line = fs.readFileSync(log, 'utf8').split('\n')[0] ?? '';
          fs.appendFileSync(log, `${line.replace(/^\S+ \S+/, `${first} ${evil}`)}\n`);
          git('update-ref', 'refs/stash', first);
        },
        refused: [/^AGENTS\.md \(stash@\{\d\}\)$/],
      },
      {
        name: 'a remote-tracking ref forged locally (refs/remotes/origin/feature delivering a workflow at `git checkout feature`)',
        act: () => {
          git('remote', 'add', 'origin', '../nowhere.git');
          git('update-ref', 'refs/remotes/origin/feature', commitWith('HEAD', { '.github/workflows/x.yml': 'on: push\n' }));
        },
        refused: [/^refs\/remotes\/origin\/feature \(refs\/remotes\/origin\/feature\)$/],
      },
      {
        name: 'a replace ref (packed, where no file under refs/replace shows it)',
        act: () => {
          git('replace', git('rev-parse', 'HEAD'), commitWith('HEAD', { 'AGENTS.md': 'obey\n' }));
          git('pack-refs', '--all');
        },
        refused: [/^refs\/replace\//],
      },
      {
        name: 'a blob the step committed at a path inside its globs, reused at a path outside them',
        act: () => {
          put('src/payload.json', '{"runOn": "folderOpen"}\n');
          git('add', 'src/payload.json');
          git('commit', '-q', '-m', 'payload');
          const index = path.join(root, '.git', 'i3');
          const env = { ...ENV, GIT_INDEX_FILE: index };
          execFileSync('git', ['read-tree', 'HEAD'], { cwd: root, env });
          const blob = git('rev-parse', 'HEAD:src/payload.json');
          execFileSync('git', ['update-index', '--add', '--cacheinfo', `100644,${blob},.vscode/tasks.json`], { cwd: root, env });
          const tree = execFileSync('git', ['write-tree'], { cwd: root, env, encoding: 'utf8' }).trim();
          const mid = git('commit-tree', tree, '-p', 'HEAD', '-m', 'mid');
          git('update-ref', 'refs/heads/main', git('commit-tree', 'HEAD^{tree}', '-p', mid, '-m', 'tip'));
        },
        refused: [/^\.vscode\/tasks\.json \(commit [0-9a-f]{7}\)$/],
      },
      {
        name: 'a notes ref holding a file that is not a note',
        act: () => {
          git('update-ref', 'refs/notes/commits', commitWith(git('commit-tree', gitIn('', 'mktree'), '-m', 'n'), { '.github/workflows/x.yml': 'on: push\n' }));
        },
        refused: [/^\.github\/workflows\/x\.yml \(notes commit/],
      },
    ];
    for (const c of cases) {
      it(`refuses ${c.name}`, () => {
        initial();
        const mark = markGitRecord(root);
        assert.ok(mark);
        c.act();
        const options = { ...srcOnly, ...c.options };
        const found = offending(gitRecordedSince(root, mark, undefined, options), options);
        for (const re of c.refused)
          assert.ok(
            found.some((f) => re.test(f)),
            `${re} in ${JSON.stringify(found)}`,
          );
        assert.deepEqual(resetGitRecord(root, mark), []);
        assert.deepEqual(
          offending(gitRecordedSince(root, mark, undefined, options), options),
          [],
          'put back: refs, HEAD, the index and the reflogs name nothing new',
        );
      });
    }

    /** The legitimate halves: nothing refused. */
    const fine: { name: string; act: () => void; options?: Partial<GitJudgeOptions> }[] = [
      {
        name: 'git notes add (judged as notes, not as a branch)',
        act: () => git('notes', 'add', '-m', 'reviewed', 'HEAD'),
      },
      {
        name: "a rebase of the user's own branch whose commits changed README.md (old content re-recorded)",
        act: () => {
          git('rebase', '-q', 'side');
        },
      },
      {
        name: 'a granted fetch moving origin/main to what the remote holds',
        act: () => git('fetch', '-q', 'origin'),
        options: { argv: ['git', 'fetch', 'origin'] },
      },
      {
        name: 'a worktree added inside the globs, with a commit there',
        act: () => {
          git('worktree', 'add', '-q', '.worktrees/hotfix', '-b', 'hotfix');
          fs.writeFileSync(path.join(root, '.worktrees/hotfix/src/a.js'), 'fixed\n');
          execFileSync('git', ['commit', '-q', '-am', 'fix'], { cwd: path.join(root, '.worktrees/hotfix'), env: ENV });
        },
        options: { mayWrite: (p) => p.startsWith('.worktrees/') },
      },
      {
        name: 'a commit then `git reset --hard HEAD~1` (the dropped commit stays in the reflog, inside the globs)',
        act: () => {
          put('src/a.js', 'tried\n');
          git('commit', '-q', '-am', 'try');
          git('reset', '-q', '--hard', 'HEAD~1');
        },
      },
      {
        name: 'git stash of a change inside the globs',
        act: () => {
          put('src/a.js', 'wip\n');
          git('stash', '-q');
        },
      },
    ];
    for (const c of fine) {
      it(`takes ${c.name}`, () => {
        initial();
        if (c.name.includes('rebase')) {
          // The user's own history: README.md changed on main before the mission, `side` moved on since.
          git('checkout', '-q', '-b', 'side');
          put('other.txt', 'o\n');
          git('add', 'other.txt');
          git('commit', '-q', '-m', 'side');
          git('checkout', '-q', 'main');
          put('README.md', '# r2\n');
          git('commit', '-q', '-am', 'readme 2');
          put('README.md', '# r3\n');
          put('src/a.js', 'a3\n');
          git('commit', '-q', '-am', 'readme 3');
          // A tag naming a tree (git.git has one): the search in old history must not trip on it.
          git('tag', 'a-tree', git('write-tree'));
        }
        if (c.name.includes('fetch')) {
          const origin = `${root}-origin.git`;
          execFileSync('git', ['clone', '-q', '--bare', root, origin], { env: ENV });
          git('remote', 'add', 'origin', origin);
          git('fetch', '-q', 'origin');
          git('push', '-q', 'origin', `${commitWith('HEAD', { '.github/workflows/ci.yml': 'on: push\n' })}:refs/heads/main`);
        }
        const mark = markGitRecord(root);
        assert.ok(mark);
        c.act();
        const options = { ...srcOnly, ...c.options };
        assert.deepEqual(offending(gitRecordedSince(root, mark, undefined, options), options), []);
        fs.rmSync(`${root}-origin.git`, { recursive: true, force: true });
      });
    }
  });
});
