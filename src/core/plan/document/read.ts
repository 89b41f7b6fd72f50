/**
 * `readPlanDocument`: the one parser of plan documents. It reads the document back into the typed plan
 * and its meta, then runs the engine's own plan validation, so a document is accepted exactly when the
 * plan it holds would be. Every problem comes back at once, each with the 1-based line it concerns: a
 * malformed line (unknown field, bad value, a heading without an id) where it is, and a validation error
 * (duplicated step id, a dependency on a missing step, a cycle, a glob that leaves the workspace) at the
 * line of the field its JSON path names. Nothing in a document that does not read is ever run.
 *
 * Line endings: CRLF is read as LF, and a leading byte-order mark is ignored (text that needs a carriage
 * return is written quoted, see ./inline.ts), so a document that travelled through Windows or a web form
 * reads the same.
 */
import type { Plan } from '../../contracts/plan';
import { totalEstimate, type StepEstimate } from '../../contracts/estimate';
import { err, ok, type Result } from '../../contracts/result';
import { validatePlan, type ValidatePlanOptions } from '../validate';
import type { PlanDocumentError, PlanDocumentMeta } from './meta';
import { readFrontMatter } from './frontMatter';
import { readText } from './inline';
import { readStepSection, STEP_HEADING } from './readStep';
import { ESTIMATE_LINE_PREFIX } from './write';

export interface PlanDocument {
  plan: Plan;
  meta: PlanDocumentMeta;
}

interface Sink {
  errors: PlanDocumentError[];
  lines: Map<string, number>;
}

/** The plan and meta a document holds, or every problem with it, each at its line. */
export function readPlanDocument(text: string, options: ValidatePlanOptions = {}): Result<PlanDocument, PlanDocumentError[]> {
  const lines = text
    .replace(/^\ufeff/, '')
    .replace(/\r\n/g, '\n')
    .split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines[0] !== '---')
    return err([{ line: 1, message: 'a plan document starts with its front matter: a "---" line, "format: …", "task: …", and "---" again' }]);
  const close = lines.indexOf('---', 1);
  if (close === -1) return err([{ line: 1, message: 'the front matter is not closed: add a "---" line after it' }]);
  const front = readFrontMatter(lines.slice(1, close).join('\n'), 2);
  const sink: Sink = { errors: front.ok ? [] : [...front.error], lines: new Map(front.ok ? front.value.lines : []) };

  const firstStep = lines.findIndex((l, i) => i > close && STEP_HEADING.test(l));
  const stepsFrom = firstStep === -1 ? lines.length : firstStep;
  const { raw, hasEstimate } = readPreamble(lines, close + 1, stepsFrom, sink);
  if (firstStep !== -1) sink.lines.set('steps', firstStep + 1);

  const estimates: StepEstimate[] = [];
  const steps: unknown[] = [];
  for (let start = stepsFrom; start < lines.length;) {
    let end = lines.findIndex((l, i) => i > start && STEP_HEADING.test(l));
    const last = end === -1;
    if (last) end = lines.length;
    // The blank line before the next heading separates sections; it is not part of the instructions.
    const sectionEnd = !last && lines[end - 1] === '' ? end - 1 : end;
    const section = readStepSection(lines.slice(start, sectionEnd), start + 1, steps.length, sink);
    steps.push(section.raw);
    if (section.estimate) estimates.push(section.estimate);
    start = end;
  }
  if (!front.ok || sink.errors.length > 0) return err(sorted(sink.errors));

  const fm = front.value.value;
  const planFields = (['version', 'parentVersion', 'reason', 'direct', 'invalidated', 'constraintChecks'] as const).filter((k) => fm[k] !== undefined);
  const input = { ...raw, steps, ...Object.fromEntries(planFields.map((k) => [k, fm[k]])) };
  const checked = validatePlan(input, options);
  if (!checked.ok) {
    const fallback = close + 2;
    return err(sorted(checked.errors.map((e) => ({ line: lineFor(e.path, sink.lines) ?? fallback, message: e.message, path: e.path }))));
  }
  const plan = checked.plan;
  const estimate = hasEstimate || estimates.length > 0 ? totalEstimate(estimates) : undefined;
  return ok({
    plan,
    meta: {
      task: fm.task,
      version: plan.version,
      hash: fm.hash ?? '',
      ...(fm.baseCommit !== undefined ? { baseCommit: fm.baseCommit } : {}),
      ...(estimate ? { estimate } : {}),
    },
  });
}

/**
 * The part between the front matter and the first step: the goal (`# …`), `### Assumptions` and
 * `### Constraints` with their list items, and the estimate line (derived from the steps: recognised, not
 * read). Anything else is an error — text here would be dropped on the next write.
 */
function readPreamble(lines: readonly string[], from: number, to: number, sink: Sink): { raw: Record<string, unknown>; hasEstimate: boolean } {
  const raw: Record<string, unknown> = {};
  let hasEstimate = false;
  let list: 'assumptions' | 'constraints' | undefined;
  for (let i = from; i < to; i++) {
    const line = lines[i]!;
    const lineNo = i + 1;
    if (line === '') continue;
    const goal = /^# (.*)$/.exec(line);
    const item = /^- (.*)$/.exec(line);
    const heading = /^### (Assumptions|Constraints)$/.exec(line);
    if (goal) {
      if (raw.goal !== undefined) sink.errors.push({ line: lineNo, message: 'the goal is given twice (one "# …" line before the steps)' });
      const text = readText(goal[1]!);
      if (text.ok) raw.goal = text.value;
      else sink.errors.push({ line: lineNo, message: `the goal: ${text.error}` });
      sink.lines.set('goal', lineNo);
    } else if (heading) {
      list = heading[1] === 'Assumptions' ? 'assumptions' : 'constraints';
      if (raw[list] !== undefined) sink.errors.push({ line: lineNo, message: `"${line}" appears twice` });
      raw[list] = [];
      sink.lines.set(list, lineNo);
    } else if (item && list) {
      const items = raw[list] as string[];
      const text = readText(item[1]!);
      sink.lines.set(`${list}[${items.length}]`, lineNo);
      if (text.ok) items.push(text.value);
      else sink.errors.push({ line: lineNo, message: `${list}: ${text.error}` });
    } else if (line.startsWith(ESTIMATE_LINE_PREFIX)) {
      hasEstimate = true;
    } else {
      sink.errors.push({
        line: lineNo,
        message: `unexpected text before the first step: ${JSON.stringify(line.slice(0, 80))} (this part holds the goal as "# …", "### Assumptions" and "### Constraints" lists, and the estimate; steps start at "## <id> · <title>")`,
      });
    }
  }
  return { raw, hasEstimate };
}

/** The line of the most specific part of `path` the document has a line for. */
function lineFor(path: string, lines: ReadonlyMap<string, number>): number | undefined {
  for (let p = path; ;) {
    const line = lines.get(p);
    if (line !== undefined) return line;
    const parent = p.replace(/(?:\.[^.[\]]*|\[\d+\])$/, '');
    if (parent === p) return undefined;
    p = parent;
  }
}

function sorted(errors: PlanDocumentError[]): PlanDocumentError[] {
  return errors
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.line - b.e.line || a.i - b.i)
    .map(({ e }) => e);
}
