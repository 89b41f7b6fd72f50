/**
 * The plan comment: one issue comment carrying one plan document (the same writer and parser as a saved
 * file), a table of its steps for reading, its hash and how to approve — all of it rendered from the plan,
 * so a plan is recovered from the comment alone and the comment can be checked against its plan.
 *
 * Layout, in order: the marker line `<!-- plan-execute:plan -->`; a heading; the steps table; the hash; the
 * diff from the previous version (replans); how to approve; the document in a fenced `markdown` block. The
 * document is shown fenced, never rendered: GitHub hides HTML comments, HTML tags and link definitions in
 * rendered Markdown, and text a reader cannot see must not be able to reach an executor. The fence is longer
 * than any run of backticks in the document, so nothing inside can close it.
 */
import type { Plan } from '../../core/contracts/plan';
import { diffPlans } from '../../core/plan/diff';
import { err, ok, type Result } from '../../core/contracts/result';
import { checkPlanDocumentIntact, writePlanDocument, type PlanDocumentMeta } from './planDocument';

const PLAN_MARKER = '<!-- plan-execute:plan -->';

export interface PlanCommentContent {
  plan: Plan;
  meta: PlanDocumentMeta;
  issue: number;
}

/** Text for a Markdown table cell or heading: shown literally (no HTML, no emphasis, no links, one line). */
export function literal(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]{}()#+!|~-]/g, (c) => `\\${c}`)
    .trim();
}

const list = (items: readonly string[]): string => (items.length ? items.map(literal).join(', ') : '—');

function stepsTable(plan: Plan): string[] {
  return [
    '| Step | Title | After | May edit | May run | Network | MCP |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...plan.steps.map(
      (s) =>
        `| ${literal(s.id)}${s.required ? '' : ' (optional)'} | ${literal(s.title)} | ${list(s.dependsOn)} | ${list(s.authority.edit)} | ${list(s.authority.commands)} | ${s.authority.network ? 'granted' : 'no'} | ${list(s.authority.mcp)} |`,
    ),
  ];
}

function diffLines(previous: Plan | undefined, plan: Plan): string[] {
  if (!previous) return [];
  const d = diffPlans(previous, plan);
  const parts = [
    d.added.length ? `added ${list(d.added)}` : '',
    d.removed.length ? `removed ${list(d.removed)}` : '',
    ...d.changed.map((c) => `changed ${literal(c.stepId)} (${list(c.fields)})`),
    d.planFields?.length ? `plan fields changed: ${list(d.planFields)}` : '',
  ].filter(Boolean);
  return [`**Changes from v${previous.version}:** ${parts.length ? parts.join('; ') : 'none'}.`, ''];
}

function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** The comment's whole text. `previous` is the plan of the version before (its diff is shown). */
export function renderPlanComment(c: PlanCommentContent, previous?: Plan): string {
  const document = writePlanDocument(c.plan, c.meta);
  const fence = fenceFor(document);
  return [
    PLAN_MARKER,
    `### Plan v${c.meta.version} for #${c.issue}: ${literal(c.plan.goal)}`,
    '',
    ...stepsTable(c.plan),
    '',
    `**Plan hash:** \`${c.meta.hash}\``,
    '',
    ...diffLines(previous, c.plan),
    `**Nothing has run.** To run this plan, someone with write access comments \`/approve\` (or \`/approve ${c.meta.hash.slice(0, 12)}\` to approve exactly this version). ` +
      'Each step then runs in the runner’s OS sandbox with only the authority above, and the result is a pull request. ' +
      'To plan again with more to say, comment `/plan-execute <more>`.',
    '',
    `The plan document (this is what runs; editing this comment makes it refuse to run):`,
    '',
    `${fence}markdown`,
    document.replace(/\n$/, ''),
    fence,
  ].join('\n');
}

/** Whether a comment presents itself as a plan comment (whoever wrote it). */
export function looksLikePlanComment(body: string | null | undefined): boolean {
  return (body ?? '').startsWith(`${PLAN_MARKER}\n`);
}

/** Why a plan comment cannot be run. */
export type PlanCommentProblem = { reason: 'unreadable' | 'hash_mismatch' | 'not_its_rendering'; message: string };

/** The plan a comment carries, checked: its document parses, its hash matches and the comment is exactly its rendering. */
export function readPlanComment(body: string, issue: number, previous?: Plan): Result<PlanCommentContent, PlanCommentProblem> {
  const fenced = /\n(`{3,})markdown\n([\s\S]*)\n\1$/.exec(body);
  if (!looksLikePlanComment(body) || !fenced) return err({ reason: 'unreadable', message: 'the comment does not hold a plan document' });
  const read = checkPlanDocumentIntact(`${fenced[2]!}\n`);
  if (!read.ok) {
    const problems = read.error.map((e) => `line ${e.line}: ${e.message}`).join('; ');
    const edited = read.error.some((e) => /hash|edited/.test(e.message));
    return err({
      reason: edited ? 'hash_mismatch' : 'unreadable',
      message: `its plan document ${edited ? 'was changed after it was written' : 'does not read'} (${problems})`,
    });
  }
  const { plan, meta } = read.value;
  const content = { plan, meta, issue };
  if (renderPlanComment(content, previous) !== body) {
    return err({ reason: 'not_its_rendering', message: 'the comment’s text is not the rendering of its plan: it was edited' });
  }
  return ok(content);
}
