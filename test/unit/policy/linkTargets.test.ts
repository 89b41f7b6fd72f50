/**
 * Where a link really leads, as tables: the walk through every link on the way (the workspace's and a
 * batch's own), what a batch changes underneath, and the verdict — and, on a real disk, that the walk lands
 * where the kernel does for every link that exists.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { StagedChange } from '../../../src/core/contracts/staging';
import { batchView, climbsAfterName, linkRefusal, walkLink, workspaceView, type TreeEntry, type TreeView } from '../../../src/core/policy/linkTargets';
import { checkAction, checkEntry, policyFor, type Policy } from '../../../src/core/policy/policy';
import { nodePolicyFs } from '../../../src/node/nodePolicyFs';

const ROOT = '/ws';

/** A tree from a table: folders end in `/`, links are `-> target`, anything else a file. */
function tree(entries: Record<string, string>): TreeView {
  const at = new Map<string, TreeEntry>();
  for (const [p, what] of Object.entries(entries)) {
    const rel = p.replace(/\/$/, '');
    at.set(rel, what.startsWith('-> ') ? { kind: 'symlink', target: what.slice(3) } : p.endsWith('/') ? { kind: 'directory' } : { kind: 'file' });
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) if (!at.has(parts.slice(0, i).join('/'))) at.set(parts.slice(0, i).join('/'), { kind: 'directory' });
  }
  return (rel) => (rel === '' ? { kind: 'directory' } : (at.get(rel) ?? { kind: 'missing' }));
}

