/**
 * The executor role: a bounded tool loop for one step. The model works through Anthropic's text editor
 * and bash tools (mapped onto the step's sandboxed StepTools) plus read-only lookups, and ends with
 * `report_result` (the structured StepResult) or `escalate`. A model error, a cancelled signal, or running
 * out of turns each end in a failed StepResult with a readable Failure — never an exception.
 */
import type { MessageParam, ToolResultBlockParam, ToolUseBlock } from '../model/messages';
import type { Handoff } from '../contracts/handoff';
import { modelFor, tierForAttempt } from '../model/modelSettings';
import { StepResultSchema, type Failure, type StepResult } from '../contracts/results';
import type { ExecutorRole, RoleContext, StepTools } from '../ports';
import { cachedSystem, cachedTools, missionBlock } from './cachePrefix';
import { renderHandoff } from './handoffRender';
import { assistantParams } from './conversation';
import { callModel, cancelledFailure } from './modelCall';
import { promptFor } from './prompts/registry';
import type { RoleDeps } from './roleDeps';
import { EscalateInput, EXECUTOR_TOOLS, ReportResultInput } from './toolDefs';
import { dispatchExecutor, errorResult } from './toolDispatch';
import { dispatchMcp, isMcpName, mcpToolDefs } from './mcpTools';
import { err, ok, type Result } from '../contracts/result';

const failed = (handoff: Handoff, tools: StepTools, ids: string[], failure: Failure, output: string): StepResult => ({
  stepId: handoff.step.id,
  status: failure.class === 'precondition_failed' || failure.class === 'permission_denied' ? 'blocked' : 'failed',
  output,
  evidence: [],
  sideEffects: tools.sideEffects(),
  failure: { ...failure, partialSideEffects: tools.sideEffects() },
  toolCallIds: ids,
});

/** A failure of the executor's own making (no side effects of its own: `failed` adds the step's). */
const executorFailure = (fields: Omit<Failure, 'partialSideEffects'>): Failure => ({ ...fields, partialSideEffects: { files: [], commands: [] } });

export function createExecutor(deps: RoleDeps): ExecutorRole {
  return { execute: (handoff, tools, ctx) => executeStep(deps, handoff, tools, ctx) };
}

/** One step's tool loop, turn by turn: ask the model, then run its tool calls, until it reports or escalates. */
async function executeStep(deps: RoleDeps, handoff: Handoff, tools: StepTools, ctx: RoleContext): Promise<StepResult> {
  const prompt = promptFor('executor', deps.settings.executor.promptVersion);
  const toolCallIds: string[] = [];
  if (!prompt.ok) {
    return failed(
      handoff,
      tools,
      toolCallIds,
      executorFailure({ class: 'invalid_output', message: prompt.error, recoverable: false, suggestion: '' }),
      prompt.error,
    );
  }
  const m = modelFor(deps.settings, 'executor', tierForAttempt(deps.settings, handoff.step.modelTier, handoff.attempt));
  const base = {
    role: 'executor' as const,
    provider: m.provider,
    model: m.model,
    system: cachedSystem(prompt.value.text, missionBlock(handoff.goal, handoff.constraints)),
    // Granted MCP tools come after ours: the shared prefix stays the same for steps without grants.
    tools: cachedTools([...EXECUTOR_TOOLS, ...mcpToolDefs(tools.mcp)]),
    maxTokens: m.maxTokens,
    ...(m.temperature !== undefined ? { temperature: m.temperature } : {}),
    ...(m.effort ? { effort: m.effort } : {}),
  };
  const messages: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: renderHandoff(handoff, deps.settings.stepContextTokenCap) }] }];
  let nudged = false;

  for (let turn = 1; turn <= deps.settings.maxExecutorTurns; turn++) {
    if (ctx.signal.aborted) return failed(handoff, tools, toolCallIds, cancelledFailure(), 'Cancelled.');
    const out = await callModel({
      client: deps.client,
      request: { ...base, messages },
      ctx,
      promptVersion: `executor.${prompt.value.version}`,
      prices: deps.settings.prices,
    });
    if (!out.ok) return failed(handoff, tools, toolCallIds, out.error, out.error.message);
    const content = out.value.content;
    messages.push({ role: 'assistant', content: assistantParams(content) });
    const uses = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (uses.length === 0) {
      const prose = proseAnswer({ nudged, turn, model: m.model, provider: m.provider });
      if (prose) return failed(handoff, tools, toolCallIds, prose.failure, prose.output);
      nudged = true;
      messages.push({ role: 'user', content: [{ type: 'text', text: 'You ended your turn without a result. Call report_result now (or escalate).' }] });
      continue;
    }
    const ran = await runToolUses(uses, handoff, tools, toolCallIds, ctx);
    if (ran.ok) return ran.value;
    messages.push({ role: 'user', content: ran.error });
  }
  const limit = executorFailure({
    class: 'budget_exceeded',
    message: `The step used all ${deps.settings.maxExecutorTurns} model turns without reporting a result.`,
    recoverable: true,
    suggestion: 'Split the step or raise the turn limit.',
  });
  return failed(handoff, tools, toolCallIds, limit, 'Turn limit reached.');
}

