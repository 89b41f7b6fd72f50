/**
 * Red team, hostile workspace content reached through a symlink that stays inside the workspace: a link's
 * own size says nothing about its target, and a link to a FIFO would block a read forever (and hold one of
 * libuv's few threads). The text editor must judge the target: too large or not a regular file → a clear
 * refusal, promptly.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { symlinkSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, edit, plan, read, report, runAdversarialMission, step, write, type MissionRun, describeEachProvider } from './harness';

const id = <T extends { name: string; input: unknown }>(toolId: string, use: T): T & { id: string } => ({ ...use, id: toolId });

describeEachProvider('adversarial: hostile files behind symlinks inside the workspace', function () {
  this.timeout(30_000);
  let run: MissionRun | undefined;
  afterEach(async () => {
    await cleanup(run);
    run = undefined;
  });

  it('a link to an oversized file or to a FIFO is refused by view and by the verifier, without hanging', async () => {
    const huge = `// ${'x'.repeat(5000)}\n`;
    const started = Date.now();
    run = await runAdversarialMission({
      plan: plan(
        [
          step('s1', {
            authority: { read: ['**'], edit: ['src/**'], commands: [] },
            evidence: {
              checks: [
                { kind: 'file_contains', path: 'src/a.js', text: 'patched' },
                { kind: 'file_contains', path: 'src/pipe.js', text: 'x' },
              ],
              description: '',
            },
          }),
        ],
        { direct: true },
      ),
      mission: { toolSettings: { maxFileBytes: 2000 } },
      setup: (ws) => {
        write(ws, 'src/a.js', "console.log('ok');\n");
        write(ws, 'data/huge.js', huge);
        symlinkSync(join(ws, 'data', 'huge.js'), join(ws, 'src', 'huge-link.js'));
        execFileSync('mkfifo', [join(ws, 'data', 'fifo')]);
        symlinkSync(join(ws, 'data', 'fifo'), join(ws, 'src', 'pipe.js'));
      },
      rules: [
        {
          name: 's1',
          match: { role: 'executor' },
          turns: [
            {
              toolUse: [
                id('l_huge', edit('src/huge-link.js', { command: 'view' })),
                id('l_fifo', edit('src/pipe.js', { command: 'view' })),
                id('l_fifo_edit', edit('src/pipe.js', { command: 'str_replace', old_str: 'a', new_str: 'b' })),
              ],
            },
            { toolUse: [edit('src/a.js', { command: 'str_replace', old_str: "'ok'", new_str: "'patched'" })] },
            report('patched'),
          ],
        },
      ],
    });
    const huge1 = run.toolResults.get('l_huge');
    assert.equal(huge1?.isError, true, huge1?.content);
    assert.match(huge1?.content ?? '', /limit is 2000/);
    const fifo = run.toolResults.get('l_fifo');
    assert.equal(fifo?.isError, true, fifo?.content);
    assert.match(fifo?.content ?? '', /not a regular file/);
    assert.match(run.toolResults.get('l_fifo_edit')?.content ?? '', /not a regular file|authority\.edit/);
    assert.ok(Date.now() - started < 10_000, `no hang: ${Date.now() - started} ms`);
    // The verifier's file_contains check on the FIFO link fails cleanly instead of blocking.
    assert.equal(run.report.outcome, 'failed', JSON.stringify(run.report));
    assert.equal(run.report.failure?.class, 'verification_failed');
    assert.equal(read(run.ws, 'data/huge.js'), huge);
  });

  it('search_files skips a file over the size cap without reading it (a 3 GB sparse file no longer fails the whole search)', async () => {
    run = await runAdversarialMission({
      plan: plan(
        [
          step('s1', {
            kind: 'research',
            authority: { read: ['**'], edit: [], commands: [] },
            evidence: { checks: [{ kind: 'files_exist', paths: ['src/a.js'] }], description: '' },
          }),
        ],
        { direct: true },
      ),
      setup: (ws) => {
        write(ws, 'src/a.js', "console.log('needle');\n");
        write(ws, 'data/big.log', '');
        truncateSync(join(ws, 'data', 'big.log'), 3 * 1024 ** 3);
      },
      rules: [
        {
          name: 's1',
          match: { role: 'executor' },
          turns: [{ toolUse: [id('s_needle', { name: 'search_files', input: { pattern: 'needle' } })] }, report('found it')],
        },
      ],
    });
    const found = run.toolResults.get('s_needle');
    assert.equal(found?.isError, false, found?.content);
    assert.match(found?.content ?? '', /src\/a\.js:1: console\.log\('needle'\)/);
    assert.match(found?.content ?? '', /skipped 1 file over the size limit/);
    assert.equal(run.report.outcome, 'succeeded', JSON.stringify(run.report));
  });

  it('insert cannot grow a file past the size cap (create and str_replace already could not)', async () => {
    const nearCap = `${'// filler line\n'.repeat(120)}`;
    run = await runAdversarialMission({
      plan: plan(
        [
          step('s1', {
            authority: { read: ['**'], edit: ['src/**'], commands: [] },
            evidence: { checks: [{ kind: 'files_exist', paths: ['src/a.js'] }], description: '' },
          }),
        ],
        { direct: true },
      ),
      mission: { toolSettings: { maxFileBytes: 2000 } },
      setup: (ws) => write(ws, 'src/a.js', nearCap),
      rules: [
        {
          name: 's1',
          match: { role: 'executor' },
          turns: [{ toolUse: [id('grow', edit('src/a.js', { command: 'insert', insert_line: 0, insert_text: 'x'.repeat(500) }))] }, report('grown')],
        },
      ],
    });
    const grow = run.toolResults.get('grow');
    assert.equal(grow?.isError, true, grow?.content);
    assert.match(grow?.content ?? '', /exceed 2000 bytes/);
    assert.equal(read(run.ws, 'src/a.js'), nearCap);
  });
});
