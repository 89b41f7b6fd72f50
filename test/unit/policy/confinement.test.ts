import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { authority, type AuthorityInput } from '../../support/fixtures';
import type { SandboxMode, SandboxSupport } from '../../../src/core/contracts/sandbox';
import type { StagingLayers } from '../../../src/core/ports';
import { policyFor } from '../../../src/core/policy/policy';
import { noHostFacts } from '../../../src/core/policy/sandboxSpec';
import { confinementFor, confinementMode, stagingMayApply, unattendedConfinementFor, type StagingFacts } from '../../../src/core/policy/confinement';
import { nodePolicyFs } from '../../../src/node/nodePolicyFs';

/** The decision is pure: the facts are made by hand; only the policy needs a real (empty) root. */
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-confinement-')));
after(() => fs.rmSync(root, { recursive: true, force: true }));

const host = noHostFacts('linux');
const bwrap: SandboxSupport = { available: true, kind: 'bubblewrap', detail: 'bwrap 0.9' };
const bwrapOwnNet: SandboxSupport = { ...bwrap, ownNetwork: true };
const seatbelt: SandboxSupport = { available: true, kind: 'seatbelt', detail: 'sandbox-exec' };
const none: SandboxSupport = { available: false, reason: 'bubblewrap is not installed', remedy: 'install bubblewrap' };
// Only carried by reference: the decision never calls it.
const layers = {} as StagingLayers;
const mountable: StagingFacts = { kind: 'layer', layers, layer: 'attempt-1', support: { available: true, detail: 'overlayfs (userxattr)' } };
const unmountable: StagingFacts = {
  kind: 'layer',
  layers,
  layer: 'attempt-1',
  support: { available: false, reason: 'the kernel refuses unprivileged overlayfs' },
};
const noStaging: StagingFacts = { kind: 'none' };

function policyOf(granted: AuthorityInput, role: 'executor' | 'verifier' = 'executor') {
  return policyFor(root, { id: 's', authority: authority(granted) }, { fs: nodePolicyFs, role, allowSensitive: [], ignoreText: null });
}

