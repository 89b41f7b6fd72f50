/**
 * The standard GitHub Actions environment `plan-execute github` runs in, read once and checked with zod.
 * Only the product's own process holds the token: scrubEnv (src/core/policy/env.ts) builds every command's
 * environment up from an allowlist, and GITHUB_TOKEN, ACTIONS_* tokens and model keys match its secret rule.
 */
import { z } from 'zod';
import { err, ok, type Result } from '../../core/contracts/result';

const RepositorySchema = z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'GITHUB_REPOSITORY must be "owner/name"');
const UrlSchema = z.string().url();

const ActionsEnvSchema = z.object({
  GITHUB_EVENT_NAME: z.string().min(1),
  GITHUB_EVENT_PATH: z.string().min(1),
  GITHUB_REPOSITORY: RepositorySchema,
  GITHUB_API_URL: UrlSchema.default('https://api.github.com'),
  GITHUB_SERVER_URL: UrlSchema.default('https://github.com'),
  GITHUB_TOKEN: z.string().min(1, 'GITHUB_TOKEN is empty: pass the workflow token (env: GITHUB_TOKEN: ${{ github.token }})'),
  GITHUB_WORKSPACE: z.string().min(1),
  GITHUB_RUN_ID: z.string().default(''),
  RUNNER_TEMP: z.string().optional(),
});

export interface ActionsEnv {
  eventName: string;
  eventPath: string;
  owner: string;
  repo: string;
  apiUrl: string;
  serverUrl: string;
  token: string;
  workspace: string;
  runId: string;
  /** The run's page, linked from comments and the pull request ('' outside Actions). */
  runUrl: string;
  runnerTemp?: string;
}

/** The Actions environment, or a message naming every missing or malformed variable. */
export function readActionsEnv(env: Record<string, string | undefined>): Result<ActionsEnv, string> {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ActionsEnvSchema.safeParse(present);
  if (!parsed.success) {
    return err(`not a GitHub Actions environment: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  const [owner, repo] = e.GITHUB_REPOSITORY.split('/') as [string, string];
  const serverUrl = e.GITHUB_SERVER_URL.replace(/\/+$/, '');
  return ok({
    eventName: e.GITHUB_EVENT_NAME,
    eventPath: e.GITHUB_EVENT_PATH,
    owner,
    repo,
    apiUrl: e.GITHUB_API_URL.replace(/\/+$/, ''),
    serverUrl,
    token: e.GITHUB_TOKEN,
    workspace: e.GITHUB_WORKSPACE,
    runId: e.GITHUB_RUN_ID,
    runUrl: e.GITHUB_RUN_ID ? `${serverUrl}/${owner}/${repo}/actions/runs/${e.GITHUB_RUN_ID}` : '',
    ...(e.RUNNER_TEMP ? { runnerTemp: e.RUNNER_TEMP } : {}),
  });
}
