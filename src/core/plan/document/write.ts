/**
 * `writePlanDocument`: the one writer of plan documents (the CLI's `plan`, VS Code's Save Plan and Open
 * Plan as Document, GitHub's plan comment). The format is specified in docs/plans.md:
 *
 *   ---                                  front matter (./frontMatter.ts)
 *   # <goal>
 *   ### Assumptions / ### Constraints    lists, when the plan has any
 *   **Estimate before it runs:** …       when the document carries an estimate
 *   ## <id> · <title>                    one section per step, in plan order:
 *   - kind: edit …                         its fields (./stepFields.ts)
 *   <instructions>                         the text under them, as written
 *
 * Instructions are written as they are, except that a line which would read as a level-1 or level-2
 * heading (`# …`, `## …`, after any backslashes) gets one more backslash in front — Markdown shows it as
 * the same text, and the reader takes the backslash off again. Instructions holding a character that
 * cannot stand in a file as it is (a carriage return, a control or bidirectional character) are written
 * quoted in the `instructions` field instead. The reader (./read.ts) inverts all of it exactly.
 */
import type { Plan } from '../../contracts/plan';
import { totalEstimate, type PlanEstimate } from '../../contracts/estimate';
import { hasUnsafeChars, writeText } from './inline';
import { planDocumentHash, type PlanDocumentMetaInput } from './meta';
import { writeFrontMatter } from './frontMatter';
import { writeStepFields } from './stepFields';
import { describeCost } from '../describe';

/** A line the reader would take for structure (a level-1 or level-2 heading), backslashes before it allowed. */
const NEEDS_ESCAPE = /^\\*#{1,2}(?:[ \t]|$)/;

/** The document for `plan`: the same plan and meta always give the same bytes. */
export function writePlanDocument(plan: Plan, meta: PlanDocumentMetaInput): string {
  const hash = planDocumentHash(plan, meta);
  const estimates = new Map((meta.estimate?.steps ?? []).map((s) => [s.stepId, s]));
  const shown = plan.steps.flatMap((s) => estimates.get(s.id) ?? []);
  const preamble = [
    `# ${writeText(plan.goal)}`,
    ...listSection('Assumptions', plan.assumptions),
    ...listSection('Constraints', plan.constraints),
    ...(meta.estimate ? ['', estimateLine(totalEstimate(shown))] : []),
  ];
  const sections = plan.steps.map((step) => {
    const inline = hasUnsafeChars(step.instructions, true);
    const body = step.instructions === '' || inline ? [] : ['', ...step.instructions.split('\n').map((l) => (NEEDS_ESCAPE.test(l) ? `\\${l}` : l))];
    return [`## ${step.id} · ${writeText(step.title)}`, '', ...writeStepFields(step, estimates.get(step.id), inline), ...body].join('\n');
  });
  const frontMatter = writeFrontMatter(plan, { task: meta.task, hash, ...(meta.baseCommit !== undefined ? { baseCommit: meta.baseCommit } : {}) });
  return [`---\n${frontMatter}---\n\n${preamble.join('\n')}`, ...sections].join('\n\n') + '\n';
}

function listSection(title: string, items: readonly string[]): string[] {
  return items.length === 0 ? [] : ['', `### ${title}`, '', ...items.map((item) => `- ${writeText(item)}`)];
}

/** The plan's total, for the reader; derived from the steps' estimates, so the reader does not read it back. */
export const ESTIMATE_LINE_PREFIX = '**Estimate before it runs:**';

function estimateLine(total: PlanEstimate): string {
  return `${ESTIMATE_LINE_PREFIX} ${describeCost(total)} for ${total.steps.length} step(s) (executor and verifier calls; retries and replans not included)`;
}
