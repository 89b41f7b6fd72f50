import { strict as assert } from 'node:assert';
import { parseTrigger } from '../../../src/node/github/githubEvent';
import { withoutHtmlComments, issueTask } from '../../../src/node/github/issueTask';
import { issueCommentCreatedPayload, issuesLabeledPayload } from '../../support/github/shapes';

const repo = { owner: 'acme', repo: 'widgets', defaultBranch: 'main' };
const alice = { login: 'alice', id: 1 };
const issue = { number: 3, title: 'Fix it', body: 'body', user: alice };
const comment = (body: string) => ({ id: 9, issue: 3, user: alice, body, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' });
const at = { api: 'https://api.example', server: 'https://example' };

describe('github event triggers', () => {
  it('an issue labeled plan-execute plans; another label is ignored', () => {
    const t = parseTrigger('issues', issuesLabeledPayload({ issue, label: 'plan-execute', sender: alice, repo, ...at }));
    assert.ok(t.ok && t.value.kind === 'plan' && t.value.extra === '');
    const other = parseTrigger('issues', issuesLabeledPayload({ issue, label: 'bug', sender: alice, repo, ...at }));
    assert.ok(other.ok && other.value.kind === 'ignore');
  });

  it('/plan-execute with more text plans with that text; /approve with a reference approves it', () => {
    const plan = parseTrigger('issue_comment', issueCommentCreatedPayload({ issue, comment: comment('/plan-execute  also the docs\nplease'), repo, ...at }));
    assert.ok(plan.ok && plan.value.kind === 'plan' && plan.value.extra === 'also the docs\nplease');
    const approve = parseTrigger('issue_comment', issueCommentCreatedPayload({ issue, comment: comment('/approve v2'), repo, ...at }));
    assert.ok(approve.ok && approve.value.kind === 'approve' && approve.value.reference === 'v2');
  });

  it('ignores other comments, look-alike commands, edits and pull request conversations', () => {
    for (const body of ['please /approve', '/approved', '/plan-executed', 'lgtm']) {
      const t = parseTrigger('issue_comment', issueCommentCreatedPayload({ issue, comment: comment(body), repo, ...at }));
      assert.ok(t.ok && t.value.kind === 'ignore', body);
    }
    const edited = { ...issueCommentCreatedPayload({ issue, comment: comment('/approve'), repo, ...at }), action: 'edited' };
    assert.ok(parseTrigger('issue_comment', edited).ok && (parseTrigger('issue_comment', edited) as { value: { kind: string } }).value.kind === 'ignore');
    const onPr = issueCommentCreatedPayload({ issue, comment: comment('/approve'), repo, ...at });
    (onPr.issue as Record<string, unknown>).pull_request = { url: 'x' };
    assert.equal((parseTrigger('issue_comment', onPr) as { value: { kind: string } }).value.kind, 'ignore');
  });

  it('refuses a payload that is not shaped like GitHub’s', () => {
    assert.equal(parseTrigger('issue_comment', { action: 'created', issue: { number: 'x' } }).ok, false);
  });
});

describe('the task from an issue', () => {
  it('drops HTML comments, an unclosed one to the end, and nested tricks', () => {
    assert.equal(withoutHtmlComments('a <!-- x --> b'), 'a  b');
    assert.equal(withoutHtmlComments('a <!-- x'), 'a ');
    assert.equal(withoutHtmlComments('<!<!-- -->-- hidden -->'), '');
    const task = issueTask({ number: 4, title: 'T <!-- t -->', body: 'B <!-- secret -->' }, 'more <!-- y -->');
    assert.doesNotMatch(task, /secret|<!--| t |y -->/);
    assert.match(task, /T \(issue #4\)/);
    assert.match(task, /Also: more/);
  });
});
