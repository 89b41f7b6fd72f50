/**
 * A fake GitHub REST API on 127.0.0.1 for tests that run `plan-execute github`: answers like GitHub does
 * (status codes, bodies, the `Link` header Octokit's pagination follows, 401 for a wrong token, 403 on
 * GET /user for an Actions token, 404 for unknown routes, 422 for a pull request whose head branch is not on
 * `origin`), keeps issues, comments and pull requests in memory, and records every request.
 */
import { execFileSync } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { startLoopbackServer } from '../loopbackServer';
import { commentShape, issueShape, repoShape, userShape, type FakeComment, type FakeIssue, type FakeUser, type RepoRef, type Role } from './shapes';

export interface FakeGitHubOptions extends RepoRef {
  token: string;
  /** The bare repository behind `origin` (a pull request's head must exist there). */
  originDir: string;
  /** The token's user for GET /user; absent: the token is an Actions token, refused there with 403. */
  tokenUser?: FakeUser;
  /** Who comments as the token (github-actions[bot] for an Actions token). */
  bot?: FakeUser;
  /** Collaborators and their roles; anyone else reads a public repository (permission "read", role "read"). */
  collaborators: Record<string, Role>;
  issues: FakeIssue[];
}

interface RecordedGitHubRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  /** The request's headers; authorization redacted. */
  headers: Record<string, string>;
}

interface FakePull {
  number: number;
  title: string;
  head: string;
  base: string;
  body: string;
}

export interface FakeGitHub {
  /** GITHUB_API_URL. */
  url: string;
  /** GITHUB_SERVER_URL (links only). */
  serverUrl: string;
  requests: RecordedGitHubRequest[];
  comments: FakeComment[];
  pulls: FakePull[];
  /** A comment made outside the run (a person's, or a pre-existing plan); `at` defaults to the fake's clock. */
  addComment(issue: number, user: FakeUser, body: string): FakeComment;
  /** Edits a comment as GitHub's UI would: new body, updated_at moved on. */
  editComment(id: number, body: string): void;
  /** The webhook shape of an issue, as this server holds it. */
  issueShape(n: number): Record<string, unknown>;
  close(): Promise<void>;
}

const ACTIONS_BOT: FakeUser = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };
const DOCS = 'https://docs.github.com/rest';

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-github-api-version-selected': '2022-11-28', ...headers });
  res.end(text);
}

const notFound = (res: ServerResponse): void => send(res, 404, { message: 'Not Found', documentation_url: DOCS, status: '404' });

