/**
 * Escape suite, the `--sandbox required|prefer|off` modes of the CLI when no sandbox is available (no bwrap
 * on the PATH, and PLAN_EXECUTE_BWRAP — the runner's override of /usr/bin/bwrap — naming a missing or a
 * broken one): `required` refuses and says what to install, `prefer` never runs unconfined in
 * silence — it asks even with --approve all and marks the command unsandboxed in the output and the trace
 * — and `off` is the user's explicit choice, still marked. With bwrap present, `required` runs confined.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFile, sh, type CliMissionOptions } from '../sandbox/cliRun';
import { assertNone, story, useEscapeSuite } from '../sandbox/escapeCase';
import { program, write } from '../sandbox/payloads';
import type { Scene } from '../sandbox/scene';

/**
 * The CLI's view of a machine without a sandbox: a PATH with node, git and sh but no bwrap, and
 * PLAN_EXECUTE_BWRAP naming a bwrap in that folder — absent, or (`broken`) one that cannot create
 * namespaces, as with user namespaces off, an AppArmor profile, or an unprivileged container.
 */
function withoutSandbox(s: Scene, broken = false): Pick<CliMissionOptions, 'path' | 'env'> {
  const bin = join(s.root, 'bin');
  mkdirSync(bin, { recursive: true });
  for (const [name, target] of [
    ['node', process.execPath],
    ['git', '/usr/bin/git'],
    ['sh', '/bin/sh'],
  ] as const)
    symlinkSync(target, join(bin, name));
  if (broken) writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n', { mode: 0o755 });
  return { path: bin, env: { PLAN_EXECUTE_BWRAP: join(bin, 'bwrap') } };
}

/** One step whose command writes src/ran.txt (inside its scope) and ~/.bashrc (outside). */
function mission(s: Scene, extra: Partial<CliMissionOptions>): CliMissionOptions {
  return {
    steps: [
      {
        id: 's1',
        authority: { edit: ['src/**', 'scripts/**'], commands: ['node scripts/work.js'] },
        turns: [
          [createFile('w', 'scripts/work.js', program(write('src/ran.txt', 'ran\n'), write(join(s.home, '.bashrc'), '\n# unconfined\n', true)))],
          [sh('run', 'node scripts/work.js')],
        ],
      },
    ],
    ...extra,
  };
}

const ran = (s: Scene): boolean => existsSync(join(s.ws, 'src/ran.txt'));
/** The mission got as far as the command: the executor's script is there. */
const reachedCommand = (s: Scene): boolean => existsSync(join(s.ws, 'scripts/work.js'));
const UNSANDBOXED = /unsandboxed/i;

