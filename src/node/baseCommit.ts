/**
 * The workspace's base commit: what a plan document records (`baseCommit`) and what `run --plan` compares it
 * with. git runs on the host as our other git calls do (no hooks, no fsmonitor, system PATH only).
 */
import { spawnSync } from 'node:child_process';
import { SAFE_GIT_OPTIONS, safeGitEnv } from './gitRecord';
import { hostTool } from './sandbox/hostTools';

/** The commit HEAD names, or undefined outside a git work tree (or without git, or before a first commit). */
export function workspaceCommit(root: string): string | undefined {
  const git = hostTool('git');
  if (git === undefined) return undefined;
  const r = spawnSync(git, [...SAFE_GIT_OPTIONS, 'rev-parse', '-q', '--verify', 'HEAD^{commit}'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 10_000,
    env: safeGitEnv(process.env.HOME ?? '/'),
  });
  const commit = r.status === 0 ? r.stdout.trim() : '';
  return /^[0-9a-f]{40,64}$/.test(commit) ? commit : undefined;
}
