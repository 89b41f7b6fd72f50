import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxSpec, SandboxSupport } from '../../../src/core/contracts/sandbox';
import { prepareConfined } from '../../../src/node/sandbox/confinedRun';

/**
 * prepareConfined checks a spec on disk for every platform and hands it to the platform's launcher
 * (platformLauncher.ts). What each gets and what a refusal leaves behind are seen on disk here, on any
 * machine: the Seatbelt launcher only builds a command line, and bubblewrap's refusals come before a spawn.
 */
describe('platform launchers behind one interface (confinedRun.ts)', () => {
  let root: string;
  let spec: SandboxSpec;
  const seatbelt: SandboxSupport = { available: true, kind: 'seatbelt', detail: 'sandbox-exec' };
  const bubblewrap: SandboxSupport = { available: true, kind: 'bubblewrap', detail: 'bwrap', ownNetwork: true };

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-launchers-')));
    fs.mkdirSync(path.join(root, 'src'));
    spec = {
      root,
      // Missing: made as an empty placeholder to be mounted, removed after a command that left it untouched.
      writable: [{ path: 'src/out', kind: 'directory' }],
      readOnly: [],
      hidden: [],
      hiddenOutside: [],
      visibleOutside: [],
      writableOutside: [],
      readOnlyOutside: [],
      privateOutputs: [],
      network: false,
      env: { PATH: '/usr/bin:/bin', LANG: 'C' },
    };
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('Seatbelt binds nothing: HOME and the temp folder are private folders where they are, gone after the command', () => {
    const prepared = prepareConfined(spec, seatbelt, ['true'], path.join(root, 'src'));
    assert.ok(prepared.ok, prepared.ok ? '' : prepared.error);
    const { file, args, env, cleanup } = prepared.value;
    assert.equal(file, '/usr/bin/sandbox-exec');
    assert.deepEqual(args.slice(-2), ['--', 'true']);
    assert.ok(args[1]?.includes(path.join(root, 'src/out')), 'the profile lets it write the placeholder');
    const home = env.HOME!;
    const tmp = env.TMPDIR!;
    assert.ok(fs.statSync(home).isDirectory() && fs.statSync(tmp).isDirectory());
    assert.notEqual(tmp, '/tmp', 'no private /tmp can be bound: TMPDIR points at the private folder');
    assert.ok(fs.statSync(path.join(root, 'src/out')).isDirectory(), 'the writable placeholder exists while the command runs');
    cleanup();
    assert.equal(fs.existsSync(home), false, 'a new private home per command, removed after it');
    assert.equal(fs.existsSync(tmp), false);
    assert.equal(fs.existsSync(path.join(root, 'src/out')), false, 'the untouched placeholder is removed');
  });

  it('Seatbelt refuses staged writes before anything is made', () => {
    const prepared = prepareConfined(spec, seatbelt, ['true'], root, { upper: path.join(root, 'upper'), work: path.join(root, 'work') });
    assert.deepEqual(prepared, { ok: false, error: 'staged writes need bubblewrap' });
    assert.equal(fs.existsSync(path.join(root, 'src/out')), false);
  });

  it('bubblewrap promised a network of its own without slirp4netns: refused (never the host network), and what was made is undone', () => {
    const saved = process.env.PLAN_EXECUTE_SLIRP4NETNS;
    process.env.PLAN_EXECUTE_SLIRP4NETNS = path.join(root, 'no-slirp4netns');
    try {
      const prepared = prepareConfined({ ...spec, network: true }, bubblewrap, ['true'], root);
      assert.ok(!prepared.ok);
      // Where bubblewrap itself is missing, that is the refusal: either way nothing runs.
      assert.match(prepared.error, /^the sandbox could not be prepared: (slirp4netns|bubblewrap) disappeared$/);
    } finally {
      if (saved === undefined) delete process.env.PLAN_EXECUTE_SLIRP4NETNS;
      else process.env.PLAN_EXECUTE_SLIRP4NETNS = saved;
    }
    assert.equal(fs.existsSync(path.join(root, 'src/out')), false, 'the placeholder made for the mount is removed');
  });

  it('a fault while preparing (a staging layer that is not there) fails closed and undoes what was made', () => {
    const prepared = prepareConfined(spec, bubblewrap, ['true'], root, { upper: path.join(root, 'gone', 'upper'), work: path.join(root, 'gone', 'work') });
    assert.ok(!prepared.ok);
    assert.match(prepared.error, /^the sandbox could not be prepared: /);
    assert.equal(fs.existsSync(path.join(root, 'src/out')), false);
  });

  it('refuses a working directory outside the workspace, and a machine without a sandbox', () => {
    assert.deepEqual(prepareConfined(spec, seatbelt, ['true'], os.tmpdir()), { ok: false, error: 'the working directory is not inside the workspace' });
    assert.deepEqual(prepareConfined(spec, { available: false, reason: 'none here', remedy: '' }, ['true'], root), {
      ok: false,
      error: 'no OS sandbox: none here',
    });
  });
});