/**
 * An answer in prose, with no tool call: the failure that ends the step, or undefined to nudge the model
 * once. Prose twice from the very first answer, with tools on offer, from a provider other than Anthropic:
 * the model is not calling tools at all — said now, by name, instead of failing mysteriously steps later
 * (every Claude model calls tools; there the same answer is the step's failure, retried as before).
 */
function proseAnswer(at: { nudged: boolean; turn: number; model: string; provider: string }): { failure: Failure; output: string } | undefined {
  if (!at.nudged) return undefined;
  if (at.turn === 2 && at.provider !== 'anthropic') {
    const message = `The executor model ${at.model} (${at.provider}) answered in prose twice instead of calling a tool; it does not seem to support tool calling.`;
    const failure = executorFailure({
      class: 'invalid_output',
      message,
      recoverable: false,
      suggestion: 'Choose a model with tool (function) calling for the executor.',
      detail: 'no_tool_calls',
      cause: 'no_tool_support',
      provider: at.provider,
    });
    return { failure, output: message };
  }
  const failure = executorFailure({
    class: 'invalid_output',
    message: 'The executor stopped without calling report_result or escalate, twice.',
    recoverable: true,
    suggestion: 'Retry the step.',
  });
  return { failure, output: 'No result reported.' };
}

/** Runs one turn's tool calls: the step's result when the model reported (or was cancelled), else the tool results for its next turn. */
async function runToolUses(
  uses: ToolUseBlock[],
  handoff: Handoff,
  tools: StepTools,
  toolCallIds: string[],
  ctx: RoleContext,
): Promise<Result<StepResult, ToolResultBlockParam[]>> {
  const results: ToolResultBlockParam[] = [];
  for (const use of uses) {
    if (use.name === 'report_result' || use.name === 'escalate') {
      const final = finish(use, handoff, tools, toolCallIds);
      if (final.ok) return final;
      results.push(final.error);
      continue;
    }
    if (ctx.signal.aborted) return ok(failed(handoff, tools, toolCallIds, cancelledFailure(), 'Cancelled.'));
    const d = isMcpName(use.name) ? await dispatchMcp(use, tools.mcp) : await dispatchExecutor(use, tools);
    if (d.toolCallId) toolCallIds.push(d.toolCallId);
    results.push(d.block);
  }
  return err(results);
}

/** The step's result, or the tool result that tells the model its report was malformed. */
type Finish = Result<StepResult, ToolResultBlockParam>;

function finish(use: ToolUseBlock, handoff: Handoff, tools: StepTools, toolCallIds: string[]): Finish {
  const sideEffects = tools.sideEffects();
  if (use.name === 'escalate') {
    const p = EscalateInput.safeParse(use.input);
    if (!p.success) return err(errorResult(use.id, `invalid escalate input: ${p.error.issues.map((i) => i.message).join('; ')}`).block);
    const e = p.data;
    const cls = e.reason === 'missing_authority' ? 'permission_denied' : e.reason === 'precondition_failed' ? 'precondition_failed' : 'tool_error';
    return ok(
      StepResultSchema.parse({
        stepId: handoff.step.id,
        status: e.reason === 'ambiguity' ? 'needs_replan' : 'blocked',
        output: `Escalated (${e.reason}): ${e.message}`,
        sideEffects,
        failure: {
          class: cls,
          message: e.message,
          recoverable: true,
          suggestion: e.suggestion ?? '',
          detail: `escalate:${e.reason}`,
          partialSideEffects: sideEffects,
        },
        ...(e.reason === 'ambiguity' ? { observation: e.message } : {}),
        toolCallIds,
      }),
    );
  }
  const p = ReportResultInput.safeParse(use.input);
  if (!p.success) {
    return err(errorResult(use.id, `invalid report_result input: ${p.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`).block);
  }
  const r = p.data;
  const failure =
    r.status === 'succeeded'
      ? undefined
      : {
          class: r.failure?.class ?? 'tool_error',
          message: r.failure?.message ?? r.output,
          recoverable: r.failure?.recoverable ?? true,
          suggestion: r.failure?.suggestion ?? '',
          partialSideEffects: sideEffects,
        };
  return ok(
    StepResultSchema.parse({
      stepId: handoff.step.id,
      status: r.status,
      output: r.output,
      evidence: r.evidence.map((e) => ({ description: e.description, ...(e.tool_call_id ? { toolCallId: e.tool_call_id } : {}) })),
      sideEffects,
      ...(failure ? { failure } : {}),
      ...(r.observation ? { observation: r.observation } : {}),
      toolCallIds,
    }),
  );
}
