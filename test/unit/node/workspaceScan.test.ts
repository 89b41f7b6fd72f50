/**
 * The workspace scan with a memo: a scan costs what changed. Folders whose names did not change come back
 * as the same entry objects; a folder that changed (or changed too recently to be sure) is read again.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ScanEntry, ScanMemo } from '../../../src/core/ports';
import { scanWorkspace } from '../../../src/node/workspaceScan';

describe('workspace scan with a memo', () => {
  let root = '';
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-scan-')));
    for (const d of ['a', 'b', 'b/c']) fs.mkdirSync(path.join(root, d));
    for (const f of ['a/1', 'a/2', 'b/3', 'b/c/4', 'top']) fs.writeFileSync(path.join(root, f), f);
    // Older than the racy window: as a workspace is when a step's second command runs.
    const old = new Date(Date.now() - 60_000);
    for (const d of ['', 'a', 'b', 'b/c']) fs.utimesSync(path.join(root, d), old, old);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const namesOnly = (): boolean => false;
  const scan = (memo: ScanMemo) => scanWorkspace(root, { prune: () => false, limit: 1000, detail: namesOnly, memo });
  const byPath = (entries: readonly ScanEntry[]) => new Map(entries.map((e) => [e.path, e]));

  it('hands back the same entries for folders that did not change, and reads a changed one again', () => {
    const memo: ScanMemo = {};
    const first = byPath(scan(memo).entries);
    const again = byPath(scan(memo).entries);
    for (const [p, e] of first) assert.equal(again.get(p), e, `${p}: the same object`);
    fs.writeFileSync(path.join(root, 'a/new'), 'n');
    fs.rmSync(path.join(root, 'a/2'));
    fs.mkdirSync(path.join(root, 'a/2'));
    const after = byPath(scan(memo).entries);
    assert.ok(after.has('a/new'), 'a name added to a folder is seen');
    assert.equal(after.get('a/2')?.kind, 'directory', 'a name that changed kind is seen as it is now');
    assert.equal(after.get('a/1'), first.get('a/1'), 'a name still there as the same kind is the same entry');
    assert.equal(after.get('b/3'), first.get('b/3'), 'the other folders are not read again');
    fs.rmSync(path.join(root, 'b/c'), { recursive: true });
    const gone = byPath(scan(memo).entries);
    assert.ok(!gone.has('b/c') && !gone.has('b/c/4'), 'a removed folder is gone, with what it held');
  });

  it('never trusts a folder changed within the racy window: it is read again at the next scan', () => {
    const memo: ScanMemo = {};
    fs.writeFileSync(path.join(root, 'b/fresh'), 'f'); // b's time is now
    const bTime = fs.statSync(path.join(root, 'b')).mtime;
    scan(memo);
    // A change the folder's time does not show (the same clock tick): only reading the folder again sees it.
    fs.writeFileSync(path.join(root, 'b/later'), 'l');
    fs.utimesSync(path.join(root, 'b'), bTime, bTime);
    const again = byPath(scan(memo).entries);
    assert.ok(again.has('b/later'), 'a racily recent folder is listed anew');
  });

  it('hands back the last result whole while no folder moved, and walks again when one did', () => {
    const memo: ScanMemo = {};
    const first = scan(memo);
    const again = scan(memo);
    assert.equal(again.entries, first.entries, 'the same list');
    assert.ok(Object.isFrozen(again.entries), 'shared, so frozen');
    fs.writeFileSync(path.join(root, 'b/c/5'), '5');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(root, 'b/c'), old, new Date(Date.now() - 30_000));
    const after = scan(memo);
    assert.notEqual(after.entries, first.entries);
    assert.ok(byPath(after.entries).has('b/c/5'), 'a name added deep down is seen');
  });

  it('never hands back a result whose entries carry details', () => {
    const memo: ScanMemo = {};
    const detailedScan = () => scanWorkspace(root, { prune: () => false, limit: 1000, detail: (p) => p === 'top', memo });
    detailedScan();
    fs.writeFileSync(path.join(root, 'top'), 'grown in place'); // the root's names do not change
    const top = byPath(detailedScan().entries).get('top');
    assert.equal(top?.size, 'grown in place'.length);
  });

  it('gives every entry its details where asked, whatever the memo holds', () => {
    const memo: ScanMemo = {};
    scan(memo);
    const detailed = scanWorkspace(root, { prune: () => false, limit: 1000, detail: (p) => p === 'top', memo });
    const top = byPath(detailed.entries).get('top');
    assert.equal(top?.size, 3);
    assert.notEqual(top?.signature, '');
  });
});
