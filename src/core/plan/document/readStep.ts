/**
 * Reads one step section of a plan document (from its `## id · title` heading to the next) into a raw
 * step — the plan schema's input shape, which validatePlan then judges — and records the line of every
 * field, so a validation error names the line it concerns. The grammar is the writer's (./write.ts,
 * ./stepFields.ts): heading, blank line, field lines (`- name: value`, evidence checks as `  - …`
 * sub-items), blank line, instructions to the end of the section.
 */
import type { StepEstimate } from '../../contracts/estimate';
import type { PlanDocumentError } from './meta';
import { readCodeList, readText } from './inline';
import { FIELD_PATHS, readCheck, readIds, readStepEstimate, readYesNo, STEP_FIELDS, type StepField } from './stepFields';

/** A step heading: `## <id> · <title>` (a `-`, `—` or `:` after the id is read too; the writer writes ` · `). */
export const STEP_HEADING = /^##(?:[ \t]|$)/;
const HEADING_PARTS = /^##[ \t]+(\S+?)(?:[ \t]+[·—-][ \t]+|:[ \t]+)(.*)$/;
const FIELD_LINE = /^- ([a-z][a-z ]*?):(?: (.*))?$/;
const SUB_ITEM = /^ {2}- (.*)$/;
/** An escaped heading line in the instructions: the writer added one backslash, the reader takes it off. */
const ESCAPED = /^\\(\\*#{1,2}(?:[ \t]|$))/;

export interface StepSection {
  raw: Record<string, unknown>;
  estimate?: StepEstimate;
}

interface Sink {
  errors: PlanDocumentError[];
  /** JSON path → 1-based line. */
  lines: Map<string, number>;
}

/**
 * `lines` are the section's lines (heading first, the blank separator before the next section removed);
 * `firstLine` is the heading's 1-based line; `index` the step's place in the plan.
 */
export function readStepSection(lines: readonly string[], firstLine: number, index: number, sink: Sink): StepSection {
  const at = `steps[${index}]`;
  sink.lines.set(at, firstLine);
  sink.lines.set(`${at}.id`, firstLine);
  sink.lines.set(`${at}.title`, firstLine);
  const raw: Record<string, unknown> = {};
  const heading = HEADING_PARTS.exec(lines[0] ?? '');
  if (!heading) {
    sink.errors.push({
      line: firstLine,
      message:
        'a level-2 heading starts a step and reads "## <id> · <title>", e.g. "## s2 · Write the parser"; to keep a "## " line in the instructions, write it as "\\## …"',
    });
  } else {
    raw.id = heading[1];
    const title = readText(heading[2]!);
    if (title.ok) raw.title = title.value;
    else sink.errors.push({ line: firstLine, message: `the title: ${title.error}` });
  }
  let i = lines[1] === '' ? 2 : 1;
  const seen = new Set<string>();
  const state: FieldState = { raw, authority: {}, binding: {}, evidence: {}, checks: [] };
  let current: StepField | undefined;
  const fieldsStart = i;
  for (; i < lines.length && (FIELD_LINE.test(lines[i]!) || SUB_ITEM.test(lines[i]!)); i++) {
    const line = firstLine + i;
    const sub = SUB_ITEM.exec(lines[i]!);
    if (sub) {
      if (current !== 'evidence') sink.errors.push({ line, message: 'only evidence has sub-items (one evidence check per line)' });
      else readSubItem(sub[1]!, line, at, state, sink);
      continue;
    }
    const [, name, value = ''] = FIELD_LINE.exec(lines[i]!)!;
    if (!(STEP_FIELDS as readonly string[]).includes(name!)) {
      sink.errors.push({ line, message: `unknown field "${name}" (fields: ${STEP_FIELDS.join(', ')})` });
      current = undefined;
      continue;
    }
    current = name as StepField;
    if (seen.has(current)) sink.errors.push({ line, message: `the field "${current}" appears twice in this step` });
    seen.add(current);
    sink.lines.set(`${at}.${FIELD_PATHS[current]}`, line);
    if (current === 'evidence') sink.lines.set(`${at}.evidence`, line);
    const problem = readField(current, value, state, raw.id);
    if (problem !== undefined) sink.errors.push({ line, message: `${current}: ${problem}` });
  }
  const body = readBody(lines, i, i > fieldsStart, firstLine, at, sink);
  if (body !== undefined) {
    if (seen.has('instructions'))
      sink.errors.push({ line: firstLine + i, message: 'the instructions are given twice: in the "instructions" field and as text under the fields' });
    else raw.instructions = body;
  }
  if (Object.keys(state.authority).length > 0) raw.authority = state.authority;
  if (Object.keys(state.binding).length > 0) raw.binding = state.binding;
  if (seen.has('evidence')) raw.evidence = { ...state.evidence, checks: state.checks };
  return { raw, ...(state.estimate ? { estimate: state.estimate } : {}) };
}

interface FieldState {
  raw: Record<string, unknown>;
  authority: Record<string, unknown>;
  binding: Record<string, unknown>;
  evidence: Record<string, unknown>;
  checks: unknown[];
  estimate?: StepEstimate;
}

/** Sets one field on the raw step; returns what is wrong with its value, if anything. */
function readField(name: StepField, value: string, s: FieldState, id: unknown): string | undefined {
  const set = (into: Record<string, unknown>, key: string, r: { ok: true; value: unknown } | { ok: false; error: string }): string | undefined => {
    if (!r.ok) return r.error;
    into[key] = r.value;
    return undefined;
  };
  switch (name) {
    case 'kind':
    case 'risk':
    case 'effort':
      s.raw[name] = value;
      return undefined;
    case 'model tier':
      s.raw.modelTier = value;
      return undefined;
    case 'required':
      return set(s.raw, 'required', readYesNo(value));
    case 'after':
      return set(s.raw, 'dependsOn', readIds(value));
    case 'read':
    case 'edit':
    case 'commands':
    case 'mcp':
      return set(s.authority, name, readCodeList(value));
    case 'network':
      return set(s.authority, 'network', readYesNo(value));
    case 'why':
    case 'instructions':
      return set(s.raw, name, readText(value));
    case 'expected output':
      return set(s.raw, 'expectedOutput', readText(value));
    case 'prerequisite':
    case 'fallback':
    case 'consequence':
      return set(s.binding, name, readText(value));
    case 'evidence':
      return value === 'none' || value === '' ? undefined : set(s.evidence, 'description', readText(value));
    case 'estimate': {
      const e = readStepEstimate(typeof id === 'string' ? id : '', value);
      if (!e.ok) return e.error;
      s.estimate = e.value;
      return undefined;
    }
  }
}

function readSubItem(text: string, line: number, at: string, s: FieldState, sink: Sink): void {
  const check = readCheck(text);
  sink.lines.set(`${at}.evidence.checks[${s.checks.length}]`, line);
  if (check.ok) s.checks.push(check.value);
  else {
    sink.errors.push({ line, message: `evidence: ${check.error}` });
    s.checks.push({});
  }
}

/** The instructions under the fields (undefined when there are none), escaped heading lines restored. */
function readBody(lines: readonly string[], from: number, afterFields: boolean, firstLine: number, at: string, sink: Sink): string | undefined {
  if (from >= lines.length) return undefined;
  // The writer puts one blank line between the fields and the text (a section without fields has none).
  const start = afterFields && lines[from] === '' ? from + 1 : from;
  sink.lines.set(`${at}.instructions`, firstLine + Math.min(start, lines.length - 1));
  return lines
    .slice(start)
    .map((l) => l.replace(ESCAPED, '$1'))
    .join('\n');
}
