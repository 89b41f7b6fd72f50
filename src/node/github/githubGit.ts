/**
 * Git on the runner, run by the product's own process (never inside a step's sandbox): the mission's branch,
 * its commit and its push to `origin`. Never the default branch, never a force push: the refspec has no `+`
 * and the branch must not exist on `origin` yet. The token reaches git only through this process's
 * environment for the push itself (GIT_CONFIG_* — not argv, not .git/config), and a token the checkout
 * left in .git/config is removed before any step runs, since commands can read .git/config.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { ACTIONS_BOT_LOGIN } from './githubApi';

const run = promisify(execFile);

/** The identity GitHub shows as github-actions[bot] (its user id is 41898282). */
const ACTIONS_BOT_EMAIL = '41898282+github-actions[bot]@users.noreply.github.com';

export interface GitContext {
  workspace: string;
  /** The environment git runs with (the runner's, for the workflow's git identity). */
  env: Record<string, string | undefined>;
}

async function git(ctx: GitContext, args: readonly string[], extraEnv: Record<string, string> = {}): Promise<string> {
  const env = { ...ctx.env, GIT_TERMINAL_PROMPT: '0', ...extraEnv };
  const { stdout } = await run('git', args, { cwd: ctx.workspace, env, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

async function gitMaybe(ctx: GitContext, args: readonly string[]): Promise<string | undefined> {
  try {
    return await git(ctx, args);
  } catch (error) {
    // `git config --get…` exits 1 when the key is not set: that is the answer "not set".
    if ((error as { code?: unknown }).code === 1) return undefined;
    throw error;
  }
}

export const headCommit = (ctx: GitContext): Promise<string> => git(ctx, ['rev-parse', 'HEAD']);

/**
 * Removes credentials actions/checkout persisted for later git steps (an `http.*.extraheader`, or an include
 * of a file holding one): a step's command could read them from .git/config. Returns what was removed.
 */
export async function removePersistedCredentials(ctx: GitContext): Promise<string[]> {
  const removed: string[] = [];
  const entries = (await gitMaybe(ctx, ['config', '--local', '--get-regexp', '^(http\\..*extraheader|include\\.path|includeif\\..*\\.path)$'])) ?? '';
  for (const line of entries.split('\n').filter(Boolean)) {
    const [key, ...rest] = line.split(' ');
    const value = rest.join(' ');
    const isHeader = /extraheader$/i.test(key!);
    const file = isAbsolute(value) ? value : join(ctx.workspace, '.git', value);
    const includesHeader = !isHeader && existsSync(file) && /extraheader/i.test(readFileSync(file, 'utf8'));
    if (!isHeader && !includesHeader) continue;
    await git(ctx, ['config', '--local', '--unset-all', key!]);
    removed.push(key!);
  }
  return removed;
}

/** A branch from the checked-out commit; the mission's commits land there, never on the default branch. */
export async function createBranch(ctx: GitContext, branch: string): Promise<void> {
  await git(ctx, ['checkout', '-b', branch]);
}

export async function remoteHasBranch(ctx: GitContext, branch: string, auth: Record<string, string>): Promise<boolean> {
  const out = await git(ctx, ['ls-remote', '--heads', 'origin', `refs/heads/${branch}`], auth);
  return out.length > 0;
}

/**
 * Commits what the mission left in the work tree (the store `.plan-execute/` ignores itself). Authored by
 * github-actions[bot] with the approver as co-author, unless the workflow configured a git identity.
 * Returns the number of commits the branch has over `base`.
 */
export async function commitMission(ctx: GitContext, base: string, message: string, approver: { login: string; id: number }): Promise<number> {
  await git(ctx, ['add', '-A']);
  const staged = await git(ctx, ['diff', '--cached', '--name-only']);
  if (staged) {
    const configured = (await gitMaybe(ctx, ['config', 'user.email'])) !== undefined && (await gitMaybe(ctx, ['config', 'user.name'])) !== undefined;
    const identity: Record<string, string> = configured
      ? {}
      : {
          GIT_AUTHOR_NAME: ACTIONS_BOT_LOGIN,
          GIT_AUTHOR_EMAIL: ACTIONS_BOT_EMAIL,
          GIT_COMMITTER_NAME: ACTIONS_BOT_LOGIN,
          GIT_COMMITTER_EMAIL: ACTIONS_BOT_EMAIL,
        };
    const trailer = `Co-authored-by: ${approver.login} <${approver.id}+${approver.login}@users.noreply.github.com>`;
    await git(ctx, ['commit', '--no-verify', '-m', `${message}\n\n${trailer}`], identity);
  }
  return Number(await git(ctx, ['rev-list', '--count', `${base}..HEAD`]));
}

/** Pushes the branch to origin as a new branch: no `+`, no --force; git refuses if it exists. */
export async function pushBranch(ctx: GitContext, branch: string, auth: Record<string, string>): Promise<void> {
  await git(ctx, ['push', '--porcelain', 'origin', `refs/heads/${branch}:refs/heads/${branch}`], auth);
}

/**
 * The token for pushing over HTTPS to GitHub, as git configuration in the environment of the push alone.
 * Nothing for another origin (a local path in tests, an SSH remote with its own key).
 */
export async function pushAuth(ctx: GitContext, serverUrl: string, token: string): Promise<Record<string, string>> {
  const origin = (await gitMaybe(ctx, ['remote', 'get-url', 'origin'])) ?? '';
  let sameHost = false;
  try {
    sameHost = /^https?:$/.test(new URL(origin).protocol) && new URL(origin).host === new URL(serverUrl).host;
  } catch {
    // Not a URL (a path, scp-like SSH syntax): not GitHub's HTTPS, so no token header.
    sameHost = false;
  }
  if (!sameHost) return {};
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `http.${new URL(serverUrl).origin}/.extraheader`, GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}` };
}

/** `plan-execute/issue-<n>-<short>`: the issue number, a slug of its title and the plan hash's first characters. */
export function branchName(issue: number, title: string, hash: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/g, '');
  return `plan-execute/issue-${issue}-${slug ? `${slug}-` : ''}${hash.slice(0, 7)}`;
}
