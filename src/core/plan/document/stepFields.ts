/**
 * A step's fields in a plan document: a short list with fixed names, in a fixed order, under the step's
 * heading. Always written: kind, required, after, read, edit, commands, network, risk, effort, model tier,
 * evidence (so a reviewer sees the whole authority, `none` included); written only when set: mcp, why,
 * expected output, prerequisite, fallback, consequence, estimate, and `instructions` (only when the
 * instructions hold a character that cannot stand in the text under the list, see ./inline.ts).
 *
 * Reading sets only the fields the list names, so a field left out takes the plan schema's default (as a
 * planner's omitted field would), and passes enum values through raw, so validatePlan's own message names
 * what is allowed. Evidence checks are sub-items of `evidence`, one per line, worded as a person says them.
 */
import type { EvidenceCheck, Step } from '../../contracts/plan';
import type { StepEstimate } from '../../contracts/estimate';
import { err, ok, type Result } from '../../contracts/result';
import { describeCost } from '../describe';
import { quote, readCodeList, readText, Scanner, writeCode, writeCodeList, writeText } from './inline';

/** The field names, in the order the writer writes them. */
export const STEP_FIELDS = [
  'kind',
  'required',
  'after',
  'read',
  'edit',
  'commands',
  'network',
  'mcp',
  'risk',
  'effort',
  'model tier',
  'why',
  'expected output',
  'prerequisite',
  'fallback',
  'consequence',
  'evidence',
  'estimate',
  'instructions',
] as const;

export type StepField = (typeof STEP_FIELDS)[number];

/** Where each field lands in a step (the JSON path validatePlan reports), so an error finds its line. */
export const FIELD_PATHS: Record<StepField, string> = {
  kind: 'kind',
  required: 'required',
  after: 'dependsOn',
  read: 'authority.read',
  edit: 'authority.edit',
  commands: 'authority.commands',
  network: 'authority.network',
  mcp: 'authority.mcp',
  risk: 'risk',
  effort: 'effort',
  'model tier': 'modelTier',
  why: 'why',
  'expected output': 'expectedOutput',
  prerequisite: 'binding.prerequisite',
  fallback: 'binding.fallback',
  consequence: 'binding.consequence',
  evidence: 'evidence.checks',
  estimate: 'estimate',
  instructions: 'instructions',
};

const yesNo = (value: boolean): string => (value ? 'yes' : 'no');

/** A step's field lines (evidence checks as indented sub-items). */
export function writeStepFields(step: Step, estimate: StepEstimate | undefined, inlineInstructions: boolean): string[] {
  const a = step.authority;
  const text = (name: StepField, value: string): string[] => (value === '' ? [] : [`- ${name}: ${writeText(value)}`]);
  const { checks, description } = step.evidence;
  const evidenceHead = description !== '' ? writeText(description, ['none']) : checks.length === 0 ? 'none' : '';
  return [
    `- kind: ${step.kind}`,
    `- required: ${yesNo(step.required)}`,
    `- after: ${step.dependsOn.length === 0 ? 'none' : step.dependsOn.join(', ')}`,
    `- read: ${writeCodeList(a.read)}`,
    `- edit: ${writeCodeList(a.edit)}`,
    `- commands: ${writeCodeList(a.commands)}`,
    `- network: ${yesNo(a.network)}`,
    ...(a.mcp.length > 0 ? [`- mcp: ${writeCodeList(a.mcp)}`] : []),
    `- risk: ${step.risk}`,
    `- effort: ${step.effort}`,
    `- model tier: ${step.modelTier}`,
    ...text('why', step.why),
    ...text('expected output', step.expectedOutput),
    ...text('prerequisite', step.binding.prerequisite),
    ...text('fallback', step.binding.fallback),
    ...text('consequence', step.binding.consequence),
    evidenceHead === '' ? '- evidence:' : `- evidence: ${evidenceHead}`,
    ...checks.map((c) => `  - ${writeCheck(c)}`),
    ...(estimate ? [`- estimate: ${writeStepEstimate(estimate)}`] : []),
    ...(inlineInstructions ? [`- instructions: ${writeText(step.instructions)}`] : []),
  ];
}

