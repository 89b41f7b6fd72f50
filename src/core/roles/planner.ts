/**
 * The planner (and replanner) role. It returns the plan as structured output (`output_config.format`
 * from the model-facing draft schema), then `validatePlan` judges it. An invalid plan gets exactly one
 * repair turn quoting the validation errors; a second invalid plan ends in a clear `invalid_output`
 * failure. The planner never gets a write tool: at most read-only lookups, when the engine provides them.
 */
import type { MessageParam, ToolResultBlockParam, ToolUseBlock } from '../model/messages';
import { modelFor } from '../model/modelSettings';
import type { Failure } from '../contracts/results';
import { err, ok, type Err, type Result } from '../contracts/result';
import type { Plan } from '../contracts/plan';
import type { PlanError, PlanValidation } from '../plan/validate';
import { checkGrants } from '../plan/validateExtras';
import type { PlannerRole, PlanRequest, ReadOnlyTools, ReplanRequest, RoleContext, RoleOutcome } from '../ports';
import { cachedSystem, cachedTools, missionBlock } from './cachePrefix';
import { assistantParams, textOf } from './conversation';
import { callModel } from './modelCall';
import { draftToPlanInput, parseDraft, PLAN_DRAFT_JSON_SCHEMA } from './planDraft';
import { renderPlanTask, renderReplanRequest } from './plannerContext';
import { promptFor } from './prompts/registry';
import type { RoleDeps } from './roleDeps';
import { EXECUTOR_TOOL_GUIDE, LOOKUP_TOOLS } from './toolDefs';
import { dispatchReadOnly, errorResult } from './toolDispatch';

type Kind = 'planner' | 'replanner';

const fail = (message: string, detail: string, recoverable = false, suggestion = ''): Err<Failure> =>
  err({ class: 'invalid_output', message, recoverable, detail, suggestion, partialSideEffects: { files: [], commands: [] } });

/** Grants must name tools of the catalogue the planner was shown (said in the repair turn when not). */
function withGrants(validation: PlanValidation, request: PlanRequest): PlanValidation {
  if (!validation.ok || !request.mcpTools) return validation;
  const errors: PlanError[] = [];
  validation.plan.steps.forEach((step, i) => checkGrants(i, step, request.mcpTools!, errors));
  return errors.length > 0 ? { ok: false, errors } : validation;
}

export function createPlanner(deps: RoleDeps): PlannerRole {
  return {
    plan(request, ctx) {
      return planWithRepair(deps, 'planner', request, renderPlanTask(request), 1, null, ctx);
    },
    replan(request: ReplanRequest, ctx) {
      return planWithRepair(deps, 'replanner', request, renderReplanRequest(request, deps.settings), request.current.version + 1, request.current.version, ctx);
    },
  };
}