export async function startFakeGitHub(o: FakeGitHubOptions): Promise<FakeGitHub> {
  const requests: RecordedGitHubRequest[] = [];
  const comments: FakeComment[] = [];
  const pulls: FakePull[] = [];
  const bot = o.bot ?? o.tokenUser ?? ACTIONS_BOT;
  let clock = Date.parse('2026-12-01T10:00:00Z');
  let nextId = 5000;
  const tick = (): string => new Date((clock += 60_000)).toISOString().replace(/\.\d{3}Z$/, 'Z');
  let api = '';
  const serverUrl = 'https://github.example.invalid';
  const repoPath = `/repos/${o.owner}/${o.repo}`;
  const ref = { owner: o.owner, repo: o.repo, defaultBranch: o.defaultBranch };

  const addComment = (issue: number, user: FakeUser, body: string): FakeComment => {
    const at = tick();
    const c = { id: nextId++, issue, user, body, created_at: at, updated_at: at };
    comments.push(c);
    return c;
  };

  const branchExists = (name: string): boolean => {
    try {
      execFileSync('git', ['rev-parse', '--verify', '--quiet', `refs/heads/${name}`], { cwd: o.originDir, stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };

  const routes: [string, RegExp, (res: ServerResponse, m: RegExpExecArray, q: Record<string, string>, body: unknown) => void][] = [
    [
      'GET',
      /^\/user$/,
      (res) =>
        o.tokenUser
          ? send(res, 200, userShape(o.tokenUser, api))
          : send(res, 403, {
              message: 'Resource not accessible by integration',
              documentation_url: `${DOCS}/users/users#get-the-authenticated-user`,
              status: '403',
            }),
    ],
    ['GET', new RegExp(`^${repoPath}$`), (res) => send(res, 200, repoShape(ref, api, serverUrl))],
    [
      'GET',
      new RegExp(`^${repoPath}/collaborators/([^/]+)/permission$`),
      (res, m) => {
        const login = decodeURIComponent(m[1]!);
        const role = o.collaborators[login] ?? 'read';
        const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
        send(res, 200, { permission, role_name: role, user: { ...userShape({ login, id: 7000 + login.length }, api), permissions: {} } });
      },
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/issues/(\\d+)$`),
      (res, m) => {
        const issue = o.issues.find((i) => i.number === Number(m[1]));
        if (!issue) return notFound(res);
        send(res, 200, issueShape(issue, ref, api, serverUrl, comments.filter((c) => c.issue === issue.number).length));
      },
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/issues/(\\d+)/comments$`),
      (res, m, q) => {
        const n = Number(m[1]);
        if (!o.issues.some((i) => i.number === n)) return notFound(res);
        const perPage = Math.min(100, Math.max(1, Number(q.per_page ?? 30)));
        const page = Math.max(1, Number(q.page ?? 1));
        const all = comments.filter((c) => c.issue === n);
        const last = Math.max(1, Math.ceil(all.length / perPage));
        const link = (p: number): string => `${api}${repoPath}/issues/${n}/comments?per_page=${perPage}&page=${p}`;
        const rels = [
          ...(page < last ? [`<${link(page + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`] : []),
          ...(page > 1 ? [`<${link(1)}>; rel="first"`, `<${link(page - 1)}>; rel="prev"`] : []),
        ];
        const slice = all.slice((page - 1) * perPage, page * perPage).map((c) => commentShape(c, ref, api, serverUrl));
        send(res, 200, slice, rels.length ? { link: rels.join(', ') } : {});
      },
    ],
    [
      'POST',
      new RegExp(`^${repoPath}/issues/(\\d+)/comments$`),
      (res, m, _q, body) => {
        const n = Number(m[1]);
        if (!o.issues.some((i) => i.number === n)) return notFound(res);
        const text = (body as { body?: unknown } | undefined)?.body;
        if (typeof text !== 'string' || text.length === 0)
          return send(res, 422, {
            message: 'Validation Failed',
            errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }],
            documentation_url: DOCS,
            status: '422',
          });
        if (text.length > 65536)
          return send(res, 422, {
            message: 'Validation Failed',
            errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }],
            documentation_url: DOCS,
            status: '422',
          });
        send(res, 201, commentShape(addComment(n, bot, text), ref, api, serverUrl));
      },
    ],
    [
      'POST',
      new RegExp(`^${repoPath}/pulls$`),
      (res, _m, _q, body) => {
        const b = (body ?? {}) as { title?: unknown; head?: unknown; base?: unknown; body?: unknown };
        if (typeof b.title !== 'string' || typeof b.head !== 'string' || typeof b.base !== 'string')
          return send(res, 422, {
            message: 'Validation Failed',
            errors: [{ resource: 'PullRequest', code: 'missing_field' }],
            documentation_url: DOCS,
            status: '422',
          });
        if (!branchExists(b.head))
          return send(res, 422, {
            message: 'Validation Failed',
            errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }],
            documentation_url: DOCS,
            status: '422',
          });
        if (!branchExists(b.base))
          return send(res, 422, {
            message: 'Validation Failed',
            errors: [{ resource: 'PullRequest', field: 'base', code: 'invalid' }],
            documentation_url: DOCS,
            status: '422',
          });
        const pull = { number: 100 + pulls.length + 1, title: b.title, head: b.head, base: b.base, body: typeof b.body === 'string' ? b.body : '' };
        pulls.push(pull);
        send(res, 201, {
          id: 9000 + pull.number,
          number: pull.number,
          state: 'open',
          title: pull.title,
          body: pull.body,
          html_url: `${serverUrl}/${o.owner}/${o.repo}/pull/${pull.number}`,
          url: `${api}${repoPath}/pulls/${pull.number}`,
          head: { ref: pull.head },
          base: { ref: pull.base },
          user: userShape(bot, api),
        });
      },
    ],
  ];

  const server = await startLoopbackServer({
    redact: ['authorization'],
    crashed: (res, error) => send(res, 500, { message: String(error) }),
    async route(r) {
      const url = new URL(r.req.url ?? '/', 'http://localhost');
      const query = Object.fromEntries(url.searchParams);
      let body: unknown;
      try {
        body = r.text ? JSON.parse(r.text) : undefined;
      } catch {
        return send(r.res, 400, { message: 'Problems parsing JSON', documentation_url: DOCS, status: '400' });
      }
      requests.push({ method: r.method, path: r.path, query, body, headers: r.headers });
      const auth = r.req.headers.authorization ?? '';
      if (!new RegExp(`^(token|bearer) ${o.token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i').test(auth)) {
        return send(r.res, 401, { message: 'Bad credentials', documentation_url: DOCS, status: '401' });
      }
      for (const [method, pattern, handle] of routes) {
        const m = pattern.exec(r.path);
        if (m && method === r.method) return handle(r.res, m, query, body);
      }
      notFound(r.res);
    },
  });
  api = `http://127.0.0.1:${server.port}`;
  return {
    url: api,
    serverUrl,
    requests,
    comments,
    pulls,
    addComment,
    editComment(id, body) {
      const c = comments.find((x) => x.id === id);
      if (!c) throw new Error(`no comment ${id}`);
      c.body = body;
      c.updated_at = tick();
    },
    issueShape: (n) =>
      issueShape(
        o.issues.find((i) => i.number === n)!,
        ref,
        api,
        serverUrl,
        comments.filter((c) => c.issue === n).length,
      ),
    close: server.close,
  };
}
