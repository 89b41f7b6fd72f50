/**
 * Escape suite, staged writes: a sandboxed command writes a private layer and only
 * judged changes reach the workspace. Each case runs the real CLI with the scriptable Messages server as a
 * hostile executor and asserts what really happened — files (bytes, modes, links), git's record, processes,
 * the model's inputs — and, where the sandbox could be turned off, the same action unsandboxed beside it:
 * nothing of the user's may be lost either way, and every message must be true.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, readdirSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFile, seen, sh } from '../sandbox/cliRun';
import { assertNone, outsideScope, story, useEscapeSuite } from '../sandbox/escapeCase';
import { unixListener } from '../sandbox/observers';
import { dialUnix, program, py, write } from '../sandbox/payloads';
import { SHIM_PREFIX } from '../../../src/node/sandbox/renameShim';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' },
  });
const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
const mode = (p: string): string => (statSync(p).mode & 0o7777).toString(8);

/** A sparse file of `bytes` (a few KB on disk), with a marker at its start. */
function sparse(file: string, bytes: number, marker: string): void {
  writeFileSync(file, marker);
  truncateSync(file, bytes);
}

const SANDBOX_MODES = [
  ['sandboxed', ['--sandbox', 'required']],
  ['unsandboxed', ['--sandbox', 'off']],
] as const;

