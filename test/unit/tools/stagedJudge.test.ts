/**
 * The staged judge as a specification: for each change a command left in its layer, whether it reaches
 * the workspace, stays private to the step, or is refused — and why.
 */
import assert from 'node:assert/strict';
import type { StagedChange } from '../../../src/core/contracts/staging';
import { isToolCache, judgeStaged, type JudgeRules } from '../../../src/core/tools/stagedJudge';

const editGlob = (p: string): boolean => p.startsWith('src/') || p === 'src';
const OUTSIDE = "outside the step's edit globs (src/**)";
/** Links leading out of `/ws` by their text (the real rule, linkTargets.ts, has tables of its own). */
const rules = (over: Partial<JudgeRules> = {}): JudgeRules => ({
  denial: (p) => (editGlob(p) ? undefined : OUTSIDE),
  private: (p) => (p === 'dist' || p.startsWith('dist/') ? 'ignored by .gitignore: dist/' : isToolCache(p) ? 'a tool cache or dependency folder' : undefined),
  gitWritable: false,
  linkRefusal: (l) => (l.target?.startsWith('../../') ? 'a link leading outside the workspace' : undefined),
  ...over,
});
const file = (path: string, was: StagedChange['was'] = 'file', extra: Partial<StagedChange> = {}): StagedChange => ({
  path,
  was,
  now: 'file',
  content: true,
  nowMode: 0o644,
  size: 3,
  ...extra,
});

