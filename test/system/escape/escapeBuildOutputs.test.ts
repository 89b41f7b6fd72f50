/**
 * Escape suite, build outputs: what git ignores (the fixture's `.gitignore` names `dist/`) stays in the
 * step's staging layer — its later commands see it, the workspace never does. Real build commands
 * (`npx tsc`, an `npm test` that compiles first) then pass — under the executor and under the verifier's
 * evidence check, whose writes go to a scratch layer — while nothing reaches the workspace; and a step that
 * turns its own `.gitignore` against the sandbox (naming `src`, `*`) keeps nothing private by it (what git
 * ignored when the attempt began decides), and nothing reaches the host. Through the real CLI.
 */
import { strict as assert } from 'node:assert';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replace, seen, sh } from '../sandbox/cliRun';
import { assertNone, outsideScope, story, useEscapeSuite } from '../sandbox/escapeCase';
import { program, write } from '../sandbox/payloads';

describe('escape suite: build outputs are private to each command', function () {
  this.timeout(90_000);
  const suite = useEscapeSuite();

  it('a step whose edit globs miss dist/ compiles with tsc, runs what it built in a second command, and the evidence check compiles again; the workspace gets no dist/', async () => {
    const s = suite.scene();
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['src/**'], commands: ['npx tsc', 'node dist/greet.js'] },
          turns: [[sh('tsc', 'npx tsc')], [sh('again', 'node dist/greet.js')]],
          evidence: [{ kind: 'command', command: 'npx tsc', expectExitCode: 0 }],
        },
      ],
    });
    assert.match(seen(o.mission, 'tsc'), /^exit code: 0/m, `tsc succeeded${story(o)}`);
    assert.doesNotMatch(seen(o.mission, 'tsc'), /permission_denied|rolled back/, story(o));
    assert.match(seen(o.mission, 'again'), /^exit code: 0/m, `the step's next command sees its build (kept in the step's layer)${story(o)}`);
    assert.match(seen(o.mission, 'tsc'), /kept for this step only[^\n]*dist/, `the output says the build stays with the step${story(o)}`);
    assert.deepEqual(o.mission.report?.succeeded, ['s1'], `the evidence check passed${story(o)}`);
    assert.ok(!existsSync(join(s.ws, 'dist')), `no dist/ on the host${story(o)}`);
    assertNone(o.inside, 'nothing in the workspace changed', o);
  });

  it('an npm test that compiles then tests passes as evidence (the verifier writes nothing in the workspace)', async () => {
    const s = suite.scene((sc) => {
      writeFileSync(join(sc.ws, 'package.json'), `${JSON.stringify({ name: 'app', private: true, scripts: { test: 'tsc && node --test' } }, null, 2)}\n`);
      writeFileSync(
        join(sc.ws, 'test/greet.test.js'),
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst { greet } = require('../dist/greet.js');\ntest('greets', () => assert.equal(greet('ada'), 'hello ada'));\n",
      );
    });
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: [], commands: ['npm test'] },
          turns: [],
          evidence: [{ kind: 'command', command: 'npm test', expectExitCode: 0, expectOutputIncludes: 'pass 2' }],
        },
      ],
    });
    assert.deepEqual(o.mission.report?.succeeded, ['s1'], `npm test passed as evidence${story(o)}`);
    assertNone(o.inside, 'nothing in the workspace changed', o);
  });

  it('a step that edits .gitignore to name src (and *) gets private copies for its commands: no write reaches the host', async () => {
    const s = suite.scene((sc) => {
      writeFileSync(
        join(sc.ws, 'scripts/plant.js'),
        program(
          write('src/math.js', 'exports.add = () => 0; // planted\n'),
          write('src/evil.js', 'planted\n'),
          write('test/evil.test.js', 'planted\n'),
          write('README.md', '# planted\n'),
        ),
      );
    });
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['.gitignore'], commands: ['node scripts/plant.js'] },
          turns: [[replace('ig', '.gitignore', 'dist/\n', 'dist/\nsrc\n*\n')], [sh('plant', 'node scripts/plant.js')]],
        },
      ],
    });
    assert.match(seen(o.mission, 'plant'), /PROBE write src\/math\.js => ok/, `the write went to a private copy${story(o)}`);
    // What the step keeps is decided by the ignore files as the attempt began: its own edit of .gitignore keeps nothing.
    assert.doesNotMatch(seen(o.mission, 'plant'), /kept for this step only/, story(o));
    assert.match(seen(o.mission, 'plant'), /NOT applied[^\n]*src\/evil\.js \(new\)/, story(o));
    assertNone(outsideScope(o, ['.gitignore']), 'nothing but .gitignore changed in the workspace', o);
    assertNone(o.outside, 'nothing outside the workspace changed', o);
  });
});
