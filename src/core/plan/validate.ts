/**
 * `validatePlan`: the gate every plan passes before a person sees it or anything runs — planner output,
 * user edits and replans alike. It reports every problem at once, each with a JSON path
 * ("steps[2].dependsOn[0]") and a message a person can act on. It never repairs or truncates a plan.
 *
 * Order: shape (zod) first; then cross-field rules on every step whose own shape is valid, so one
 * malformed step does not hide a cycle among the others.
 */
import type { z } from 'zod';
import { PlanSchema, StepSchema, type Plan, type Step } from '../contracts/plan';
import { workspacePathProblem } from './paths';
import { commandAllowedBy } from './commandPattern';
import { findCycles } from './graph';
import { checkConstraintChecks, checkGrants } from './validateExtras';
import type { McpToolRef } from '../mcp/grants';

export interface PlanError {
  /** JSON path into the plan, e.g. "steps[2].dependsOn[0]" ("" for the whole plan). */
  path: string;
  message: string;
  /** Set on the errors a front end acts on: the plan-size cap (the user can raise it). Additive. */
  code?: 'too_many_steps';
}

export type PlanValidation = { ok: true; plan: Plan } | { ok: false; errors: PlanError[] };

export interface ValidatePlanOptions {
  /** The "planning paralysis" guard: more steps than this is an error, never a truncation. Default 40. */
  maxSteps?: number;
  /** How the front end names the size cap (a setting, a flag), so the message says what to raise. */
  maxStepsName?: string;
  /** Commands the verifier may always run for evidence, besides each step's own allowlist. */
  verifierCommands?: string[];
  /**
   * The MCP tools the mission's servers offer (the catalogue): a grant must name one of them (or a listed
   * server, for `server/*`). Absent: grants are checked for shape only (no catalogue known here).
   */
  mcpTools?: readonly McpToolRef[];
  /** false: a step may have no evidence checks (a mission that verifies nothing: the single-loop baseline). Default true. */
  requireEvidence?: boolean;
}

export const DEFAULT_MAX_STEPS = 40;

/** Formats a zod path as a JSON path: ["steps", 2, "dependsOn", 0] → "steps[2].dependsOn[0]". */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

export function validatePlan(input: unknown, options: ValidatePlanOptions = {}): PlanValidation {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const errors: PlanError[] = [];
  const parsed = PlanSchema.safeParse(input);
  if (!parsed.success) errors.push(...parsed.error.issues.map((issue) => shapeError(issue, input)));

  // Cross-field checks run on each step that is well-formed on its own, keeping its index for paths.
  const rawSteps = isRecord(input) && Array.isArray(input.steps) ? (input.steps as unknown[]) : undefined;
  // When the whole plan parsed, its steps are the parsed ones; otherwise parse each step on its own.
  const steps: { index: number; step: Step }[] = parsed.success
    ? parsed.data.steps.map((step, index) => ({ index, step }))
    : (rawSteps ?? []).flatMap((raw, index) => {
        const one = StepSchema.safeParse(raw);
        return one.success ? [{ index, step: one.data }] : [];
      });

  if (rawSteps && rawSteps.length === 0) {
    errors.push({ path: 'steps', message: 'the plan has no steps; add at least one step that does the work' });
  }
  if (rawSteps && rawSteps.length > maxSteps) {
    errors.push({
      path: 'steps',
      code: 'too_many_steps',
      message: `the plan has ${rawSteps.length} steps, over the cap of ${maxSteps} (${options.maxStepsName ?? 'maxSteps'}); merge related steps or raise the cap — plans are never truncated`,
    });
  }
  if (isRecord(input) && typeof input.version === 'number' && typeof input.parentVersion === 'number' && input.parentVersion >= input.version) {
    errors.push({ path: 'parentVersion', message: `parentVersion ${input.parentVersion} must be lower than version ${input.version}` });
  }

  checkIds(steps, errors);
  checkDependencies(steps, errors);
  for (const { index, step } of steps) checkStep(index, step, options, errors);
  if (options.mcpTools) for (const { index, step } of steps) checkGrants(index, step, options.mcpTools, errors);
  if (parsed.success) checkConstraintChecks(parsed.data, errors);

  if (errors.length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, plan: parsed.data };
}

function checkIds(steps: { index: number; step: Step }[], errors: PlanError[]): void {
  const firstIndex = new Map<string, number>();
  for (const { index, step } of steps) {
    const first = firstIndex.get(step.id);
    if (first === undefined) firstIndex.set(step.id, index);
    else errors.push({ path: `steps[${index}].id`, message: `duplicate step id "${step.id}" (also used by steps[${first}]); give each step its own id` });
  }
}

