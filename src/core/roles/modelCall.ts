/**
 * One model call on behalf of a role: places the rolling cache breakpoint, handles a `max_tokens` stop,
 * prices the usage and records a `model_call` trace event (with prompt version, request hash and the
 * response, so a replay can answer it). Every wait the adapter makes before a retry (rate limit,
 * overload, a cut stream) is recorded first as a `model_wait` event, so the front ends can show it.
 *
 * max_tokens, documented behaviour: the call is repeated once with twice the output budget (capped at
 * 64k); if it is cut off again, the role gets a structured `invalid_output` failure naming the budget.
 * Continuation is not attempted: a cut tool_use or cut JSON cannot be resumed reliably.
 */
import type { MessageParam } from '../model/messages';
import type { CallHooks, ModelClient, ModelOutcome, ModelRequest, ModelResponse } from '../model/modelClient';
import { costOf, type PriceTable } from '../model/pricing';
import { requestHash } from '../model/requestHash';
import type { Failure } from '../contracts/results';
import { err, type Result } from '../contracts/result';
import type { RoleContext } from '../ports';

const MAX_OUTPUT_CAP = 64_000;

/** Copies messages with a cache breakpoint on the last block of the last message (the rolling prefix). */
function withRollingBreakpoint(messages: MessageParam[]): MessageParam[] {
  if (messages.length === 0) return messages;
  const out = messages.map((m) => ({ ...m }));
  const last = out[out.length - 1]!;
  const content = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : [...last.content];
  const tail = content[content.length - 1];
  if (tail && tail.type !== 'thinking' && tail.type !== 'redacted_thinking') {
    content[content.length - 1] = { ...tail, cache_control: { type: 'ephemeral' } } as typeof tail;
  }
  last.content = content;
  return out;
}

type CallResult = Result<ModelResponse, Failure>;

export interface CallArgs {
  client: ModelClient;
  request: ModelRequest;
  ctx: RoleContext;
  promptVersion: string;
  prices?: PriceTable;
}

async function record(args: CallArgs, request: ModelRequest, out: ModelOutcome): Promise<void> {
  const provider = request.provider ?? 'anthropic';
  const base = {
    type: 'model_call' as const,
    role: request.role,
    stepId: args.ctx.stepId,
    model: request.model,
    promptVersion: args.promptVersion,
    requestHash: requestHash(request),
    ...(request.provider ? { provider: request.provider } : {}),
  };
  if (out.ok) {
    const r = out.value;
    const cost = r.local ? { costUsd: 0, priced: false } : costOf(r.model || request.model, r.usage, args.prices, provider);
    await args.ctx.record({
      ...base,
      model: r.model || request.model,
      usage: r.usage,
      costUsd: cost.costUsd,
      pricing: r.local ? 'local' : cost.priced ? 'priced' : 'unknown',
      durationMs: r.durationMs,
      stopReason: r.stopReason,
      requestId: r.requestId,
      response: { content: r.content as unknown[], stopReason: r.stopReason },
      attempts: r.attempts,
    });
  } else {
    await args.ctx.record({
      ...base,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
      durationMs: out.error.durationMs,
      stopReason: null,
      requestId: null,
      attempts: out.error.attempts,
      failure: out.error.failure,
    });
  }
}

function hooksFor(ctx: RoleContext, request: ModelRequest): CallHooks {
  return {
    onWait: (wait) =>
      ctx.record({
        type: 'model_wait',
        role: request.role,
        stepId: ctx.stepId,
        provider: wait.provider,
        model: wait.model,
        reason: wait.reason,
        waitMs: wait.waitMs,
        attempt: wait.attempt,
        message: wait.message,
      }),
    ...(ctx.remainingMs ? { remainingMs: ctx.remainingMs } : {}),
  };
}

export async function callModel(args: CallArgs): Promise<CallResult> {
  let request: ModelRequest = { ...args.request, stepId: args.ctx.stepId, messages: withRollingBreakpoint(args.request.messages) };
  for (let attempt = 1; ; attempt++) {
    const out = await args.client.call(request, args.ctx.signal, hooksFor(args.ctx, request));
    await record(args, request, out);
    if (!out.ok) return err(out.error.failure);
    if (out.value.stopReason !== 'max_tokens') return out;
    if (attempt >= 2 || request.maxTokens >= MAX_OUTPUT_CAP) {
      return err({
        class: 'invalid_output',
        message: `The ${request.role}'s answer was cut off at max_tokens (${request.maxTokens} output tokens), also after one retry with a larger budget.`,
        recoverable: true,
        detail: 'max_tokens',
        suggestion: `Raise planExecute.models.${request.role}.maxTokens, or split the work into smaller steps.`,
        partialSideEffects: { files: [], commands: [] },
      });
    }
    request = { ...request, maxTokens: Math.min(MAX_OUTPUT_CAP, request.maxTokens * 2) };
  }
}

export const cancelledFailure = (): Failure => ({
  class: 'cancelled',
  message: 'Cancelled.',
  recoverable: false,
  suggestion: '',
  partialSideEffects: { files: [], commands: [] },
});
