import assert from 'node:assert/strict';
import { runMission } from '../../../src/core/mission/start';
import type { TrackedSecretsConsent } from '../../../src/core/mission/options';
import { trackedSecretFiles } from '../../../src/core/policy/trackedSecrets';
import { FakeExecutor, harness } from './fakes';
import { fileStep, plan } from '../../support/fixtures';

describe('secrets git tracks, said before the first command (src/core/mission/trackedSecrets.ts)', () => {
  const cases: [string[], string[]][] = [
    [['.env', 'src/app.ts', '.env.example'], ['.env']],
    [['config/master.key', 'config/credentials.yml.enc'], ['config/master.key']],
    [['deploy/id_ed25519', 'deploy/id_ed25519.pub'], ['deploy/id_ed25519']],
    [['test/fixtures/server.key', 'src/secrets.ts', 'docs/secrets.md'], []],
    [['.plan-execute/x/.env'], []],
  ];
  for (const [tracked, secrets] of cases) {
    it(`among ${tracked.join(', ')} names ${secrets.join(', ') || 'none'}`, () =>
      assert.deepEqual(
        trackedSecretFiles(tracked, () => undefined),
        secrets,
      ));
  }
  it('leaves out what the user allowed for the mission', () =>
    assert.deepEqual(
      trackedSecretFiles(
        ['.env', '.env.local'],
        () => undefined,
        (p) => p === '.env',
      ),
      ['.env.local'],
    ));

  /** A mission whose one step runs a command, over a repository that tracks `.env`. */
  function mission(consent: TrackedSecretsConsent | undefined, commands = ['npm test'], sandbox: 'required' | 'off' = 'required') {
    const executor = new FakeExecutor();
    const h = harness(plan([fileStep('s1', { kind: commands.length > 0 ? 'command' : 'edit', authority: { read: ['**'], edit: ['out/**'], commands } })]), {
      executor,
      toolSettings: { sandbox },
      ...(consent ? { trackedSecrets: consent } : {}),
    });
    Object.assign(h.ws, { gitTrackedFiles: async () => ['.env', 'src/app.ts'] });
    return { h, executor };
  }
  const asked: { files: readonly string[]; message: string }[] = [];
  const answer = (allowed: boolean): TrackedSecretsConsent => ({
    confirm: async (files, message) => {
      asked.push({ files, message });
      return { allowed, by: 'flag', howToAllow: 'run again with --allow-tracked-secrets' };
    },
  });
  beforeEach(() => asked.splice(0));

  it('refused: the mission fails before any step runs, naming the files and how to allow it — and never says they are hidden', async () => {
    const { h, executor } = mission(answer(false));
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'failed');
    assert.equal(executor.calls.length, 0, 'no step ran');
    assert.match(report.summary, /\.env/);
    assert.match(report.summary, /--allow-tracked-secrets/);
    assert.match(report.summary, /git show HEAD:\.env/);
    assert.doesNotMatch(report.summary, /\bhidden\b/);
    const event = h.emitted.find((e) => e.type === 'tracked_secrets');
    assert.ok(event && event.type === 'tracked_secrets' && !event.allowed && event.files.join() === '.env', JSON.stringify(event));
  });

  it('allowed: asked once, recorded, and the mission runs', async () => {
    const { h, executor } = mission(answer(true));
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'succeeded', report.summary);
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0]?.files, ['.env']);
    assert.ok(executor.calls.length > 0);
    assert.equal(h.emitted.filter((e) => e.type === 'tracked_secrets').length, 1);
  });

  it('not asked when no step runs a command, or the sandbox is off (nothing is hidden from commands then)', async () => {
    for (const [commands, sandbox] of [
      [[], 'required'],
      [['npm test'], 'off'],
    ] as const) {
      const { h } = mission(answer(false), [...commands], sandbox);
      const report = await runMission(h.options);
      assert.equal(report.outcome, 'succeeded', report.summary);
    }
    assert.equal(asked.length, 0);
  });

  it('refused without a way to ask (a front end that gave none)', async () => {
    const { h } = mission(undefined);
    const report = await runMission(h.options);
    assert.equal(report.outcome, 'failed');
    assert.match(report.summary, /MissionOptions\.trackedSecrets/);
  });
});