/** The model's final text for one planning turn, after any read-only lookups it asked for (bounded). */
async function answer(deps: RoleDeps, kind: Kind, request: PlanRequest, messages: MessageParam[], ctx: RoleContext): Promise<Result<string, Failure>> {
  const prompt = promptFor(kind, deps.settings[kind].promptVersion);
  if (!prompt.ok) return fail(prompt.error, 'prompt_version');
  const m = modelFor(deps.settings, kind);
  const lookups: ReadOnlyTools | undefined = request.tools;
  const base = {
    role: kind,
    provider: m.provider,
    model: m.model,
    system: cachedSystem(
      prompt.value.text.replace('{{EXECUTOR_TOOLS}}', EXECUTOR_TOOL_GUIDE),
      missionBlock(request.task, request.constraints, request.workspaceSummary),
    ),
    tools: lookups ? cachedTools(LOOKUP_TOOLS) : [],
    maxTokens: m.maxTokens,
    outputSchema: PLAN_DRAFT_JSON_SCHEMA,
    ...(m.temperature !== undefined ? { temperature: m.temperature } : {}),
    ...(m.effort ? { effort: m.effort } : {}),
  };
  for (let turn = 0; ; turn++) {
    const lastLookup = lookups !== undefined && turn >= deps.settings.maxLookupTurns;
    const out = await callModel({
      client: deps.client,
      request: { ...base, messages, ...(lastLookup ? { toolChoice: { type: 'none' as const } } : {}) },
      ctx,
      promptVersion: `${kind}.${prompt.value.version}`,
      prices: deps.settings.prices,
    });
    if (!out.ok) return out;
    const uses = out.value.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (uses.length === 0 || !lookups) return ok(textOf(out.value.content));
    // The tools were closed for this turn (tool_choice none); a model that calls them anyway would loop forever.
    if (lastLookup)
      return fail(
        `The ${kind} kept calling lookup tools after ${deps.settings.maxLookupTurns} lookup turns instead of returning a plan.`,
        'lookup_loop',
        true,
        'Plan again; narrow the task if the planner needs to read too much.',
      );
    messages.push({ role: 'assistant', content: assistantParams(out.value.content) });
    const results: ToolResultBlockParam[] = [];
    for (const use of uses)
      results.push(((await dispatchReadOnly(use, lookups)) ?? errorResult(use.id, `unknown tool "${use.name}": the planner has read-only lookups only`)).block);
    messages.push({ role: 'user', content: results });
  }
}

/** Asks for the plan; an invalid one gets one repair turn quoting its errors, a second one is the failure. */
async function planWithRepair(
  deps: RoleDeps,
  kind: Kind,
  request: PlanRequest,
  userText: string,
  version: number,
  parent: number | null,
  ctx: RoleContext,
): Promise<RoleOutcome<Plan>> {
  const messages: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: userText }] }];
  let lastErrors: PlanError[] = [];
  for (let attempt = 1; attempt <= 2; attempt++) {
    const a = await answer(deps, kind, request, messages, ctx);
    if (!a.ok) return a;
    const draft = parseDraft(a.value);
    const validation = withGrants(
      draft.ok ? deps.validatePlan(draftToPlanInput(draft.value, version, parent)) : { ok: false as const, errors: draft.error },
      request,
    );
    if (validation.ok) return ok(validation.plan);
    lastErrors = validation.errors;
    await ctx.record({
      type: 'log',
      level: 'warn',
      message: `${kind} returned an invalid plan (attempt ${attempt}): ${lastErrors.map((e) => `${e.path || '(plan)'}: ${e.message}`).join('; ')}`,
    });
    messages.push({ role: 'assistant', content: [{ type: 'text', text: a.value || '(empty)' }] });
    messages.push({
      role: 'user',
      content: [
        {
          type: 'text',
          text: `The plan is invalid. Fix exactly these problems and return the complete corrected plan:\n${lastErrors.map((e) => `- ${e.path || '(plan)'}: ${e.message}`).join('\n')}`,
        },
      ],
    });
  }
  return invalidTwice(kind, lastErrors);
}

/** The failure after the repair turn: the size cap said as such, else the first problems. */
function invalidTwice(kind: Kind, lastErrors: PlanError[]): Err<Failure> {
  const tooBig = lastErrors.find((e) => e.code === 'too_many_steps');
  if (tooBig)
    return fail(
      `The ${kind} returned an invalid plan twice: it did not fit under the size cap (${tooBig.message}).`,
      'too_many_steps',
      true,
      'Raise the plan-size cap, or narrow the task, and plan again.',
    );
  return fail(
    `The ${kind} returned an invalid plan twice (after one repair attempt). Problems: ${lastErrors
      .slice(0, 8)
      .map((e) => `${e.path || '(plan)'}: ${e.message}`)
      .join('; ')}${lastErrors.length > 8 ? ` (+${lastErrors.length - 8} more)` : ''}`,
    'invalid_plan',
    false,
    'Rephrase the task more concretely, or split it, and plan again.',
  );
}