describe("confinement (one value per process, from the step's policy and the host's facts)", () => {
  const cases: {
    name: string;
    setting: SandboxMode;
    support: SandboxSupport;
    staging: StagingFacts;
    expect: { mode: string; sandbox: string; writes: string; reason?: RegExp };
  }[] = [
    {
      name: 'bubblewrap, a layer it can mount: staged',
      setting: 'required',
      support: bwrap,
      staging: mountable,
      expect: { mode: 'sandboxed', sandbox: 'bubblewrap', writes: 'staged' },
    },
    {
      name: 'prefer reads the same where a sandbox exists',
      setting: 'prefer',
      support: bwrap,
      staging: mountable,
      expect: { mode: 'sandboxed', sandbox: 'bubblewrap', writes: 'staged' },
    },
    {
      name: 'bubblewrap, a layer it cannot mount: direct, saying why',
      setting: 'required',
      support: bwrap,
      staging: unmountable,
      expect: { mode: 'sandboxed', sandbox: 'bubblewrap', writes: 'direct: the kernel refuses unprivileged overlayfs' },
    },
    {
      name: 'bubblewrap, a terminal that stages nothing: direct',
      setting: 'required',
      support: bwrap,
      staging: noStaging,
      expect: { mode: 'sandboxed', sandbox: 'bubblewrap', writes: 'direct: this terminal does not stage writes' },
    },
    {
      name: 'Seatbelt: direct, whatever the terminal offers',
      setting: 'required',
      support: seatbelt,
      staging: mountable,
      expect: { mode: 'sandboxed', sandbox: 'seatbelt', writes: 'direct: seatbelt cannot stage writes yet' },
    },
    {
      name: 'off: unconfined and direct, with the sandbox present',
      setting: 'off',
      support: bwrap,
      staging: mountable,
      expect: {
        mode: 'sandbox_off',
        sandbox: 'none',
        writes: 'direct: commands run outside the sandbox, so nothing stages their writes',
        reason: /turned off/,
      },
    },
    {
      name: 'prefer without a sandbox: unsandboxed (the user approves each), direct',
      setting: 'prefer',
      support: none,
      staging: noStaging,
      expect: {
        mode: 'unsandboxed',
        sandbox: 'none',
        writes: 'direct: commands run outside the sandbox, so nothing stages their writes',
        reason: /no OS sandbox: bubblewrap is not installed/,
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = confinementFor(policyOf({ edit: ['src/**'] }), { setting: c.setting, support: c.support, staging: c.staging, host });
      assert.ok(got.ok);
      const v = got.value;
      assert.equal(v.mode, c.expect.mode);
      assert.equal(v.sandbox, c.expect.sandbox);
      assert.equal(v.writes.kind === 'staged' ? 'staged' : `direct: ${v.writes.why}`, c.expect.writes);
      if (c.expect.reason) assert.match(v.reason ?? '', c.expect.reason);
      else assert.equal(v.reason, undefined);
      if (v.writes.kind === 'staged')
        assert.ok(v.writes.layers === layers && v.writes.layer === 'attempt-1', 'the staged value carries the step attempt’s layer');
      assert.equal(v.host, host);
      if (v.writes.kind === 'staged') assert.equal(v.mode, 'sandboxed', 'only a sandboxed process writes a layer');
    });
  }

  it('refuses where the sandbox is required and missing, naming what is missing and the remedy', () => {
    const got = confinementFor(policyOf({ edit: ['src/**'] }), { setting: 'required', support: none, staging: noStaging, host });
    assert.ok(!got.ok);
    assert.equal(got.error.rule, 'sandbox.unavailable');
    assert.match(got.error.reason, /commands must run in the OS sandbox, and there is none here: bubblewrap is not installed\. install bubblewrap/);
    assert.equal(got.error.remedy, 'install bubblewrap');
    const mode = confinementMode('required', none);
    assert.ok(!mode.ok && mode.error.reason === got.error.reason, 'the check before asking is the same rule');
  });

  it('asks the machine about a layer only where staging could apply: sandboxed, by bubblewrap', () => {
    assert.deepEqual(
      [
        stagingMayApply('required', bwrap),
        stagingMayApply('prefer', bwrap),
        stagingMayApply('off', bwrap),
        stagingMayApply('required', seatbelt),
        stagingMayApply('prefer', none),
      ],
      [true, true, false, false, false],
    );
  });

  it('gives a staged process the whole workspace in its layer, a direct one the write scope, the verifier none', () => {
    const staged = confinementFor(policyOf({ edit: ['src/**'] }), { setting: 'required', support: bwrap, staging: mountable, host });
    const direct = confinementFor(policyOf({ edit: ['src/**'] }), { setting: 'required', support: bwrap, staging: noStaging, host });
    const verifier = confinementFor(policyOf({ edit: ['src/**'] }, 'verifier'), { setting: 'required', support: bwrap, staging: noStaging, host });
    assert.ok(staged.ok && direct.ok && verifier.ok);
    assert.deepEqual(staged.value.region.scope, [{ path: '', kind: 'tree' }]);
    assert.deepEqual(direct.value.region.scope, [{ path: 'src', kind: 'tree' }]);
    assert.deepEqual(verifier.value.region.scope, []);
    // The listing never enters our store, whatever the region.
    for (const v of [staged.value, direct.value, verifier.value]) assert.equal(v.region.prune('.plan-execute'), true);
    // Staged, a dependency folder's content need not be listed; direct, one the scope reaches must be.
    assert.equal(staged.value.region.prune('src/vendor'), true);
    assert.equal(direct.value.region.prune('src/vendor'), false);
  });

  it('lets the repository be written only by a step with a writing git command and a write scope', () => {
    const facts = { setting: 'required' as const, support: bwrap, staging: noStaging, host };
    const writes = confinementFor(policyOf({ edit: ['src/**'], commands: ['git commit *'] }), facts);
    const reads = confinementFor(policyOf({ edit: ['src/**'], commands: ['git status'] }), facts);
    const verifier = confinementFor(policyOf({ edit: ['src/**'], commands: ['git commit *'] }, 'verifier'), facts);
    assert.ok(writes.ok && reads.ok && verifier.ok);
    assert.deepEqual([writes.value.gitWritable, reads.value.gitWritable, verifier.value.gitWritable], [true, false, false]);
    assert.equal(writes.value.region.prune('.git'), false, 'the listing enters .git when it may be written');
    assert.equal(reads.value.region.prune('.git'), true);
  });

  it("says whose network a granted one is: the sandbox's own only where the runner has one", () => {
    const net = (support: SandboxSupport, setting: SandboxMode, granted: boolean) => {
      const got = confinementFor(policyOf({ edit: ['src/**'], network: granted }), { setting, support, staging: noStaging, host });
      assert.ok(got.ok);
      return got.value.network;
    };
    assert.deepEqual(net(bwrapOwnNet, 'required', true), { granted: true, hostLoopback: false });
    assert.deepEqual(net(bwrap, 'required', true), { granted: true, hostLoopback: true });
    assert.deepEqual(net(bwrapOwnNet, 'off', true), { granted: true, hostLoopback: true }, 'unconfined: the host network');
    assert.deepEqual(net(none, 'prefer', true), { granted: true, hostLoopback: true });
    assert.deepEqual(net(bwrapOwnNet, 'required', false), { granted: false });
  });

  it('runs what no one approves (an MCP server, a start hook) confined, or unconfined only when the sandbox is off — never on prefer alone', () => {
    const table: [SandboxMode, SandboxSupport, string][] = [
      ['required', bwrap, 'sandboxed'],
      ['prefer', seatbelt, 'sandboxed'],
      ['off', bwrap, 'unsandboxed'],
      ['off', none, 'unsandboxed'],
      ['prefer', none, 'refused: bubblewrap is not installed / install bubblewrap'],
      ['required', none, 'refused: bubblewrap is not installed / install bubblewrap'],
    ];
    for (const [setting, support, expected] of table) {
      const got = unattendedConfinementFor(setting, support);
      assert.equal(
        got.ok ? got.value : `refused: ${got.error.missing} / ${got.error.remedy}`,
        expected,
        `${setting} with ${support.available ? support.kind : 'none'}`,
      );
    }
  });
});
