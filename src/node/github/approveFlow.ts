/**
 * `/approve` by someone with write access: the newest plan comment of the bot's, checked (planSelection.ts),
 * runs on a new branch of the checkout in the runner's OS sandbox; on success the branch is pushed to
 * `origin` and a pull request opened against the default branch. A mission that does not succeed pushes
 * nothing: one comment names the failing step and why, and the run exits 1.
 */
import { exitCodeFor } from '../cliReport';
import type { GitHubRun } from './githubCommand';
import type { Trigger } from './githubEvent';
import { createGitHubApprover } from './githubApprover';
import {
  branchName,
  commitMission,
  createBranch,
  headCommit,
  pushAuth,
  pushBranch,
  remoteHasBranch,
  removePersistedCredentials,
  type GitContext,
} from './githubGit';
import { failureComment, pullRequestBody, stepOutcomes, type RunFacts } from './githubReport';
import { selectPlan } from './planSelection';

const TRACE_ARTIFACT = 'plan-execute-trace';

export async function approveFlow(run: GitHubRun, t: Extract<Trigger, { kind: 'approve' }>): Promise<number> {
  const issue = t.issue.number;
  const say = (text: string): Promise<unknown> => run.api.comment(issue, `@${t.sender.login} ${text}`);
  const selected = selectPlan(await run.api.comments(issue), {
    issue,
    bot: run.bot,
    approveCommentId: t.comment.id,
    ...(t.reference ? { reference: t.reference } : {}),
  });
  if (!selected.ok) {
    await say(`Nothing ran: ${selected.error.message}`);
    run.log(`· not run (${selected.error.reason}): ${selected.error.message}`);
    return 1;
  }
  const { plan, meta } = selected.value;
  const git: GitContext = { workspace: run.env.workspace, env: run.io.env };
  for (const key of await removePersistedCredentials(git)) run.log(`· removed ${key} from .git/config: a step's commands must not read the token`);
  const defaultBranch = await run.api.defaultBranch();
  const base = await headCommit(git);
  const branch = branchName(issue, t.issue.title, meta.hash);
  const auth = await pushAuth(git, run.env.serverUrl, run.env.token);
  if (await remoteHasBranch(git, branch, auth)) {
    await say(
      `Nothing ran: the branch \`${branch}\` already exists on the repository (this plan ran before). Delete it to run the plan again, or comment \`/plan-execute\` for a new plan.`,
    );
    return 1;
  }
  await createBranch(git, branch);
  run.log(`· running plan v${meta.version} (hash ${meta.hash.slice(0, 12)}) approved by @${t.sender.login} on branch ${branch}`);
  const { report, plan: finalPlan } = await run.mission({ task: meta.task, plan, approve: 'ask', approver: createGitHubApprover(plan, t.sender.login) });
  const outcomes = stepOutcomes(run.tracePath);
  const facts: RunFacts = {
    issue,
    plan,
    version: meta.version,
    hash: meta.hash,
    approver: t.sender.login,
    ...(t.comment.html_url ? { approveUrl: t.comment.html_url } : {}),
    runUrl: run.env.runUrl,
    artifact: TRACE_ARTIFACT,
    ...(meta.baseCommit && meta.baseCommit !== base
      ? { baseNote: `Planned on ${meta.baseCommit.slice(0, 12)}, ran on ${base.slice(0, 12)} (the default branch moved in between).` }
      : {}),
  };
  if (exitCodeFor(report, finalPlan) !== 0) {
    await run.api.comment(issue, failureComment(facts, report, outcomes));
    run.log(`· mission ${report.outcome}: commented on #${issue}; nothing pushed`);
    return 1;
  }
  const commits = await commitMission(
    git,
    base,
    `${t.issue.title} (#${issue})\n\nPlan v${meta.version} (${meta.hash.slice(0, 12)}), approved by @${t.sender.login}.`,
    t.sender,
  );
  if (commits === 0) {
    await say(
      `The mission for plan v${meta.version} succeeded but changed nothing, so there is no pull request.${run.env.runUrl ? ` Run: ${run.env.runUrl}` : ''}`,
    );
    return 0;
  }
  await pushBranch(git, branch, auth);
  const pr = await run.api.openPullRequest({
    title: `${t.issue.title} (plan v${meta.version}, #${issue})`,
    head: branch,
    base: defaultBranch,
    body: pullRequestBody(facts, report, outcomes),
  });
  run.log(`· pushed ${branch} and opened pull request #${pr.number}`);
  run.io.stdout.write(`pull request #${pr.number}: ${pr.url}\n`);
  return 0;
}
