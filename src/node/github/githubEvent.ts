/**
 * What triggered this run, from the webhook payload at GITHUB_EVENT_PATH (zod-checked: it is input from
 * GitHub, and its text from whoever wrote the issue or comment):
 *  - `issues` `labeled` with the `plan-execute` label, or an `issue_comment` `created` whose body starts with
 *    `/plan-execute` (the text after it joins the task) → plan;
 *  - an `issue_comment` `created` whose body starts with `/approve` → run the newest plan comment;
 *  - anything else (another label, an edited comment, a pull request's conversation, other text) → ignored.
 * Who may do it is decided later (permissions.ts), against the API, never from the payload's claims.
 */
import { z } from 'zod';
import { err, ok, type Result } from '../../core/contracts/result';

const TRIGGER_LABEL = 'plan-execute';

const UserSchema = z.object({ login: z.string().min(1), id: z.number().int(), type: z.string().optional() });

const IssueSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string().nullable().optional(),
  html_url: z.string().optional(),
  user: UserSchema.optional(),
  /** Present when the "issue" is a pull request's conversation. */
  pull_request: z.unknown().optional(),
});

const CommentSchema = z.object({
  id: z.number().int(),
  body: z.string().nullable().optional(),
  user: UserSchema,
  created_at: z.string().optional(),
  html_url: z.string().optional(),
});

const IssuesEventSchema = z.object({
  action: z.string(),
  issue: IssueSchema,
  label: z.object({ name: z.string() }).optional(),
  sender: UserSchema,
});

const IssueCommentEventSchema = z.object({
  action: z.string(),
  issue: IssueSchema,
  comment: CommentSchema,
  sender: UserSchema,
});

type GitHubUser = z.infer<typeof UserSchema>;
type EventIssue = z.infer<typeof IssueSchema>;
type EventComment = z.infer<typeof CommentSchema>;

export type Trigger =
  /** Plan (or plan again): `extra` is the text after `/plan-execute` ('' for the label). */
  | { kind: 'plan'; issue: EventIssue; sender: GitHubUser; extra: string; comment?: EventComment }
  /** Run the newest plan comment; `reference` is what followed `/approve` (a version `v2` or a hash prefix), if anything. */
  | { kind: 'approve'; issue: EventIssue; sender: GitHubUser; comment: EventComment; reference?: string }
  | { kind: 'ignore'; reason: string };

const COMMAND = /^\s*\/(plan-execute|approve)(?=\s|$)([\s\S]*)$/;

/** The trigger in a webhook payload, or a message when the payload is not one GitHub sends. */
export function parseTrigger(eventName: string, payload: unknown): Result<Trigger, string> {
  if (eventName === 'issues') {
    const event = IssuesEventSchema.safeParse(payload);
    if (!event.success) return err(`the issues event payload is not as GitHub sends it: ${issues(event.error)}`);
    const e = event.data;
    if (e.action !== 'labeled') return ok({ kind: 'ignore', reason: `issues event "${e.action}" (only "labeled" plans)` });
    if (e.label?.name !== TRIGGER_LABEL) return ok({ kind: 'ignore', reason: `label "${e.label?.name ?? ''}" is not "${TRIGGER_LABEL}"` });
    if (e.issue.pull_request !== undefined) return ok({ kind: 'ignore', reason: 'a pull request, not an issue' });
    return ok({ kind: 'plan', issue: e.issue, sender: e.sender, extra: '' });
  }
  if (eventName === 'issue_comment') {
    const event = IssueCommentEventSchema.safeParse(payload);
    if (!event.success) return err(`the issue_comment event payload is not as GitHub sends it: ${issues(event.error)}`);
    const e = event.data;
    if (e.action !== 'created') return ok({ kind: 'ignore', reason: `issue_comment event "${e.action}" (only new comments count)` });
    if (e.issue.pull_request !== undefined) return ok({ kind: 'ignore', reason: 'a comment on a pull request, not on an issue' });
    const command = COMMAND.exec(e.comment.body ?? '');
    if (!command) return ok({ kind: 'ignore', reason: 'the comment starts with neither /plan-execute nor /approve' });
    const rest = command[2]!.trim();
    if (command[1] === 'plan-execute') return ok({ kind: 'plan', issue: e.issue, sender: e.sender, extra: rest, comment: e.comment });
    const reference = rest.split(/\s+/)[0];
    return ok({ kind: 'approve', issue: e.issue, sender: e.sender, comment: e.comment, ...(reference ? { reference } : {}) });
  }
  return ok({ kind: 'ignore', reason: `event "${eventName}" (only issues and issue_comment)` });
}

function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ');
}