/** One evidence check as a sub-item. */
function writeCheck(check: EvidenceCheck): string {
  switch (check.kind) {
    case 'command':
      return `command ${writeCode(check.command)} exits ${check.expectExitCode}${check.expectOutputIncludes !== undefined ? ` and prints ${quote(check.expectOutputIncludes)}` : ''}`;
    case 'files_exist':
      return `files exist: ${writeCodeList(check.paths)}`;
    case 'file_contains':
      return `file ${writeCode(check.path)} contains ${quote(check.text)}`;
    case 'review':
      return `review: ${writeText(check.criterion)}`;
  }
}

/** Reads one evidence sub-item; a shape validatePlan then judges (an empty path list, say). */
export function readCheck(raw: string): Result<Record<string, unknown>, string> {
  const s = new Scanner(raw);
  const finish = (value: Record<string, unknown>): Result<Record<string, unknown>, string> =>
    s.atEnd() ? ok(value) : err(`unexpected text at the end of the check: ${JSON.stringify(s.rest())}`);
  if (s.take('command ')) {
    const command = s.codeOrString();
    if (!command.ok) return command;
    if (!s.take(' exits ')) return err('a command check reads: command `npm test` exits 0 (and prints "text")');
    const code = s.integer();
    if (!code.ok) return code;
    if (!s.take(' and prints ')) return finish({ kind: 'command', command: command.value, expectExitCode: code.value });
    const prints = s.jsonString();
    if (!prints.ok) return prints;
    return finish({ kind: 'command', command: command.value, expectExitCode: code.value, expectOutputIncludes: prints.value });
  }
  if (s.take('files exist: ')) {
    const paths = readCodeList(s.rest());
    return paths.ok ? ok({ kind: 'files_exist', paths: paths.value }) : paths;
  }
  if (s.take('file ')) {
    const path = s.codeOrString();
    if (!path.ok) return path;
    if (!s.take(' contains ')) return err('a file check reads: file `src/a.ts` contains "text"');
    const text = s.jsonString();
    if (!text.ok) return text;
    return finish({ kind: 'file_contains', path: path.value, text: text.value });
  }
  if (s.take('review: ')) {
    const criterion = readText(s.rest());
    return criterion.ok ? ok({ kind: 'review', criterion: criterion.value }) : criterion;
  }
  return err('an evidence check is one of: command `npm test` exits 0 — files exist: `a`, `b` — file `a` contains "text" — review: what a reviewer confirms');
}

/** A step's estimate as its field value: `12,400 tokens, $0.0496 on \`model\``. */
function writeStepEstimate(e: StepEstimate): string {
  return `${describeCost(e)}${e.models.length > 0 ? ` on ${writeCodeList(e.models)}` : ''}`;
}

/** Reads an `estimate` field value back. */
export function readStepEstimate(stepId: string, raw: string): Result<StepEstimate, string> {
  const m = /^([\d,]+) tokens, (no cost \(local\)|unknown price|\$(\d+(?:\.\d+)?))(?: on (.*))?$/.exec(raw);
  if (!m) return err('an estimate reads: 12,400 tokens, $0.0496 on `model` (it is written by the planner; edit the plan, not the estimate)');
  const models = m[4] === undefined ? ok<string[]>([]) : readCodeList(m[4]);
  if (!models.ok) return models;
  const pricing = m[2] === 'no cost (local)' ? 'local' : m[2] === 'unknown price' ? 'unknown' : 'priced';
  const costUsd = pricing === 'local' ? 0 : pricing === 'unknown' ? null : Number(m[3]);
  return ok({ stepId, tokens: Number(m[1]!.replace(/,/g, '')), costUsd, pricing, models: models.value });
}

/** Reads a yes/no field. */
export function readYesNo(raw: string): Result<boolean, string> {
  if (/^(yes|true)$/i.test(raw)) return ok(true);
  if (/^(no|false)$/i.test(raw)) return ok(false);
  return err(`expected yes or no, found ${JSON.stringify(raw)}`);
}

/** Reads an `after` value: step ids separated by commas, or `none`. */
export function readIds(raw: string): Result<string[], string> {
  if (raw === 'none' || raw === '') return ok([]);
  const ids = raw.split(',').map((id) => id.trim());
  if (ids.some((id) => id === '')) return err(`expected step ids separated by ", " (or none), found ${JSON.stringify(raw)}`);
  return ok(ids);
}
