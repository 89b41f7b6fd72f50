/**
 * Which plan an `/approve` runs, decided from the issue's comments (all pages, oldest first):
 *  1. only comments before the `/approve` count; a plan comment of the bot's posted after it means the
 *     approver saw an older version → superseded;
 *  2. the newest comment that presents itself as a plan comment is the candidate; one written by anyone but
 *     the token's own user (the bot) is never run → foreign;
 *  3. a comment GitHub records as edited after it was posted is never run → edited;
 *  4. its document must parse, its hash match and its text be exactly the rendering of its plan → tampered;
 *  5. `/approve v2` or `/approve <hash prefix>` must name that plan → superseded otherwise.
 * Each refusal carries the one message the issue gets.
 */
import type { Plan } from '../../core/contracts/plan';
import { err, ok, type Result } from '../../core/contracts/result';
import type { IssueComment } from './githubApi';
import { looksLikePlanComment, readPlanComment, type PlanCommentContent } from './planComment';

export type PlanRefusal = { reason: 'missing' | 'foreign' | 'edited' | 'tampered' | 'superseded'; message: string };

export interface ApproveContext {
  issue: number;
  bot: string;
  /** The `/approve` comment's id (GitHub's ids grow with time). */
  approveCommentId: number;
  /** What followed `/approve`, if anything. */
  reference?: string;
}

/**
 * Every plan comment of the bot's, read in order: each is checked against the plan before it that read well
 * (a replan's comment shows its diff from that one, as it was posted).
 */
function readBotPlans(comments: readonly IssueComment[], bot: string, issue: number): Map<number, ReturnType<typeof readPlanComment>> {
  const read = new Map<number, ReturnType<typeof readPlanComment>>();
  let previous: Plan | undefined;
  for (const c of comments) {
    if (c.user?.login !== bot || !looksLikePlanComment(c.body)) continue;
    const r = readPlanComment(c.body ?? '', issue, previous);
    read.set(c.id, r);
    if (r.ok) previous = r.value.plan;
  }
  return read;
}

/** The newest well-formed plan comment of the bot's (a replan's previous version: its diff and version). */
export function latestBotPlan(comments: readonly IssueComment[], bot: string, issue: number): PlanCommentContent | undefined {
  const plans = [...readBotPlans(comments, bot, issue).values()].filter((r) => r.ok);
  return plans.at(-1)?.value;
}

/** Edited after posting, as GitHub records it (a comment is created with updated_at = created_at). */
function edited(c: IssueComment): boolean {
  if (!c.created_at || !c.updated_at) return false;
  return Date.parse(c.updated_at) - Date.parse(c.created_at) >= 1000;
}

export function selectPlan(comments: readonly IssueComment[], ctx: ApproveContext): Result<PlanCommentContent & { commentId: number }, PlanRefusal> {
  const before = comments.filter((c) => c.id < ctx.approveCommentId);
  const later = comments.find((c) => c.id > ctx.approveCommentId && c.user?.login === ctx.bot && looksLikePlanComment(c.body));
  const candidates = before.filter((c) => looksLikePlanComment(c.body));
  const candidate = candidates.at(-1);
  if (!candidate) {
    return err({
      reason: 'missing',
      message: `there is no plan to approve on this issue yet: add the \`plan-execute\` label or comment \`/plan-execute\` to get one.`,
    });
  }
  const link = candidate.html_url ? ` (${candidate.html_url})` : '';
  if (candidate.user?.login !== ctx.bot) {
    return err({
      reason: 'foreign',
      message: `the newest plan comment${link} was written by @${candidate.user?.login ?? 'a deleted user'}, not by ${ctx.bot}: only plans the bot posted can run. Hide or delete that comment, or comment \`/plan-execute\` for a new plan.`,
    });
  }
  if (edited(candidate)) {
    return err({
      reason: 'edited',
      message: `the newest plan comment${link} was edited after it was posted (at ${candidate.updated_at}), so it is not the plan that was proposed. Comment \`/plan-execute\` for a new plan.`,
    });
  }
  const read = readBotPlans(before, ctx.bot, ctx.issue).get(candidate.id)!;
  if (!read.ok)
    return err({ reason: 'tampered', message: `the newest plan comment${link} cannot run: ${read.error.message}. Comment \`/plan-execute\` for a new plan.` });
  const plan = read.value;
  if (later) {
    return err({
      reason: 'superseded',
      message: `a newer plan was posted after this \`/approve\`${later.html_url ? ` (${later.html_url})` : ''}: review it, then comment \`/approve\` again.`,
    });
  }
  const ref = ctx.reference;
  if (ref !== undefined) {
    const version = /^v(\d+)$/i.exec(ref);
    const matches = version ? Number(version[1]) === plan.meta.version : ref.length >= 7 && plan.meta.hash.startsWith(ref.toLowerCase());
    if (!matches) {
      return err({
        reason: 'superseded',
        message: `\`/approve ${ref}\` does not name the newest plan (v${plan.meta.version}, hash ${plan.meta.hash.slice(0, 12)}): it was superseded. Review the newest plan and approve it.`,
      });
    }
  }
  return ok({ ...plan, commentId: candidate.id });
}
