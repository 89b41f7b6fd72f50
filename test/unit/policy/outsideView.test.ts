/**
 * What a command sees outside the workspace, as a specification: the system and the workspace, nothing
 * beside the workspace at any depth, and what the workspace's links lead to shown again read-only.
 */
import assert from 'node:assert/strict';
import type { HostFacts } from '../../../src/core/contracts/sandbox';
import type { ScanEntry } from '../../../src/core/ports';
import { enclosingArea, hiddenOutsideOf, linkedOutsideOf } from '../../../src/core/policy/outsideView';
import { isWithin } from '../../../src/core/primitives/paths';

/** A machine made by hand: folders and their names, links and where they lead. */
function machine(tree: Record<string, string[]>, links: Record<string, string> = {}, home = '/home/ada'): HostFacts {
  return {
    platform: 'linux',
    home,
    pathEntries: ['/usr/bin', '/bin'],
    listDir: (abs) => tree[abs] ?? [],
    linkTarget: (abs) => links[abs],
    linkHop: (abs) => links[abs],
  };
}

const hiddenAt = (outside: readonly string[], path: string): boolean => outside.some((h) => isWithin(path, h));
const link = (path: string): ScanEntry => ({ path, kind: 'symlink', size: 0, mode: 0, signature: '' });

describe('what a command sees outside the workspace', () => {
  it('hides every neighbour of the workspace at every depth, not only its parent', () => {
    const host = machine({ '/': ['opt', 'usr', 'home'], '/opt': ['x', 'y'], '/opt/x': ['acme', 'globex'], '/opt/x/acme': ['ws', 'other'] });
    const outside = hiddenOutsideOf('/opt/x/acme/ws', host);
    for (const neighbour of ['/opt/x/globex/.env', '/opt/x/acme/other', '/opt/x/globex/deploy/config.yml'])
      assert.ok(hiddenAt(outside, neighbour), `${neighbour} is hidden`);
    assert.ok(!hiddenAt(outside, '/opt/y/bin/tool'), "/opt's other installs stay (a toolchain)");
    assert.ok(!hiddenAt(outside, '/usr/bin/node') && !hiddenAt(outside, '/opt'), 'the system stays');
    assert.ok(!outside.includes('/opt/x/acme/ws'), 'the workspace itself is never hidden');
  });

  it('finds the shallowest folder above the workspace whose children are not the system', () => {
    assert.equal(enclosingArea('/opt/x/acme/ws'), '/opt/x');
    assert.equal(enclosingArea('/usr/local/src/proj'), '/usr/local/src');
    assert.equal(enclosingArea('/var/lib/jenkins/workspace/job'), '/var/lib/jenkins');
    assert.equal(enclosingArea('/srv/app'), '/srv');
    assert.equal(enclosingArea('/tmp/scene/ws'), '/tmp/scene');
    assert.equal(enclosingArea('/opt/ws'), undefined, 'directly in /opt: its parent is hidden (below)');
    assert.ok(hiddenOutsideOf('/opt/ws', machine({})).includes('/opt'), 'the parent of a workspace is hidden whatever it is');
    assert.ok(hiddenOutsideOf('/usr/local/src/proj', machine({})).includes('/usr/local/src'));
    assert.ok(!hiddenOutsideOf('/tmp/ws', machine({})).includes('/tmp'), "/tmp is the command's own private one, never a read-only tmpfs");
    assert.ok(!hiddenAt(hiddenOutsideOf('/usr/local/src/proj', machine({})), '/usr/local/bin/tsc'));
  });

  it("shows a linked node_modules' target read-only, without its secrets — but not the home, nor where credentials live", () => {
    const host = machine(
      { '/shared/installs/node_modules': ['typescript', '.npmrc', '.bin'], '/': ['shared', 'usr'] },
      {
        '/opt/x/acme/ws/node_modules': '/shared/installs/node_modules',
        '/opt/x/acme/ws/app/vendor': '/home/ada/.ssh',
        '/opt/x/acme/ws/lib/node_modules': '/home/ada',
      },
    );
    const outside = hiddenOutsideOf('/opt/x/acme/ws', host);
    const seen = linkedOutsideOf('/opt/x/acme/ws', [link('node_modules'), link('app/vendor'), link('lib/node_modules')], outside, host);
    assert.deepEqual(seen.visible, ['/shared/installs/node_modules']);
    assert.deepEqual(seen.secrets, ['/shared/installs/node_modules/.npmrc']);
  });

  it('shows an npm link chain at each hop: the package folder and the global link it goes through', () => {
    const host = machine(
      { '/opt/x/acme/ws/node_modules': ['foo', 'bar'] },
      { '/opt/x/acme/ws/node_modules/foo': '/opt/x/foo-src', '/opt/x/acme/ws/node_modules/bar': '/opt/x/acme/ws/packages/bar' },
    );
    const outside = hiddenOutsideOf('/opt/x/acme/ws', host);
    const seen = linkedOutsideOf('/opt/x/acme/ws', [], outside, host);
    assert.deepEqual(seen.visible, ['/opt/x/foo-src'], 'a link inside the workspace needs nothing shown');
  });
});