describe('link targets', () => {
  describe('climbsAfterName (a target that names a folder, then leaves it)', () => {
    const table: [string, boolean][] = [
      ['../src/a.js', false],
      ['../../x', false],
      ['a/b.js', false],
      ['./a', false],
      ['up/../sibling/credentials.txt', true],
      ['a/../../x', true],
      ['/ws/a/../b', true],
      ['/ws/src/a.js', false],
    ];
    for (const [target, climbs] of table) it(`${target} → ${climbs}`, () => assert.equal(climbsAfterName(target), climbs));
  });

  describe('walkLink', () => {
    const view = tree({
      'src/': '',
      'src/a.js': '',
      'src/up': '-> ..',
      'lib/': '',
      'lib/x.js': '',
      'docs/README.md': '-> ../README.md',
      'README.md': '',
      out: '-> /elsewhere/out',
      loop1: '-> loop2',
      loop2: '-> loop1',
      'inside-abs': '-> /ws/lib',
      home: '-> ../../home/u',
    });
    const table: { at: string; target: string; lands: string | { outside: RegExp } }[] = [
      { at: 'src/l', target: 'a.js', lands: 'src/a.js' },
      { at: 'src/l', target: '../lib/x.js', lands: 'lib/x.js' },
      { at: 'src/l', target: 'up/lib/x.js', lands: 'lib/x.js' },
      { at: 'src/notes.txt', target: 'up/../sibling/credentials.txt', lands: { outside: /climbs above the workspace root/ } },
      { at: 'src/l', target: '../../etc/passwd', lands: { outside: /climbs above/ } },
      { at: 'a/l', target: '/home/u/.ssh/id_rsa', lands: { outside: /\/home\/u\/\.ssh\/id_rsa, outside the workspace/ } },
      { at: 'a/l', target: '/ws/src/a.js', lands: 'src/a.js' },
      { at: 'src/l', target: '../inside-abs/x.js', lands: 'lib/x.js' },
      { at: 'new/l', target: '../out/x', lands: { outside: /out leads to/ } },
      { at: 'l', target: 'out/file', lands: { outside: /out leads to \/elsewhere\/out/ } },
      { at: 'l', target: 'loop1', lands: { outside: /a loop/ } },
      { at: 'l', target: 'home/.ssh', lands: { outside: /climbs above/ } },
      { at: 'l', target: 'docs/README.md', lands: 'README.md' },
      { at: 'l', target: 'missing/deeper/x', lands: 'missing/deeper/x' },
      { at: 'l', target: 'README.md/x', lands: 'README.md/x' },
    ];
    for (const c of table) {
      it(`${c.at} -> ${c.target}`, () => {
        const w = walkLink(view, [ROOT], c.at, c.target);
        if (typeof c.lands === 'string') {
          assert.ok(w.inside, JSON.stringify(w));
          assert.equal(w.rel, c.lands);
        } else {
          assert.ok(!w.inside, JSON.stringify(w));
          assert.match(w.why, c.lands.outside);
        }
      });
    }

    it('names every link it went through', () => {
      const w = walkLink(view, [ROOT], 'src/notes.txt', 'up/../x');
      assert.deepEqual(w.via, ['src/up -> ..']);
    });

    it('a dangling part is taken as a folder: what it climbs back out of is counted', () => {
      assert.equal(walkLink(view, [ROOT], 'l', 'nope/../../x').inside, false);
      assert.deepEqual(walkLink(view, [ROOT], 'l', 'nope/x'), { inside: true, rel: 'nope/x', kind: 'missing', via: [] });
    });
  });

  describe('batchView (the tree once a batch is applied)', () => {
    const base = tree({ 'src/': '', 'src/up/': '', 'src/up/x': '', old: '-> src', 'gone/': '', 'gone/f': '' });
    const change = (at: string, was: StagedChange['was'], now: StagedChange['now'], target?: string): StagedChange => ({
      path: at,
      was,
      now,
      content: true,
      ...(target !== undefined ? { target } : {}),
    });

    it("shows a link made in the batch over the workspace's folder, and nothing of what the folder held", () => {
      const v = batchView(base, [change('src/up', 'directory', 'symlink', '..')]);
      assert.deepEqual(v('src/up'), { kind: 'symlink', target: '..' });
      assert.deepEqual(v('src/up/x'), { kind: 'missing' });
      assert.deepEqual(v('src'), { kind: 'directory' });
    });

    it('chains links of one batch: `src/up -> ..` then `src/notes.txt -> up/../sibling/x` leads outside', () => {
      const v = batchView(tree({ 'src/': '' }), [change('src/up', null, 'symlink', '..'), change('src/notes.txt', null, 'symlink', 'up/../sibling/x')]);
      const w = walkLink(v, [ROOT], 'src/notes.txt', 'up/../sibling/x');
      assert.equal(w.inside, false);
      assert.deepEqual(w.via, ['src/up -> ..']);
    });

    it('a removed file or link is gone; a removed folder is still taken as there (its removal may be refused)', () => {
      const v = batchView(base, [change('old', 'symlink', null), change('gone', 'directory', null)]);
      assert.deepEqual(v('old'), { kind: 'missing' });
      assert.deepEqual(v('gone/f'), { kind: 'file' });
    });
  });

  describe('linkRefusal on a real workspace', () => {
    let dir: string;
    let ws: string;
    let policy: Policy;

    before(() => {
      dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-links-')));
      ws = path.join(dir, 'ws');
      for (const f of ['src/a.js', 'lib/x.js', '.git/hooks/pre-commit', 'node_modules/p/index.js', '.env', '.plan-execute/state.json'])
        fs.mkdirSync(path.dirname(path.join(ws, f)), { recursive: true });
      for (const f of ['src/a.js', 'lib/x.js', '.git/hooks/pre-commit', 'node_modules/p/index.js', '.plan-execute/state.json'])
        fs.writeFileSync(path.join(ws, f), 'x');
      fs.writeFileSync(path.join(ws, '.env'), 'SECRET=1\n');
      fs.writeFileSync(path.join(ws, '.planexecuteignore'), 'private/\n');
      fs.mkdirSync(path.join(ws, 'private'));
      fs.mkdirSync(path.join(dir, 'sibling'));
      fs.writeFileSync(path.join(dir, 'sibling/credentials.txt'), 'secret');
      fs.symlinkSync('..', path.join(ws, 'src/up'));
      fs.symlinkSync(path.join(dir, 'sibling'), path.join(ws, 'shared'));
      policy = policyFor(ws, { authority: { edit: ['src/**'] } }, { fs: nodePolicyFs });
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const table: { target: string; refused: RegExp | null }[] = [
      { target: 'a.js', refused: null },
      { target: '../lib/x.js', refused: null },
      { target: 'up/lib/x.js', refused: null },
      { target: '..', refused: null },
      { target: 'up/../sibling/credentials.txt', refused: /climbs back out of a folder it names/ },
      { target: '../../sibling/credentials.txt', refused: /leading outside the workspace/ },
      { target: '../shared/credentials.txt', refused: /leading outside the workspace[\s\S]*shared ->/ },
      { target: '/home/u/.ssh/id_rsa', refused: /leading outside the workspace/ },
      { target: '../.env', refused: /may hold secrets/ },
      { target: '../private', refused: /planexecuteignore/ },
      { target: '../.plan-execute/state.json', refused: /protected/ },
      { target: '../.git/hooks/pre-commit', refused: /protected \(git\)/ },
      { target: '../node_modules/p/index.js', refused: /protected \(dependencies\)/ },
      { target: '', refused: /empty target/ },
    ];
    for (const c of table) {
      it(`src/l -> ${c.target || '(empty)'}: ${c.refused ? 'refused' : 'may stay'}`, () => {
        const why = linkRefusal(policy, workspaceView(policy.root, nodePolicyFs), 'src/l', c.target);
        if (c.refused === null) assert.equal(why, undefined);
        else assert.match(why ?? '(allowed)', c.refused);
      });
    }

    it('judges a link entry as named, not what it points to (checkEntry), where checkAction follows it', () => {
      assert.equal(checkAction(policy, { kind: 'write', path: 'src/up' }).allowed, false, 'src/up -> .. resolves to the root');
      assert.deepEqual(checkEntry(policy, 'write', 'src/up'), { allowed: true });
      assert.equal(checkEntry(policy, 'write', 'lib/l').allowed, false, 'outside the edit globs');
      assert.equal(checkEntry(policy, 'write', 'shared/l').allowed, false, 'a folder that leads outside');
    });

    it('an absolute target through the root as the caller spelled it is inside', () => {
      assert.equal(linkRefusal(policy, workspaceView(policy.root, nodePolicyFs), 'src/l', path.join(ws, 'lib/x.js')), undefined);
    });

    it('lands where the kernel does, for every link that exists', () => {
      const links: [string, string][] = [
        ['src/k1', 'up/lib/x.js'],
        ['src/k2', '../lib'],
        ['lib/k3', '../src/up/src/a.js'],
        ['k4', 'src/k2/x.js'],
      ];
      for (const [at, target] of links) fs.symlinkSync(target, path.join(ws, at));
      for (const [at, target] of links) {
        const w = walkLink(workspaceView(policy.root, nodePolicyFs), policy.rootAliases, at, target);
        assert.ok(w.inside, at);
        assert.equal(path.join(ws, w.rel), fs.realpathSync(path.join(ws, at)), at);
      }
    });
  });
});
