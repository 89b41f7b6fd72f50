/**
 * Escape suite, across commands, steps and missions: Ctrl-C while a command runs (the rollback still
 * happens), command steps side by side whose globs share a folder (neither rolls back the other's work),
 * an earlier mission's store (what one step was allowed to read is not readable by a later one), a
 * TMPDIR that names a host folder, and a replay of a recorded mission (its commands run for real, again).
 */
import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFile, replayCli, seen, sh } from '../sandbox/cliRun';
import { assertNone, brief, outsideScope, story, useEscapeSuite } from '../sandbox/escapeCase';
import { program, read, runFile, write } from '../sandbox/payloads';
import { changes, snapshot } from '../sandbox/scene';
import { livingWith } from '../sandbox/observers';

const sleepThenWrite = (rel: string, text: string, ms: number): string =>
  `setTimeout(() => require('fs').writeFileSync(${JSON.stringify(rel)}, ${JSON.stringify(text)}), ${ms});\n`;

describe('escape suite: across commands, steps and missions', function () {
  this.timeout(90_000);
  const suite = useEscapeSuite();

  it('Ctrl-C while a command runs: its writes outside the globs never reach the workspace, and nothing of it survives', async () => {
    const s = suite.scene((sc) =>
      writeFileSync(join(sc.ws, `scripts/slow-${sc.tag}.js`), `${program(write('src/config.json', '{"pwned":true}\n'))}\nsetTimeout(() => {}, 30000);\n`),
    );
    // The write lands in the step's layer, not on the host: interrupt once the command has been running a while.
    let seenAt = 0;
    const o = await suite.run(
      s,
      {
        steps: [
          { id: 's1', authority: { edit: ['src/*.js'], commands: [`node scripts/slow-${s.tag}.js`] }, turns: [[sh('run', `node scripts/slow-${s.tag}.js`)]] },
        ],
        interruptWhen: () => {
          if (livingWith(`slow-${s.tag}`).length === 0) return false;
          seenAt ||= Date.now();
          return Date.now() - seenAt > 1500;
        },
      },
      500,
    );
    assert.equal(o.mission.report?.outcome, 'cancelled', `the mission was cancelled${story(o)}`);
    assertNone(o.living, 'no process of the command is alive', o);
    assertNone(outsideScope(o, ['src/*.js']), 'the write outside the globs was rolled back', o);
  });

  it('two command steps side by side whose globs share a folder each keep their own work', async () => {
    const s = suite.scene((sc) => {
      writeFileSync(join(sc.ws, 'scripts/a.js'), sleepThenWrite('src/a.js', 'exports.a = 1;\n', 800));
      writeFileSync(join(sc.ws, 'scripts/b.js'), sleepThenWrite('src/b.js', 'exports.b = 1;\n', 800));
    });
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          required: true,
          authority: { edit: ['src/a.js'], commands: ['node scripts/a.js'] },
          turns: [[sh('a', 'node scripts/a.js')]],
          evidence: [{ kind: 'file_contains', path: 'src/a.js', text: 'exports.a' }],
        },
        {
          id: 's2',
          required: true,
          authority: { edit: ['src/b.js'], commands: ['node scripts/b.js'] },
          turns: [[sh('b', 'node scripts/b.js')]],
          evidence: [{ kind: 'file_contains', path: 'src/b.js', text: 'exports.b' }],
        },
      ],
    });
    assert.equal(existsSync(join(s.ws, 'src/a.js')) && readFileSync(join(s.ws, 'src/a.js'), 'utf8'), 'exports.a = 1;\n', `s1's file is there${story(o)}`);
    assert.equal(existsSync(join(s.ws, 'src/b.js')) && readFileSync(join(s.ws, 'src/b.js'), 'utf8'), 'exports.b = 1;\n', `s2's file is there${story(o)}`);
    assert.deepEqual([...(o.mission.report?.succeeded ?? [])].sort(), ['s1', 's2'], story(o));
  });

  it("what an earlier mission was allowed to read (.env) cannot be read back from the engine's store by a later command without that authority", async () => {
    const s = suite.scene();
    const first = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { read: ['.env', 'scripts/**'], edit: ['scripts/**'], commands: ['node scripts/env.js'] },
          turns: [[createFile('w', 'scripts/env.js', program(read('.env')))], [sh('run', 'node scripts/env.js')]],
        },
      ],
    });
    assert.match(seen(first.mission, 'run'), new RegExp(s.canaries.env), `the first mission read .env as granted${story(first)}`);
    const grep =
      "const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else { const m = fs.readFileSync(p, 'latin1').match(/CANARY_ENV_[0-9a-f]+/); if (m) say('found in ' + p, m[0]); } } }; walk('.plan-execute');";
    const second = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['scripts/**'], commands: ['node scripts/grep.js'] },
          turns: [[createFile('w', 'scripts/grep.js', program(grep))], [sh('run', 'node scripts/grep.js')]],
        },
      ],
    });
    assert.equal(JSON.stringify(second.mission.requests).includes(s.canaries.env), false, `the later mission's model never saw .env${story(second)}`);
  });

  it('one command leaves nothing in its private home and /tmp for the next, not even on the folders themselves (extended attributes, times)', async () => {
    const s = suite.scene();
    const mark = `left-by-s1-${s.tag}`;
    const leave = program(
      `fs.writeFileSync(path.join(os.homedir(), '.bashrc'), 'echo ${mark}'); fs.writeFileSync('/tmp/${mark}', 'x'); say('files', 'left');`,
      runFile('python3', ['-c', `import os; [os.setxattr(d, 'user.note', b'${mark}') for d in (os.path.expanduser('~'), '/tmp')]`]),
      "fs.utimesSync(os.homedir(), 1234567, 1234567); fs.utimesSync('/tmp', 1234567, 1234567); say('times', 'set');",
    );
    const look = program(
      "say('listed', JSON.stringify([fs.readdirSync(os.homedir()), fs.readdirSync('/tmp')]));",
      runFile('python3', ['-c', "import os; print([[os.getxattr(d, n) for n in os.listxattr(d)] for d in (os.path.expanduser('~'), '/tmp')])"]),
      "say('times', [os.homedir(), '/tmp'].map((d) => fs.statSync(d).mtimeMs).join(' '));",
    );
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['scripts/leave.js'], commands: ['node scripts/leave.js'] },
          turns: [[createFile('w1', 'scripts/leave.js', leave)], [sh('leave', 'node scripts/leave.js')]],
        },
        {
          id: 's2',
          dependsOn: ['s1'],
          authority: { edit: ['scripts/look.js'], commands: ['node scripts/look.js'] },
          turns: [[createFile('w2', 'scripts/look.js', look)], [sh('look', 'node scripts/look.js')]],
        },
      ],
    });
    // (A file system without user extended attributes — tmpfs before Linux 6.6 — has no such channel to close.)
    assert.match(
      seen(o.mission, 'leave'),
      /PROBE run python3[^\n]*(exit 0|Operation not supported)[\s\S]*PROBE times => set/,
      `the first command set its marks${story(o)}`,
    );
    assert.match(seen(o.mission, 'look'), /PROBE times => \d/, `the second command looked${story(o)}`);
    assert.doesNotMatch(seen(o.mission, 'look'), new RegExp(`${mark}|1234567000`), `the second command found nothing of the first${story(o)}`);
  });

  it("a TMPDIR naming a host folder: temporary files stay private, and pytest's tmp_path still works", async () => {
    const s = suite.scene((sc) => mkdirSync(join(sc.root, 'tmp')));
    const o = await suite.run(s, {
      env: { TMPDIR: join(s.root, 'tmp') },
      steps: [
        {
          id: 's1',
          authority: { edit: ['scripts/**'], commands: ['node scripts/tmp.js', 'python3 -m pytest *'] },
          turns: [
            [createFile('w', 'scripts/tmp.js', program("write(path.join(os.tmpdir(), 'left-behind.txt'), 'x');"))],
            [sh('run', 'node scripts/tmp.js'), sh('pytest', 'python3 -m pytest -q -p no:cacheprovider tests/test_tmp.py')],
          ],
        },
      ],
    });
    assertNone(o.outside, 'nothing was written to the host folder TMPDIR names', o);
    assert.match(seen(o.mission, 'pytest'), /^exit code: 0[\s\S]*1 passed/m, `tmp_path works${story(o)}`);
  });

  it('a tool that replaces its one file atomically (temp file beside it, then rename), as sed -i, editors and npm do, still works under a one-file edit scope', async () => {
    const s = suite.scene((sc) => {
      writeFileSync(
        join(sc.ws, 'scripts/format.js'),
        "const fs = require('fs');\nfs.writeFileSync('src/math.js.tmp-1', 'exports.add = (a, b) => a + b; // formatted\\n');\nfs.renameSync('src/math.js.tmp-1', 'src/math.js');\n",
      );
    });
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          required: true,
          authority: { edit: ['src/math.js'], commands: ['node scripts/format.js'] },
          turns: [[sh('run', 'node scripts/format.js')]],
          evidence: [{ kind: 'file_contains', path: 'src/math.js', text: 'formatted' }],
        },
      ],
    });
    assert.equal(readFileSync(join(s.ws, 'src/math.js'), 'utf8'), 'exports.add = (a, b) => a + b; // formatted\n', `the file was replaced${story(o)}`);
    assertNone(outsideScope(o, ['src/math.js']), 'no temporary file is left', o);
    assert.deepEqual(o.mission.report?.succeeded, ['s1'], story(o));
  });

  it('a replay of the recorded mission runs its commands confined too', async () => {
    const s = suite.scene((sc) => cpSync(sc.ws, join(sc.root, 'replay-ws'), { recursive: true, verbatimSymlinks: true }));
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['scripts/**', 'src/**'], commands: ['node scripts/build.js'] },
          turns: [
            [
              createFile(
                'w',
                'scripts/build.js',
                program(
                  write(join(s.home, '.bashrc'), '\n# replayed\n', true),
                  write(join(s.neighbour, 'victim.txt'), 'replayed\n'),
                  write('src/generated.js', 'exports.generated = true;\n'),
                ),
              ),
            ],
            [sh('run', 'node scripts/build.js')],
          ],
        },
      ],
    });
    assertNone(
      o.outside.filter((c) => !c.path.startsWith('replay-ws')),
      'the live mission changed nothing outside the workspace',
      o,
    );
    const skip = (rel: string): boolean => rel === s.wsRel || rel === 'replay-ws' || rel === 'trace.jsonl';
    const before = snapshot(s.root, skip);
    const replay = await replayCli(s, join(s.root, 'trace.jsonl'), join(s.root, 'replay-ws'));
    const after = changes(before, snapshot(s.root, skip));
    assert.ok(existsSync(join(s.root, 'replay-ws/src/generated.js')), `the replay ran the command (exit ${replay.code}): ${replay.stderr.slice(-1500)}`);
    assert.deepEqual(brief(after), [], `the replay changed nothing outside its workspace\n${replay.stderr.slice(-1500)}`);
  });
});