function checkDependencies(steps: { index: number; step: Step }[], errors: PlanError[]): void {
  const ids = new Set(steps.map(({ step }) => step.id));
  const deps = new Map<string, string[]>();
  const indexOf = new Map<string, number>();
  for (const { index, step } of steps) {
    if (!indexOf.has(step.id)) indexOf.set(step.id, index);
    deps.set(step.id, [...(deps.get(step.id) ?? []), ...step.dependsOn]);
    const seen = new Set<string>();
    step.dependsOn.forEach((dep, i) => {
      const path = `steps[${index}].dependsOn[${i}]`;
      if (dep === step.id) errors.push({ path, message: `step "${step.id}" depends on itself; remove "${dep}" from its dependsOn` });
      else if (!ids.has(dep))
        errors.push({ path, message: `step "${step.id}" depends on "${dep}", which is not a step in this plan; use one of: ${[...ids].join(', ')}` });
      else if (seen.has(dep)) errors.push({ path, message: `step "${step.id}" lists "${dep}" twice in dependsOn` });
      seen.add(dep);
    });
  }
  for (const cycle of findCycles(deps)) {
    const at = indexOf.get(cycle[0]!) ?? 0;
    errors.push({
      path: `steps[${at}].dependsOn`,
      message: `dependency cycle: ${cycle.join(' → ')}; no step in it could ever start — remove one of these dependencies`,
    });
  }
}

function checkStep(index: number, step: Step, options: ValidatePlanOptions, errors: PlanError[]): void {
  const verifierCommands = options.verifierCommands ?? [];
  const at = `steps[${index}]`;
  const name = `step "${step.id}"`;
  for (const field of ['read', 'edit'] as const) {
    step.authority[field].forEach((glob, i) => {
      const problem = workspacePathProblem(glob, 'glob');
      if (problem) errors.push({ path: `${at}.authority.${field}[${i}]`, message: `${name} ${field} authority: ${problem}` });
    });
  }
  if (step.kind === 'edit' && step.authority.edit.length === 0) {
    errors.push({
      path: `${at}.authority.edit`,
      message: `${name} is an edit step but may edit nothing; list the files or globs it may change in authority.edit`,
    });
  }
  if (step.kind === 'command' && step.authority.commands.length === 0) {
    errors.push({ path: `${at}.authority.commands`, message: `${name} is a command step but may run nothing; list its commands in authority.commands` });
  }
  const checks = step.evidence.checks;
  if (checks.length === 0 && options.requireEvidence !== false) {
    const hint =
      step.kind === 'research'
        ? 'add a review check stating what the findings must cover'
        : 'add a command check (with its expected exit code), files_exist, file_contains, or a review check';
    errors.push({ path: `${at}.evidence.checks`, message: `${name} has no way to prove it is done; ${hint}` });
  }
  checks.forEach((check, i) => {
    const path = `${at}.evidence.checks[${i}]`;
    if (check.kind === 'command' && !commandAllowedBy(check.command, [...step.authority.commands, ...verifierCommands])) {
      errors.push({
        path: `${path}.command`,
        message: `${name} proves itself with "${check.command}", which its authority.commands does not allow; add it there (or a pattern ending in " *")`,
      });
    }
    if (check.kind === 'files_exist') {
      check.paths.forEach((p, j) => {
        const problem = workspacePathProblem(p, 'path');
        if (problem) errors.push({ path: `${path}.paths[${j}]`, message: `${name} evidence: ${problem}` });
      });
    }
    if (check.kind === 'file_contains') {
      const problem = workspacePathProblem(check.path, 'path');
      if (problem) errors.push({ path: `${path}.path`, message: `${name} evidence: ${problem}` });
    }
  });
  // A pure research or verify step only reads; a pure review check on an edit step proves little, but it
  // is the planner's call — the verifier still gates it.
  if ((step.kind === 'research' || step.kind === 'verify') && step.authority.edit.length > 0) {
    errors.push({
      path: `${at}.authority.edit`,
      message: `${name} is a ${step.kind} step and must not edit files; make it an edit step or remove authority.edit`,
    });
  }
}

/** A zod issue as a path and a message a person can act on (naming the step when its id is known). */
function shapeError(issue: z.core.$ZodIssue, input: unknown): PlanError {
  const path = formatPath(issue.path);
  let message = issue.message;
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    message = `required field "${String(issue.path[issue.path.length - 1] ?? '')}" is missing (expected ${issue.expected})`;
  }
  const [root, index] = issue.path;
  if (root === 'steps' && typeof index === 'number' && isRecord(input) && Array.isArray(input.steps)) {
    const raw: unknown = input.steps[index];
    if (isRecord(raw) && typeof raw.id === 'string' && raw.id !== '') message = `step "${raw.id}": ${message}`;
  }
  return { path, message };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