describe('escape suite: --sandbox modes', function () {
  this.timeout(90_000);
  const suite = useEscapeSuite();
  const sceneWithoutSandbox = (broken = false): [Scene, Pick<CliMissionOptions, 'path' | 'env'>] => {
    let machine: Pick<CliMissionOptions, 'path' | 'env'> = {};
    const s = suite.scene((sc) => {
      machine = withoutSandbox(sc, broken);
      writeFileSync(join(sc.ws, 'scripts/check.js'), "require('fs').writeFileSync('src/checked.txt', 'checked');\n");
    });
    return [s, machine];
  };

  it('required, with no sandbox available: the command is refused with a message saying what to install', async () => {
    const [s, machine] = sceneWithoutSandbox();
    const o = await suite.run(s, mission(s, { args: ['--sandbox', 'required'], ...machine }));
    assert.ok(reachedCommand(s), `the mission got as far as the command${story(o)}`);
    assert.equal(ran(s), false, `the command did not run${story(o)}`);
    const result = o.mission.toolResults.get('run');
    assert.ok(result?.isError, `the executor got an error${story(o)}`);
    assert.match(result.content, /bubblewrap|bwrap/i, `the message names what to install${story(o)}`);
    assertNone(o.outside, 'nothing outside the workspace changed', o);
  });

  it('required, with a bwrap that cannot create namespaces: counted as no sandbox — refused, never run unconfined', async () => {
    const [s, machine] = sceneWithoutSandbox(true);
    const o = await suite.run(s, mission(s, { args: ['--sandbox', 'required'], ...machine }));
    assert.ok(reachedCommand(s), `the mission got as far as the command${story(o)}`);
    assert.equal(ran(s), false, `the command did not run${story(o)}`);
    assert.match(o.mission.toolResults.get('run')?.content ?? '', /sandbox/i, `the executor was told why${story(o)}`);
  });

  it('prefer, with no sandbox available: asks even with --approve all; a "no" keeps the command from running', async () => {
    const [s, machine] = sceneWithoutSandbox();
    const o = await suite.run(s, mission(s, { args: ['--sandbox', 'prefer'], ...machine, stdin: 'n\n' }));
    assert.ok(reachedCommand(s), `the mission got as far as the command${story(o)}`);
    assert.match(o.mission.stderr, /sandbox/i, `the CLI asked about running without a sandbox${story(o)}`);
    assert.equal(ran(s), false, `the command did not run${story(o)}`);
    assertNone(o.outside, 'nothing outside the workspace changed', o);
  });

  it("prefer, with no sandbox available: an evidence check's command asks too", async () => {
    const [s, machine] = sceneWithoutSandbox();
    const o = await suite.run(s, {
      ...machine,
      args: ['--sandbox', 'prefer'],
      stdin: 'n\n',
      steps: [
        {
          id: 's1',
          authority: { edit: ['src/**'], commands: ['node scripts/check.js'] },
          turns: [[createFile('w', 'src/ok.js', 'exports.ok = 1;\n')]],
          evidence: [{ kind: 'command', command: 'node scripts/check.js', expectExitCode: 0 }],
        },
      ],
    });
    assert.ok(existsSync(join(s.ws, 'src/ok.js')), `the step got as far as its evidence${story(o)}`);
    assert.equal(existsSync(join(s.ws, 'src/checked.txt')), false, `the evidence command did not run unconfined without a yes${story(o)}`);
    assert.match(o.mission.stderr, /sandbox/i, `the CLI asked${story(o)}`);
  });

  it('prefer, with no sandbox available: a "yes" runs it, marked unsandboxed in the CLI output and the trace', async () => {
    const [s, machine] = sceneWithoutSandbox();
    const o = await suite.run(s, mission(s, { args: ['--sandbox', 'prefer'], ...machine, stdin: 'y\n' }));
    assert.equal(ran(s), true, `the approved command ran${story(o)}`);
    assert.match(o.mission.stderr, UNSANDBOXED, `the CLI output says unsandboxed${story(o)}`);
    assert.match(o.mission.traceText, UNSANDBOXED, `the trace says unsandboxed${story(o)}`);
  });

  it('no --sandbox flag, no sandbox available: the command never runs unconfined in silence', async () => {
    const [s, machine] = sceneWithoutSandbox();
    const o = await suite.run(s, mission(s, { ...machine, stdin: '' }));
    assert.ok(reachedCommand(s), `the mission got as far as the command${story(o)}`);
    assert.equal(ran(s), false, `with nobody to say yes, the command did not run${story(o)}`);
    assert.match(o.mission.stderr + (o.mission.toolResults.get('run')?.content ?? ''), /sandbox/i, `the user was told why${story(o)}`);
  });

  it('off: runs unconfined without asking, as the user chose, and the trace still marks it', async () => {
    const [s, machine] = sceneWithoutSandbox();
    const o = await suite.run(s, mission(s, { args: ['--sandbox', 'off'], ...machine, stdin: '' }));
    assert.equal(ran(s), true, `the command ran${story(o)}`);
    assert.match(o.mission.traceText, /unsandboxed|sandbox_off/i, `the trace marks the command as run without a sandbox${story(o)}`);
  });

  it('required, with bwrap available: the command runs, confined', async () => {
    const s = suite.scene();
    const o = await suite.run(s, mission(s, { args: ['--sandbox', 'required'] }));
    assert.equal(ran(s), true, `the command ran${story(o)}`);
    assertNone(o.outside, 'nothing outside the workspace changed', o);
    assert.doesNotMatch(o.mission.traceText, UNSANDBOXED, `nothing is marked unsandboxed${story(o)}`);
  });

  it('an unknown mode is a usage error (exit 2)', async () => {
    const s = suite.scene();
    const o = await suite.run(s, mission(s, { args: ['--sandbox', 'sometimes'] }));
    assert.equal(o.mission.code, 2, story(o));
    assert.match(o.mission.stderr, /--sandbox/, story(o));
    assert.equal(o.mission.requests.length, 0, 'no model was called');
  });
});
