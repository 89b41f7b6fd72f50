/**
 * Escape suite, the workspace's ancestors: with the workspace deep in a folder the system shares out
 * (`/opt/<area>/…/work/app`, as `/opt/x/acme/ws`), a command must not read another checkout that lies beside
 * one of its ancestors — not only beside its parent — while the system's own folders in /opt stay readable.
 * The world lives under /opt for this file (PE_ESCAPE_BASE), which only an account that may write /opt can
 * make; elsewhere the file is skipped, and says why.
 */
import { strict as assert } from 'node:assert';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createFile, seen, sh } from '../sandbox/cliRun';
import { assertNoLeak, story, useEscapeSuite } from '../sandbox/escapeCase';
import { program, read } from '../sandbox/payloads';

const SHARED = '/opt';

function mayWrite(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch (e) {
    console.log(`escape suite, ancestors: skipped — ${dir} is not writable here (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    return false;
  }
}

(process.platform === 'linux' && mayWrite(SHARED) ? describe : describe.skip)("escape suite: the workspace's ancestors' other children", function () {
  this.timeout(120_000);
  const previous = process.env.PE_ESCAPE_BASE;
  let area = '';
  before(() => {
    area = mkdtempSync(join(SHARED, 'pe-escape-area-'));
    process.env.PE_ESCAPE_BASE = area;
  });
  const suite = useEscapeSuite();
  after(() => {
    if (previous === undefined) delete process.env.PE_ESCAPE_BASE;
    else process.env.PE_ESCAPE_BASE = previous;
    if (area) rmSync(area, { recursive: true, force: true });
  });

  it('cannot read a checkout beside an ancestor of the workspace (at each depth up to the shared folder), while it reads the sources and /opt', async () => {
    const cousins: string[] = [];
    const s = suite.scene((scene) => {
      // Beside each ancestor between the workspace's parent and the area /opt shares out: another client's checkout.
      for (let dir = dirname(dirname(scene.ws)); dir.startsWith(`${area}/`) || dir === area; dir = dirname(dir)) {
        const cousin = join(dir, `globex-${cousins.length}`);
        mkdirSync(join(cousin, 'deploy'), { recursive: true });
        writeFileSync(join(cousin, '.env'), `DEPLOY_TOKEN=${scene.canaries.neighbour}\n`);
        writeFileSync(join(cousin, 'deploy/config.txt'), `token ${scene.canaries.neighbour}\n`);
        cousins.push(cousin);
        if (dir === area) break;
      }
    });
    assert.ok(cousins.length >= 3, `a cousin at several depths (${cousins.join(', ')})`);
    const o = await suite.run(s, {
      steps: [
        {
          id: 's1',
          authority: { edit: ['scripts/**'], commands: ['node scripts/inspect.js'] },
          turns: [
            [
              createFile(
                'w',
                'scripts/inspect.js',
                program(
                  ...cousins.flatMap((c) => [read(join(c, '.env')), read(join(c, 'deploy/config.txt'))]),
                  `say('list /opt', (() => { try { return fs.readdirSync('/opt').length >= 0 ? 'ok' : 'none'; } catch (e) { return err(e); } })());`,
                  read('src/math.js'),
                ),
              ),
            ],
            [sh('run', 'node scripts/inspect.js')],
          ],
        },
      ],
    });
    assertNoLeak(o, 'no cousin checkout was read', ['neighbour']);
    const out = seen(o.mission, 'run');
    assert.match(out, /exports\.add/, `the sources are readable${story(o)}`);
    assert.match(out, /PROBE list \/opt => ok/, `/opt itself stays readable${story(o)}`);
  });
});