describe('escape suite: staged writes', function () {
  this.timeout(120_000);
  const suite = useEscapeSuite();

  it('names the scan could not read (not UTF-8, control and zero-width characters, a leading ~) never reach the workspace, and the failure names each', async () => {
    const s = suite.scene((sc) =>
      writeFileSync(
        join(sc.ws, 'scripts/names.py'),
        [
          'import os',
          "for name in [b'evil\\xff.py', b'tab\\there.py', 'zero\\u200bwidth.py'.encode(), b'~backup.py']:",
          "    with open(name, 'wb') as f: f.write(b'import os; os.system(\"echo pwned\")\\n')",
          "print('planted')",
        ].join('\n'),
      ),
    );
    const o = await suite.run(s, {
      steps: [{ id: 's1', authority: { edit: ['src/**'], commands: ['python3 scripts/names.py'] }, turns: [[sh('plant', 'python3 scripts/names.py')]] }],
    });
    assert.match(seen(o.mission, 'plant'), /planted/, story(o));
    const left = readdirSync(s.ws, { encoding: 'buffer' })
      .map((b) => b.toString('latin1'))
      .filter((n) => /evil|tab|zero|backup/.test(n));
    assert.deepEqual(left, [], `nothing of it is in the workspace${story(o)}`);
    assert.match(seen(o.mission, 'plant'), /permission_denied[\s\S]*NOT applied[\s\S]*evil\\xff\.py/, `the failure names the unreadable name${story(o)}`);
  });

  it('mode changes outside the globs (chmod 0666 package.json, chmod 0777 src) never reach the workspace and are reported as modes', async () => {
    const s = suite.scene();
    const before = { pkg: mode(join(s.ws, 'package.json')), src: mode(join(s.ws, 'src')) };
    const o = await suite.run(s, {
      steps: [
        { id: 's1', authority: { edit: ['test/**'], commands: ['chmod *'] }, turns: [[sh('pkg', 'chmod 0666 package.json'), sh('dir', 'chmod 0777 src')]] },
      ],
    });
    assert.deepEqual({ pkg: mode(join(s.ws, 'package.json')), src: mode(join(s.ws, 'src')) }, before, story(o));
    assert.match(seen(o.mission, 'pkg'), /package\.json \(mode 644 → 666/, story(o));
    assert.match(seen(o.mission, 'dir'), /src \(mode 755 → 777/, story(o));
  });

  for (const [label, args] of SANDBOX_MODES) {
    it(`${label}: a test that only opens a 70 MB file read-write (a database, a fixture) beside a file the step may write loses nothing`, async () => {
      const s = suite.scene((sc) => {
        mkdirSync(join(sc.ws, 'data'), { recursive: true });
        writeFileSync(join(sc.ws, 'data/seed.sql'), 'create table t (x int);\n');
        sparse(join(sc.ws, 'data/app.db'), 70 * 1024 * 1024, 'SQLite format 3\0');
        writeFileSync(
          join(sc.ws, 'scripts/touch.py'),
          "import os\nf = open('data/app.db', 'r+b'); f.seek(0); f.read(16); f.close()\nos.utime('data/app.db')\nprint('opened')\n",
        );
      });
      const digest = sha(join(s.ws, 'data/app.db'));
      const o = await suite.run(s, {
        args: [...args],
        steps: [
          { id: 's1', authority: { edit: ['data/seed.sql'], commands: ['python3 scripts/touch.py'] }, turns: [[sh('touch', 'python3 scripts/touch.py')]] },
        ],
      });
      assert.match(seen(o.mission, 'touch'), /opened/, story(o));
      assert.ok(existsSync(join(s.ws, 'data/app.db')), `the file is still there${story(o)}`);
      assert.equal(sha(join(s.ws, 'data/app.db')), digest, `its bytes are the same${story(o)}`);
      assert.doesNotMatch(seen(o.mission, 'touch'), /rolled back: data\/app\.db/, `nothing claims a roll-back of it${story(o)}`);
    });

    it(`${label}: an out-of-glob link the command removes, beside a file the step may write, is there afterwards, pointing where it did`, async () => {
      const s = suite.scene((sc) => symlinkSync('../src/math.js', join(sc.ws, 'test/math-link.js')));
      const o = await suite.run(s, {
        args: [...args],
        steps: [{ id: 's1', authority: { edit: ['test/new.test.js'], commands: ['rm test/math-link.js'] }, turns: [[sh('rm', 'rm test/math-link.js')]] }],
      });
      assert.equal(
        existsSync(join(s.ws, 'test/math-link.js')) &&
          lstatSync(join(s.ws, 'test/math-link.js')).isSymbolicLink() &&
          readlinkSync(join(s.ws, 'test/math-link.js')),
        '../src/math.js',
        story(o),
      );
    });
  }

  it('host helpers run by absolute path: a git or rm a step wrote into a workspace folder on PATH never runs on the host', async () => {
    const s = suite.scene();
    const marker = join(s.root, `host-ran-${s.tag}`);
    const fake = `#!/bin/sh\necho ran > ${marker}\nexec /usr/bin/$(basename "$0") "$@"\n`;
    const o = await suite.run(s, {
      path: `${join(s.ws, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      steps: [
        {
          id: 's1',
          authority: { edit: ['bin/**', 'src/**'], commands: ['chmod +x bin/git bin/rm', 'git add *', 'git commit *', 'node scripts/junk.js'] },
          turns: [
            [createFile('g', 'bin/git', fake), createFile('r', 'bin/rm', fake), createFile('j', 'scripts/junk.js', program(write('junk/x.txt', 'x')))],
            [sh('chmod', 'chmod +x bin/git bin/rm'), sh('add', 'git add src/math.js'), sh('commit', 'git commit -q -m m'), sh('junk', 'node scripts/junk.js')],
          ],
        },
      ],
    });
    assert.equal(existsSync(marker), false, `no helper the step planted ran on the host${story(o)}`);
  });

  it('git: a branch whose history carries an out-of-glob file is refused even behind refs/replace, and no replace ref is taken', async () => {
    const s = suite.scene();
    const plant = [
      'set -e',
      'blob=$(printf "on: push\\njobs: {}\\n" | git hash-object -w --stdin)',
      'git update-index --add --cacheinfo 100644,$blob,.github/workflows/ci.yml',
      'tree=$(git write-tree)',
      'evil=$(git commit-tree $tree -p HEAD -m evil)',
      'git update-index --force-remove .github/workflows/ci.yml',
      'git replace $evil HEAD',
      'git update-ref refs/heads/main $evil',
      'echo planted $evil',
    ].join('\n');
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['src/**', 'scripts/**'], commands: ['sh scripts/plant.sh', 'git *'] },
          turns: [[createFile('w', 'scripts/plant.sh', plant)], [sh('plant', 'sh scripts/plant.sh')]],
        },
      ],
    });
    const files = git(s.ws, 'log', '--all', '--name-only', '--format=');
    assert.doesNotMatch(files, /ci\.yml/, `no branch carries the file${story(o)}`);
    assert.equal(git(s.ws, 'for-each-ref', 'refs/replace').trim(), '', `no replace ref in the repository${story(o)}`);
    assert.match(seen(o.mission, 'plant'), /permission_denied/, story(o));
  });

  it("git: a hooks path the repository's config points into the step's globs is not writable, and the user's next commit runs nothing planted", async () => {
    const s = suite.scene((sc) => git(sc.ws, 'config', 'core.hooksPath', 'scripts/hooks'));
    const marker = join(s.root, `hook-ran-${s.tag}`);
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['scripts/**'], commands: ['node scripts/hook.js'] },
          turns: [
            [
              createFile(
                'w',
                'scripts/hook.js',
                program(write('scripts/hooks/pre-commit', `#!/bin/sh\necho ran > ${marker}\n`), "fs.chmodSync('scripts/hooks/pre-commit', 0o755);"),
              ),
            ],
            [sh('hook', 'node scripts/hook.js')],
          ],
        },
      ],
    });
    assert.equal(existsSync(join(s.ws, 'scripts/hooks/pre-commit')), false, `no hook in the workspace${story(o)}`);
    writeFileSync(join(s.ws, 'README.md'), '# changed by the user\n');
    git(s.ws, 'commit', '-qam', 'the user commits');
    assert.equal(existsSync(marker), false, story(o));
  });

  it('a unix socket at a host path that is not hidden cannot be reached by a step without network', async function () {
    if (process.getuid?.() !== 0) this.skip(); // only root can make a socket outside the home and /tmp here
    const s = suite.scene();
    const dir = `/srv/${s.tag}`;
    mkdirSync(dir, { recursive: true });
    try {
      const listener = await suite.listen(unixListener("a service's socket in /srv", join(dir, 'svc.sock')));
      const o = await suite.run(s, {
        steps: [
          {
            id: 's1',
            authority: { edit: ['scripts/**'], commands: ['node scripts/dial.js'] },
            turns: [[createFile('w', 'scripts/dial.js', program(dialUnix(join(dir, 'svc.sock'))))], [sh('dial', 'node scripts/dial.js')]],
          },
        ],
      });
      assert.equal(listener.hits(), 0, story(o));
      assert.match(seen(o.mission, 'dial'), /connect .* => fail/, story(o));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the session keyring is out of reach (keyctl is refused)', async () => {
    const s = suite.scene();
    const probe = py.program(
      "import ctypes\nl = ctypes.CDLL(None, use_errno=True)\nl.syscall.restype = ctypes.c_long\nr = l.syscall(250, 0, -3, 0)\n_say('keyctl', str(r) + ' errno ' + str(ctypes.get_errno()))",
    );
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['scripts/**'], commands: ['python3 scripts/keys.py'] },
          turns: [[createFile('w', 'scripts/keys.py', probe)], [sh('keys', 'python3 scripts/keys.py')]],
        },
      ],
    });
    assert.match(seen(o.mission, 'keys'), /PROBE keyctl => -1 errno 1\b/, story(o));
  });

  it('npm test -- --import=data:… is refused before it runs (npm hands it to node)', async () => {
    const s = suite.scene();
    const code = `data:text/javascript;base64,${Buffer.from(`console.log('IMPORTED-${s.tag}');`).toString('base64')}`;
    // Quoted, as a model would write it: the tokenizer takes it as one argument.
    const o = await suite.run(s, {
      steps: [{ id: 's1', authority: { edit: [], commands: ['npm test *'] }, turns: [[sh('npm', `npm test -- '--import=${code}'`)]] }],
    });
    assert.match(seen(o.mission, 'npm'), /command\.eval_flag/, story(o));
    assert.doesNotMatch(
      JSON.stringify([...o.mission.toolResults.values()]),
      new RegExp(`IMPORTED-${s.tag}`),
      `the code given on the command line never ran${story(o)}`,
    );
  });

  it('the checkpoint has a byte limit per command: sparse files in the globs stop at it, named, and the store stays bounded', async () => {
    const s = suite.scene();
    const make = "import os\nfor i in range(6):\n    with open(f'src/big{i}.bin', 'wb') as f: f.truncate(60 * 1024 * 1024)\nprint('made')";
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['src/**', 'scripts/**'], commands: ['python3 scripts/big.py'] },
          turns: [[createFile('w', 'scripts/big.py', make)], [sh('big', 'python3 scripts/big.py')]],
        },
      ],
    });
    // Refused for its real reason, the limit named — never as "outside the edit globs" (they are inside them).
    assert.match(seen(o.mission, 'big'), /permission_denied: sandbox\.checkpoint_limit/, story(o));
    assert.match(seen(o.mission, 'big'), /src\/big\d\.bin \(new\)[^\n]*: the checkpoint's limit of 256 MB per command was reached/, story(o));
    assert.doesNotMatch(seen(o.mission, 'big'), /outside the step's edit globs/, story(o));
    assert.match(seen(o.mission, 'big'), /^exit code: 0/m, `the command's own exit status is there${story(o)}`);
    const applied = readdirSync(join(s.ws, 'src')).filter((n) => n.startsWith('big'));
    assert.ok(applied.length < 6, `not every file was applied: ${applied.join(', ')}${story(o)}`);
  });

  it('each command runs under process, memory and file-size limits', async () => {
    const s = suite.scene();
    const o = await suite.run(s, {
      steps: [{ id: 's1', authority: { edit: [], commands: ['cat /proc/self/limits'] }, turns: [[sh('limits', 'cat /proc/self/limits')]] }],
    });
    const out = seen(o.mission, 'limits');
    assert.match(out, /Max processes\s+8192\s+8192/, story(o));
    assert.match(out, /Max data size\s+\d+\s+\d+/, story(o));
    assert.match(out, /Max file size\s+\d+\s+\d+/, story(o));
  });

  it("two steps side by side, one flipping dist/a.txt between a file and a link to the user's key while the other reads dist/: the key never reaches the model", async () => {
    const s = suite.scene((sc) => {
      mkdirSync(join(sc.ws, 'dist'), { recursive: true });
      writeFileSync(join(sc.ws, 'dist/a.txt'), 'built\n');
      writeFileSync(
        join(sc.ws, 'scripts/flip.js'),
        `const fs = require('fs'); const end = Date.now() + 4000; while (Date.now() < end) { try { fs.rmSync('dist/a.txt', { force: true }); fs.symlinkSync(${JSON.stringify(join(sc.home, '.ssh/id_rsa'))}, 'dist/a.txt'); fs.rmSync('dist/a.txt'); fs.writeFileSync('dist/a.txt', 'built\\n'); } catch {} }\n`,
      );
      writeFileSync(
        join(sc.ws, 'scripts/readout.js'),
        "const fs = require('fs'); const seen = new Set(); const end = Date.now() + 4000; while (Date.now() < end) { try { seen.add(fs.readFileSync('dist/a.txt', 'utf8').slice(0, 80)); } catch (e) { seen.add(e.code); } } console.log([...seen].join('|'));\n",
      );
    });
    const o = await suite.run(s, {
      steps: [
        { id: 's1', authority: { edit: ['scripts/**'], commands: ['node scripts/flip.js'] }, turns: [[sh('flip', 'node scripts/flip.js')]] },
        { id: 's2', authority: { edit: ['test/**'], commands: ['node scripts/readout.js'] }, turns: [[sh('read', 'node scripts/readout.js')]] },
      ],
    });
    assert.deepEqual(o.leaks, {}, story(o));
    assertNone(outsideScope(o, ['scripts/**', 'test/**']), 'nothing outside the globs changed', o);
  });

  it("the product's own store never shows in the user's git status", async () => {
    const s = suite.scene();
    const o = await suite.run(s, {
      steps: [{ id: 's1', authority: { edit: ['src/**'], commands: [] }, turns: [[createFile('w', 'src/new.js', 'exports.x = 1;\n')]] }],
    });
    assert.ok(existsSync(join(s.ws, '.plan-execute')), story(o));
    assert.doesNotMatch(git(s.ws, 'status', '--porcelain', '--untracked-files=all'), /\.plan-execute/, story(o));
  });

  it("a step's staged build outputs stay out of the workspace until the step is done, and its layer goes with the step", async () => {
    const s = suite.scene();
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['src/**'], commands: ['npx tsc', 'node dist/greet.js'] },
          turns: [[sh('tsc', 'npx tsc')], [sh('run', 'node dist/greet.js')]],
          evidence: [{ kind: 'command', command: 'node dist/greet.js', expectExitCode: 0 }],
        },
      ],
    });
    assert.deepEqual(o.mission.report?.succeeded, ['s1'], story(o));
    assert.equal(existsSync(join(s.ws, 'dist')), false, story(o));
    const layers = join(s.home, '.cache', 'plan-execute', 'layers');
    // The rename helper stays beside the layers (built once per machine); no layer does.
    const left = existsSync(layers) ? readdirSync(layers).filter((name) => !name.startsWith(SHIM_PREFIX)) : [];
    assert.deepEqual(left, [], `no layer is left behind${story(o)}`);
  });
});
