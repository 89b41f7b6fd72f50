/**
 * Renders a scenario `Reply` as a Chat Completion: one JSON object, or the chunk sequence a real server
 * streams — the role first, text in a few pieces, every tool call split across chunks (id and name first,
 * arguments in pieces, the way OpenAI sends them), `finish_reason` last, then a usage chunk when asked.
 *
 * Structured output goes where the request expects it: the message content when it asked for a
 * `response_format`, else the arguments of the `structured_output` function it offered.
 */
import type { Reply } from '../messages-server/scenario';
import type { ChatBody } from './chatRequest';

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

export interface RenderedCompletion {
  id: string;
  model: string;
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: 'stop' | 'length' | 'tool_calls';
}

export function renderCompletion(reply: Reply, body: ChatBody, id: string, nextCallId: () => string): RenderedCompletion {
  let content = reply.text ?? '';
  const toolCalls = (reply.toolUse ?? []).map((t) => ({ id: t.id ?? nextCallId(), name: t.name, arguments: JSON.stringify(t.input ?? {}) }));
  if (reply.structured !== undefined) {
    const json = typeof reply.structured === 'string' ? reply.structured : JSON.stringify(reply.structured);
    const offersTool = (body.tools ?? []).some((t) => t.function?.name === 'structured_output');
    if (body.response_format === undefined && offersTool) toolCalls.push({ id: nextCallId(), name: 'structured_output', arguments: json });
    else content += json;
  }
  let finishReason: RenderedCompletion['finishReason'] = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (reply.fault === 'max_tokens') {
    finishReason = 'length';
    if (toolCalls.length > 0) toolCalls.pop();
    content = content.slice(0, Math.max(1, Math.floor(content.length / 2)));
  }
  return { id, model: body.model ?? 'unknown', content: content || (toolCalls.length > 0 ? null : ''), toolCalls, finishReason };
}

export function completionJson(c: RenderedCompletion, usage: ChatUsage): unknown {
  return {
    id: c.id,
    object: 'chat.completion',
    created: 1_800_000_000,
    model: c.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: c.content,
          ...(c.toolCalls.length
            ? { tool_calls: c.toolCalls.map((t) => ({ id: t.id, type: 'function', function: { name: t.name, arguments: t.arguments } })) }
            : {}),
        },
        finish_reason: c.finishReason,
      },
    ],
    usage,
  };
}

function pieces(text: string, parts: number): string[] {
  if (!text) return [];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The streamed chunks (without the final `[DONE]`); `usage` adds the usage chunk after the finish. */
export function completionChunks(
  c: RenderedCompletion,
  usage: ChatUsage | undefined,
  withFinish = true,
  quirks: { noToolCallIds?: boolean; repeatToolName?: boolean; stopAfterToolCalls?: boolean } = {},
): unknown[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): unknown => ({
    id: c.id,
    object: 'chat.completion.chunk',
    created: 1_800_000_000,
    model: c.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const p of pieces(c.content ?? '', 3)) out.push(chunk({ content: p }));
  c.toolCalls.forEach((t, index) => {
    out.push(chunk({ tool_calls: [{ index, ...(quirks.noToolCallIds ? {} : { id: t.id }), type: 'function', function: { name: t.name, arguments: '' } }] }));
    for (const p of pieces(t.arguments, 3))
      out.push(chunk({ tool_calls: [{ index, function: { ...(quirks.repeatToolName ? { name: t.name } : {}), arguments: p } }] }));
  });
  if (withFinish) out.push(chunk({}, quirks.stopAfterToolCalls && c.finishReason === 'tool_calls' ? 'stop' : c.finishReason));
  if (usage) out.push({ id: c.id, object: 'chat.completion.chunk', created: 1_800_000_000, model: c.model, choices: [], usage });
  return out;
}

export const chatError = (message: string, type: string, code: string | null = null, param: string | null = null): unknown => ({
  error: { message, type, param, code },
});
