import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGitHubApi } from '../../../src/node/github/githubApi';
import { startFakeGitHub, type FakeGitHub } from '../../support/github/fakeGitHub';

describe('the GitHub REST client (Octokit, against the fake API)', () => {
  let gh: FakeGitHub;
  let dir: string;
  const repo = { owner: 'acme', repo: 'widgets' };
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gh-api-'));
    gh = await startFakeGitHub({
      ...repo,
      defaultBranch: 'trunk',
      token: 't0k',
      originDir: dir,
      collaborators: { mona: 'maintain', trish: 'triage', ann: 'admin' },
      issues: [{ number: 1, title: 't', body: null, user: { login: 'ann', id: 1 } }],
    });
  });
  afterEach(async () => {
    await gh.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const api = (token = 't0k') => createGitHubApi({ apiUrl: gh.url, token, ...repo });

  it('reads comments across every page, oldest first', async () => {
    for (let i = 0; i < 250; i++) gh.addComment(1, { login: 'ann', id: 1 }, `c${i}`);
    const all = await api().comments(1);
    assert.deepEqual(
      all.map((c) => c.body),
      Array.from({ length: 250 }, (_, i) => `c${i}`),
    );
    assert.deepEqual(
      gh.requests.map((r) => r.query.page ?? '1'),
      ['1', '2', '3'],
    );
  });

  it('knows the bot: github-actions[bot] when GitHub refuses the token at GET /user', async () => {
    assert.equal(await api().botLogin(), 'github-actions[bot]');
  });

  it('reads roles by role_name (maintain, triage) and a stranger as read', async () => {
    assert.equal(await api().permission('mona'), 'maintain');
    assert.equal(await api().permission('trish'), 'triage');
    assert.equal(await api().permission('ann'), 'admin');
    assert.equal(await api().permission('nobody'), 'read');
    assert.equal(await api().defaultBranch(), 'trunk');
  });

  it('a refused token is an error naming the endpoint and the status', async () => {
    await assert.rejects(api('wrong').defaultBranch(), /GET \/repos\/\{owner\}\/\{repo\}: HTTP 401/);
  });
});
