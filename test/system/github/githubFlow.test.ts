/**
 * `plan-execute github` end to end: the real CLI against the fake GitHub REST API, a bare repository as
 * `origin` and a scripted model — from a labeled issue to a plan comment, from `/approve` to a pushed
 * branch and a pull request; who may do what; what never reaches a model.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { executors, only, planned, planner, postedComments, roles } from './githubMission';
import { BOT, commented, git, githubScene, labeled, MAINTAINER, originHeads, READER, runGitHub, story, TRIAGER, WRITER, type GitHubScene } from './githubScene';

describe('plan-execute github', function () {
  this.timeout(300_000);
  let s: GitHubScene;
  afterEach(async () => s?.close());

  it('a labeled issue gets exactly one plan comment and nothing executes', async () => {
    s = await githubScene();
    const before = git(s.ws, 'status', '--porcelain');
    const r = await runGitHub(s, labeled(s, WRITER), only([planner, ...executors]));
    assert.equal(r.code, 0, story(r));
    const posted = postedComments(s);
    assert.equal(posted.length, 1, `one comment${story(r)}`);
    const body = posted[0]!.body;
    assert.match(body, /^<!-- plan-execute:plan -->\n/);
    for (const text of ['s1', 'Write the greeting module', 's2', 'Run the tests', 'npm test', '/approve', 'Plan hash'])
      assert.ok(body.includes(text), `the comment names ${text}`);
    assert.deepEqual(roles(r.requests), ['planner'], 'the planner only: no executor, no verifier');
    assert.equal(existsSync(join(s.ws, 'src/greet.js')), false, 'nothing was written');
    assert.equal(git(s.ws, 'status', '--porcelain'), before, 'the checkout is as it was');
    assert.equal(s.github.comments[0]!.user.login, BOT.login, 'posted as the bot');
  });

  it('a sender without write permission gets one refusal comment and no model is called', async () => {
    s = await githubScene();
    const r = await runGitHub(s, labeled(s, READER), only([planner]));
    assert.equal(r.code, 0, story(r));
    assert.equal(r.requests.length, 0, 'no model request');
    const posted = postedComments(s);
    assert.equal(posted.length, 1, story(r));
    assert.match(posted[0]!.body, /write access/);
    assert.doesNotMatch(posted[0]!.body, /plan-execute:plan/);
  });

  it('/approve by a writer pushes a plan-execute/issue-… branch with the change and opens a pull request; the default branch is untouched', async () => {
    s = await githubScene();
    await planned(s);
    const mainBefore = originHeads(s).get('main');
    const r = await runGitHub(s, commented(s, WRITER, '/approve'), only([...executors]));
    assert.equal(r.code, 0, story(r));
    const heads = originHeads(s);
    assert.equal(heads.get('main'), mainBefore, 'main did not move');
    const branch = [...heads.keys()].find((b) => b.startsWith('plan-execute/issue-7-'));
    assert.ok(branch, `a plan-execute/issue-7-… branch on origin: ${[...heads.keys()].join(', ')}${story(r)}`);
    assert.match(git(s.origin, 'show', `${branch}:src/greet.js`), /hello/);
    assert.equal(s.github.pulls.length, 1, story(r));
    const pr = s.github.pulls[0]!;
    assert.equal(pr.head, branch);
    assert.equal(pr.base, 'main');
    assert.match(pr.body, /Closes #7/);
    for (const id of ['s1', 's2']) assert.match(pr.body, new RegExp(`${id} · `), `the PR names step ${id}`);
    assert.match(pr.body, /succeeded/);
    assert.match(pr.body, /Cost/);
    assert.match(pr.body, /actions\/runs\//);
    const log = git(s.origin, 'log', '-1', '--format=%an <%ae>%n%B', branch);
    assert.match(log, /^github-actions\[bot\] <41898282\+github-actions\[bot\]@users\.noreply\.github\.com>/);
    assert.match(log, /Co-authored-by: alice <501\+alice@users\.noreply\.github\.com>/);
    assert.equal(r.requests.filter((q) => q.role === 'planner').length, 0, 'the plan came from the comment, not a new planning');
    assert.doesNotMatch(git(s.ws, 'config', '--local', '--list'), /extraheader/i, 'the persisted token was removed before any step ran');
  });

  for (const [who, user] of [
    ['triage', TRIAGER],
    ['read', READER],
  ] as const) {
    it(`/approve by someone with ${who} permission runs nothing, says nothing and exits 0`, async () => {
      s = await githubScene();
      await planned(s);
      const before = s.github.requests.length;
      const r = await runGitHub(s, commented(s, user, '/approve'), only([planner, ...executors]));
      assert.equal(r.code, 0, story(r));
      assert.equal(r.requests.length, 0, 'no model request');
      assert.equal(s.github.requests.slice(before).filter((q) => q.method !== 'GET').length, 0, 'no comment, no pull request');
      assert.deepEqual([...originHeads(s).keys()], ['main']);
    });
  }

  it('a maintainer may approve', async () => {
    s = await githubScene();
    await planned(s);
    const r = await runGitHub(s, commented(s, MAINTAINER, '/approve'), only([...executors]));
    assert.equal(r.code, 0, story(r));
    assert.equal(s.github.pulls.length, 1);
  });
});