describe('staged judge', () => {
  it('applies what the edit globs allow, keeps build outputs and caches private, refuses the rest', () => {
    const v = judgeStaged(
      [file('src/a.ts'), { path: 'dist', was: null, now: 'directory', content: true }, file('dist/a.js', null), file('README.md')],
      rules(),
    );
    assert.deepEqual(
      v.apply.map((c) => c.path),
      ['src/a.ts'],
    );
    assert.deepEqual(v.keep, [{ path: 'dist', why: 'ignored by .gitignore: dist/' }]);
    assert.deepEqual(
      v.refused.map((r) => [r.path, r.what, r.why]),
      [['README.md', 'content', OUTSIDE]],
    );
  });

  it('names what the command did to each refused path: new, removed, mode, link target, kind', () => {
    const v = judgeStaged(
      [
        file('new.txt', null),
        { path: 'gone.txt', was: 'file', now: null, content: true },
        { path: 'package.json', was: 'file', now: 'file', content: false, mode: { was: 0o644, now: 0o666 }, nowMode: 0o666 },
        { path: 'link', was: 'symlink', now: 'symlink', content: true, target: 'elsewhere' },
        { path: 'conf', was: 'file', now: 'directory', content: true },
      ],
      rules(),
    );
    assert.deepEqual(Object.fromEntries(v.refused.map((r) => [r.path, r.what])), {
      'new.txt': 'new',
      'gone.txt': 'removed',
      'package.json': 'mode 644 → 666',
      link: 'link target',
      conf: 'kind (file → directory)',
    });
  });

  it("refuses an existing folder's mode change outside the globs (chmod 0777 src stays the workspace's)", () => {
    const v = judgeStaged([{ path: 'lib', was: 'directory', now: 'directory', content: false, mode: { was: 0o755, now: 0o777 }, nowMode: 0o777 }], rules());
    assert.deepEqual(
      v.refused.map((r) => r.what),
      ['mode 755 → 777'],
    );
  });

  it('never applies a FIFO, socket or device, even inside the globs', () => {
    const v = judgeStaged([{ path: 'src/pipe', was: null, now: 'other', content: true }], rules());
    assert.equal(v.apply.length, 0);
    assert.match(v.refused[0]?.why ?? '', /FIFO, socket or device/);
  });

  it('keeps a FIFO or socket where the step keeps what lies there (a test socket in an ignored tmp/)', () => {
    const v = judgeStaged([{ path: 'dist/app.sock', was: null, now: 'other', content: true }], rules());
    assert.deepEqual(v.keep, [{ path: 'dist/app.sock', why: 'a FIFO or socket: ignored by .gitignore: dist/' }]);
    assert.equal(v.refused.length, 0);
  });

  it('a link that may not be applied refuses the batch whole, naming the link and why', () => {
    const v = judgeStaged(
      [
        file('src/a.ts'),
        { path: 'src/out', was: null, now: 'symlink', content: true, target: '../../home/u/.ssh/id_rsa' },
        { path: 'src/in', was: null, now: 'symlink', content: true, target: 'a.ts' },
        { path: 'dist', was: null, now: 'directory', content: true },
      ],
      rules(),
    );
    assert.deepEqual(v.apply, []);
    assert.deepEqual(
      v.refused.map((r) => [r.path, r.rule]),
      [
        ['src/out', 'link'],
        ['src/a.ts', 'batch'],
        ['src/in', 'batch'],
      ],
    );
    assert.match(v.refused[1]?.why ?? '', /nothing of the command's changes is applied[^]*src\/out: a link leading outside/);
    assert.deepEqual(
      v.keep.map((k) => k.path),
      ['dist'],
      'what the step keeps stays kept',
    );
  });

  it('judges links against the whole batch (the rule sees what else would be applied)', () => {
    const seen: string[][] = [];
    judgeStaged(
      [
        { path: 'src/up', was: null, now: 'symlink', content: true, target: '..' },
        { path: 'src/notes.txt', was: null, now: 'symlink', content: true, target: 'up/x' },
      ],
      rules({ linkRefusal: (_l, batch) => void seen.push(batch.map((c) => c.path)) }),
    );
    assert.deepEqual(seen, [
      ['src/notes.txt', 'src/up'],
      ['src/notes.txt', 'src/up'],
    ]);
  });

  it('leaves set-id and sticky bits off what it applies, and says so', () => {
    const v = judgeStaged([file('src/run.sh', 'file', { content: false, mode: { was: 0o755, now: 0o4755 }, nowMode: 0o4755 })], rules());
    assert.equal(v.apply[0]?.nowMode, 0o755);
    assert.deepEqual(v.strippedModes, ['src/run.sh']);
  });

  it('hands a removed folder to the caller to judge entry by entry, unless it is private', () => {
    const v = judgeStaged(
      [
        { path: 'src/gen', was: 'directory', now: null, content: true },
        { path: 'dist', was: 'directory', now: null, content: true },
      ],
      rules(),
    );
    assert.deepEqual(v.removedFolders, ['src/gen']);
    assert.deepEqual(
      v.keep.map((k) => k.path),
      ['dist'],
    );
  });

  it('judges nothing below a kept folder again', () => {
    const v = judgeStaged([{ path: 'node_modules/.cache', was: null, now: 'directory', content: true }, file('node_modules/.cache/x', null)], rules());
    assert.deepEqual(
      v.keep.map((k) => k.path),
      ['node_modules/.cache'],
    );
    assert.equal(v.refused.length, 0);
  });

  it('applies what the globs allow below a kept folder, keeping the rest entry by entry (build/reports/** under an ignored build/)', () => {
    const v = judgeStaged(
      [
        { path: 'build', was: null, now: 'directory', content: true },
        { path: 'build/reports', was: null, now: 'directory', content: true },
        file('build/reports/index.html', null),
        file('build/app.o', null),
      ],
      rules({
        denial: (p) => (p === 'build/reports' || p.startsWith('build/reports/') ? undefined : OUTSIDE),
        private: (p) => (p === 'build' || p.startsWith('build/') ? 'ignored by .gitignore: build/' : undefined),
      }),
    );
    assert.deepEqual(
      v.apply.map((c) => c.path),
      ['build/reports', 'build/reports/index.html'],
    );
    assert.deepEqual(
      v.keep.map((k) => k.path),
      ['build/app.o'],
    );
    assert.deepEqual(v.refused, []);
  });

  it('refuses with the reason the policy gives (protected, hidden), not "outside the globs"', () => {
    const v = judgeStaged([file('.vscode/tasks.json', null)], rules({ denial: () => 'protected (editor_config)' }));
    assert.deepEqual(
      v.refused.map((r) => [r.path, r.why]),
      [['.vscode/tasks.json', 'protected (editor_config)']],
    );
  });

  it('needs no verdict for a new folder whose entries carry their own', () => {
    const v = judgeStaged([{ path: 'docs', was: null, now: 'directory', content: true }, file('docs/a.md', null)], rules());
    assert.deepEqual(
      v.refused.map((r) => r.path),
      ['docs/a.md'],
    );
  });

  describe('git', () => {
    const git = (path: string, now: StagedChange['now'] = 'file'): StagedChange => ({ path, was: null, now, content: true });

    it('refuses every change in .git for a step without git writes', () => {
      const v = judgeStaged([git('.git/index')], rules());
      assert.match(v.refused[0]?.why ?? '', /read-only for this step/);
    });

    it("sends git's data and config to the git check, refuses hooks, replace refs and unfinished rebases, drops stale locks", () => {
      const v = judgeStaged(
        [
          git('.git/objects/ab/cdef'),
          git('.git/refs/heads/main'),
          git('.git/index'),
          git('.git/config'),
          git('.git/hooks/pre-commit'),
          git('.git/refs/replace/abc'),
          git('.git/rebase-merge/git-rebase-todo'),
          git('.git/index.lock'),
          git('.git/info/attributes'),
        ],
        rules({ gitWritable: true }),
      );
      assert.deepEqual(v.git.map((c) => c.path).sort(), ['.git/config', '.git/index', '.git/objects/ab/cdef', '.git/refs/heads/main']);
      assert.deepEqual(v.refused.map((r) => r.path).sort(), [
        '.git/hooks/pre-commit',
        '.git/info/attributes',
        '.git/rebase-merge/git-rebase-todo',
        '.git/refs/replace/abc',
      ]);
      assert.deepEqual(v.dropped.length, 1);
    });
  });

  it('counts tool caches and dependency folders as private wherever they are', () => {
    for (const p of ['node_modules/.cache/babel/x', 'pkg/__pycache__/m.cpython-311.pyc', 'tsconfig.tsbuildinfo', '.pytest_cache/v/x', 'a/.eslintcache'])
      assert.equal(isToolCache(p), true, p);
    for (const p of ['src/cache.ts', 'README.md', 'cache/x']) assert.equal(isToolCache(p), false, p);
  });
});
