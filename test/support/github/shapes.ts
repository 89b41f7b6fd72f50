/**
 * GitHub's REST and webhook object shapes, as GitHub sends them (the fields of the documented examples that
 * clients read: ids, node ids, URLs, timestamps, users), for the fake server and the event payloads.
 */
export type Role = 'admin' | 'maintain' | 'write' | 'triage' | 'read';

export interface FakeUser {
  login: string;
  id: number;
  type?: 'User' | 'Bot';
}

export function userShape(u: FakeUser, api: string): Record<string, unknown> {
  return {
    login: u.login,
    id: u.id,
    node_id: `MDQ6VXNlcj${u.id}`,
    avatar_url: `https://avatars.example.invalid/u/${u.id}?v=4`,
    gravatar_id: '',
    url: `${api}/users/${encodeURIComponent(u.login)}`,
    html_url: `https://github.example.invalid/${u.login}`,
    type: u.type ?? (u.login.endsWith('[bot]') ? 'Bot' : 'User'),
    site_admin: false,
  };
}

export interface RepoRef {
  owner: string;
  repo: string;
  defaultBranch: string;
}

export function repoShape(r: RepoRef, api: string, server: string): Record<string, unknown> {
  return {
    id: 1296269,
    node_id: 'MDEwOlJlcG9zaXRvcnkxMjk2MjY5',
    name: r.repo,
    full_name: `${r.owner}/${r.repo}`,
    private: false,
    owner: userShape({ login: r.owner, id: 1, type: 'User' }, api),
    html_url: `${server}/${r.owner}/${r.repo}`,
    url: `${api}/repos/${r.owner}/${r.repo}`,
    default_branch: r.defaultBranch,
    visibility: 'public',
    fork: false,
  };
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string | null;
  user: FakeUser;
  labels?: string[];
}

export function issueShape(i: FakeIssue, r: RepoRef, api: string, server: string, comments = 0): Record<string, unknown> {
  const base = `${api}/repos/${r.owner}/${r.repo}/issues/${i.number}`;
  return {
    url: base,
    repository_url: `${api}/repos/${r.owner}/${r.repo}`,
    labels_url: `${base}/labels{/name}`,
    comments_url: `${base}/comments`,
    events_url: `${base}/events`,
    html_url: `${server}/${r.owner}/${r.repo}/issues/${i.number}`,
    id: 1000 + i.number,
    node_id: `I_kwDO${i.number}`,
    number: i.number,
    title: i.title,
    user: userShape(i.user, api),
    labels: (i.labels ?? []).map((name, k) => ({
      id: 200 + k,
      node_id: `LA_${k}`,
      url: `${api}/repos/${r.owner}/${r.repo}/labels/${name}`,
      name,
      color: 'ededed',
      default: false,
      description: null,
    })),
    state: 'open',
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments,
    created_at: '2026-12-01T10:00:00Z',
    updated_at: '2026-12-01T10:00:00Z',
    closed_at: null,
    author_association: 'MEMBER',
    active_lock_reason: null,
    body: i.body,
    reactions: { url: `${base}/reactions`, total_count: 0 },
    timeline_url: `${base}/timeline`,
    performed_via_github_app: null,
    state_reason: null,
  };
}

export interface FakeComment {
  id: number;
  issue: number;
  user: FakeUser;
  body: string;
  created_at: string;
  updated_at: string;
}

export function commentShape(c: FakeComment, r: RepoRef, api: string, server: string): Record<string, unknown> {
  return {
    url: `${api}/repos/${r.owner}/${r.repo}/issues/comments/${c.id}`,
    html_url: `${server}/${r.owner}/${r.repo}/issues/${c.issue}#issuecomment-${c.id}`,
    issue_url: `${api}/repos/${r.owner}/${r.repo}/issues/${c.issue}`,
    id: c.id,
    node_id: `IC_kwDO${c.id}`,
    user: userShape(c.user, api),
    created_at: c.created_at,
    updated_at: c.updated_at,
    author_association: 'MEMBER',
    body: c.body,
    reactions: { url: `${api}/repos/${r.owner}/${r.repo}/issues/comments/${c.id}/reactions`, total_count: 0 },
    performed_via_github_app: null,
  };
}

/** The `issues` webhook payload for `labeled`. */
export function issuesLabeledPayload(o: {
  issue: FakeIssue;
  label: string;
  sender: FakeUser;
  repo: RepoRef;
  api: string;
  server: string;
}): Record<string, unknown> {
  return {
    action: 'labeled',
    issue: issueShape({ ...o.issue, labels: [...(o.issue.labels ?? []), o.label] }, o.repo, o.api, o.server),
    label: {
      id: 208045946,
      node_id: 'MDU6TGFiZWwyMDgwNDU5NDY=',
      url: `${o.api}/repos/${o.repo.owner}/${o.repo.repo}/labels/${o.label}`,
      name: o.label,
      color: 'f29513',
      default: false,
      description: null,
    },
    repository: repoShape(o.repo, o.api, o.server),
    sender: userShape(o.sender, o.api),
  };
}

/** The `issue_comment` webhook payload for `created`. */
export function issueCommentCreatedPayload(o: { issue: FakeIssue; comment: FakeComment; repo: RepoRef; api: string; server: string }): Record<string, unknown> {
  return {
    action: 'created',
    issue: issueShape(o.issue, o.repo, o.api, o.server),
    comment: commentShape(o.comment, o.repo, o.api, o.server),
    repository: repoShape(o.repo, o.api, o.server),
    sender: userShape(o.comment.user, o.api),
  };
}
