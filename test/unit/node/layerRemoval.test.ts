/**
 * Removing a staging layer a command made hard to remove: folders nested past PATH_MAX (Node names each
 * entry by its whole path and cannot reach the deepest ones) and a folder left at mode 000.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { removeLayerTree } from '../../../src/node/sandbox/stagingLayers';

(process.platform === 'linux' ? describe : describe.skip)('removing a staging layer', function () {
  this.timeout(60_000);
  let base: string;
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-remove-')));
  });
  afterEach(() => {
    spawnSync('chmod', ['-R', 'u+rwx', base]);
    spawnSync('rm', ['-rf', base]);
  });

  it('removes a layer holding a file whose path is longer than PATH_MAX, and a folder at mode 000, leaving its neighbour', () => {
    const layer = path.join(base, 'layer');
    const neighbour = path.join(base, 'neighbour.txt');
    fs.writeFileSync(neighbour, 'stays\n');
    // Folders of 200 characters, 19 deep, and a file of 250 at the bottom: past 4,096 bytes of path.
    const deep = Array.from({ length: 19 }, (_, i) => `${i}`.padEnd(200, 'd')).join('/');
    const name = 'f'.padEnd(250, 'f');
    fs.mkdirSync(layer, { recursive: true });
    const made = spawnSync('sh', ['-c', `mkdir -p upper/${deep} && cd upper/${deep} && echo x > ${name}`], { cwd: layer, encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    fs.mkdirSync(path.join(layer, 'work', 'work'), { recursive: true });
    fs.chmodSync(path.join(layer, 'work', 'work'), 0o000);
    assert.ok(path.join(layer, 'upper', deep, name).length > 4096, 'the file lies past PATH_MAX');
    assert.throws(() => fs.rmSync(layer, { recursive: true, force: true }), /ENAMETOOLONG/, 'Node alone cannot remove it');

    removeLayerTree(layer);

    assert.equal(fs.existsSync(layer), false, 'the layer is gone');
    assert.equal(fs.readFileSync(neighbour, 'utf8'), 'stays\n', 'its neighbour stays');
  });
});
