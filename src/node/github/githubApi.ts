/**
 * The GitHub REST API as this command uses it, through Octokit (pagination included) at GITHUB_API_URL.
 * Every response is checked with zod before it is used: a field GitHub did not send is an error with the
 * endpoint's name, never an `undefined` that decides something later.
 */
import { Octokit } from '@octokit/rest';
import { z } from 'zod';
import { errorText } from '../../core/primitives/errorText';

/** The login GitHub gives the Actions token's commits and comments (GET /user refuses that token). */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

const UserSchema = z.object({ login: z.string().min(1), id: z.number().int().optional() });
const RepoSchema = z.object({ default_branch: z.string().min(1), full_name: z.string().optional() });
const PermissionSchema = z.object({ permission: z.string(), role_name: z.string().optional() });
const CommentSchema = z.object({
  id: z.number().int(),
  body: z.string().nullable().optional(),
  user: UserSchema.nullable(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  html_url: z.string().optional(),
});
const PullSchema = z.object({ number: z.number().int(), html_url: z.string() });

export type IssueComment = z.infer<typeof CommentSchema>;
export type RepoPermission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

/** An API failure with the endpoint that failed and the status GitHub answered (0: no answer). */
class GitHubApiError extends Error {
  constructor(
    readonly endpoint: string,
    readonly status: number,
    message: string,
  ) {
    super(`${endpoint}: ${status ? `HTTP ${status} — ` : ''}${message}`);
  }
}

export interface GitHubApi {
  /** The token's own login: GET /user, or github-actions[bot] when GitHub refuses an Actions token there. */
  botLogin(): Promise<string>;
  defaultBranch(): Promise<string>;
  /** The user's role on the repository (`none` when not a collaborator). */
  permission(username: string): Promise<RepoPermission>;
  /** Every comment of the issue, oldest first, across all pages. */
  comments(issue: number): Promise<IssueComment[]>;
  comment(issue: number, body: string): Promise<IssueComment>;
  openPullRequest(p: { title: string; head: string; base: string; body: string }): Promise<{ number: number; url: string }>;
}

function statusOf(error: unknown): number {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : 0;
}

function parse<T>(schema: z.ZodType<T>, endpoint: string, data: unknown): T {
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw new GitHubApiError(endpoint, 200, `unexpected response: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

async function call<T>(endpoint: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GitHubApiError) throw error;
    throw new GitHubApiError(endpoint, statusOf(error), errorText(error));
  }
}

const KNOWN_ROLES: readonly RepoPermission[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none'];

export function createGitHubApi(o: { apiUrl: string; token: string; owner: string; repo: string }): GitHubApi {
  // Octokit's own log would print each failed request; every failure is thrown as a GitHubApiError and
  // reported once by the command, so its log stays quiet.
  const quiet = (): void => undefined;
  const octokit = new Octokit({ auth: o.token, baseUrl: o.apiUrl, userAgent: 'plan-execute', log: { debug: quiet, info: quiet, warn: quiet, error: quiet } });
  const repo = { owner: o.owner, repo: o.repo };
  return {
    async botLogin() {
      try {
        const { data } = await octokit.rest.users.getAuthenticated();
        return parse(UserSchema, 'GET /user', data).login;
      } catch (error) {
        // An Actions token (and an app's installation token) is refused here with 403 (404 where an
        // endpoint in front of the API does not serve it); GitHub writes its comments as
        // github-actions[bot]. Any other failure is an error: the bot must be known for sure.
        if (statusOf(error) === 403 || statusOf(error) === 404) return ACTIONS_BOT_LOGIN;
        throw new GitHubApiError('GET /user', statusOf(error), errorText(error));
      }
    },
    defaultBranch: () =>
      call('GET /repos/{owner}/{repo}', async () => parse(RepoSchema, 'GET /repos/{owner}/{repo}', (await octokit.rest.repos.get(repo)).data).default_branch),
    async permission(username) {
      const endpoint = 'GET /repos/{owner}/{repo}/collaborators/{username}/permission';
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username });
        const p = parse(PermissionSchema, endpoint, data);
        // role_name names maintain and triage (and custom roles); `permission` folds them into write and
        // read, so it decides when the role is one this code does not know.
        const role = KNOWN_ROLES.find((r) => r === p.role_name) ?? KNOWN_ROLES.find((r) => r === p.permission);
        return role ?? 'none';
      } catch (error) {
        if (statusOf(error) === 404) return 'none';
        if (error instanceof GitHubApiError) throw error;
        throw new GitHubApiError(endpoint, statusOf(error), errorText(error));
      }
    },
    comments: (issue) =>
      call('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', async () => {
        const all = await octokit.paginate(octokit.rest.issues.listComments, { ...repo, issue_number: issue, per_page: 100 });
        return parse(z.array(CommentSchema), 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', all);
      }),
    comment: (issue, body) =>
      call('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', async () =>
        parse(CommentSchema, 'POST …/comments', (await octokit.rest.issues.createComment({ ...repo, issue_number: issue, body })).data),
      ),
    openPullRequest: (p) =>
      call('POST /repos/{owner}/{repo}/pulls', async () => {
        const pull = parse(PullSchema, 'POST /repos/{owner}/{repo}/pulls', (await octokit.rest.pulls.create({ ...repo, ...p })).data);
        return { number: pull.number, url: pull.html_url };
      }),
  };
}

/** Write access or more: what it takes to start a mission or approve a plan. */
export function canWrite(permission: RepoPermission): boolean {
  return permission === 'admin' || permission === 'maintain' || permission === 'write';
}
