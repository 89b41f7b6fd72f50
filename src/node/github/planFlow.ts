/**
 * Plan, then stop: the planner runs on the checkout and its plan is posted as one comment; nothing executes
 * (the plan approval is answered "not here" by the approver below, which ends the mission before any step).
 * A `/plan-execute <more>` on an issue that already has a plan posts the next version with its diff.
 */
import type { Plan } from '../../core/contracts/plan';
import type { Approver } from '../../core/ports';
import type { GitHubRun } from './githubCommand';
import type { Trigger } from './githubEvent';
import { headCommit } from './githubGit';
import { issueTask, withoutHtmlComments } from './issueTask';
import { planDocumentHash } from './planDocument';
import { renderPlanComment } from './planComment';
import { latestBotPlan } from './planSelection';
import { literal } from './planComment';

/** Keeps the plan the planner proposed and declines to run it: on GitHub a person approves with /approve. */
function planCatcher(): Approver & { plan(): Plan | undefined } {
  let caught: Plan | undefined;
  return {
    plan: () => caught,
    request(request) {
      if (request.kind === 'plan') caught ??= request.plan;
      return Promise.resolve({ decision: 'rejected', reason: 'planned on GitHub: the plan is posted for review and runs after /approve' });
    },
  };
}

export async function planFlow(run: GitHubRun, t: Extract<Trigger, { kind: 'plan' }>): Promise<number> {
  const issue = t.issue.number;
  const previous = latestBotPlan(await run.api.comments(issue), run.bot, issue);
  const task = issueTask(t.issue, t.extra);
  const baseCommit = await headCommit({ workspace: run.env.workspace, env: run.io.env });
  const catcher = planCatcher();
  const { report } = await run.mission({ task, approver: catcher, approve: 'ask' });
  const proposed = catcher.plan();
  if (!proposed) {
    const why = report.failure ? `${report.failure.message}${report.failure.suggestion ? ` — ${report.failure.suggestion}` : ''}` : report.summary;
    await run.api.comment(
      issue,
      `**Planning did not produce a plan** (${literal(report.outcome)}): ${literal(why)}${run.env.runUrl ? `\n\nRun: ${run.env.runUrl}` : ''}`,
    );
    run.log(`· planning failed: ${why}`);
    return 1;
  }
  const version = previous ? previous.meta.version + 1 : 1;
  const reason = previous ? `replanned on GitHub at @${t.sender.login}'s request${t.extra ? `: ${withoutHtmlComments(t.extra).trim()}` : ''}` : proposed.reason;
  const plan: Plan = { ...proposed, version, parentVersion: previous ? previous.meta.version : null, reason };
  const meta = { task, version, baseCommit, hash: planDocumentHash(plan, { task, baseCommit }) };
  const posted = await run.api.comment(issue, renderPlanComment({ plan, meta, issue }, previous?.plan));
  run.log(`· posted plan v${version} (${plan.steps.length} step(s), hash ${meta.hash.slice(0, 12)}) as comment ${posted.id}; nothing ran`);
  run.io.stdout.write(`plan v${version} posted on #${issue}: ${posted.html_url ?? posted.id}\n`);
  return 0;
}
