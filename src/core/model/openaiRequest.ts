/**
 * A `ModelRequest` (Anthropic's Messages shape) as a Chat Completions request that OpenAI itself accepts
 * and lenient servers (Ollama, LM Studio, vLLM, gateways) still understand:
 * - system blocks → one `system` message first (the stable prefix stays first, so prefix caches hit);
 * - `tool_use` blocks → the assistant's `tool_calls`, arguments as JSON strings;
 * - `tool_result` blocks → `tool` messages right after the assistant message that made the calls, one per
 *   call, in order; a call left unanswered gets an explicit error result, and a result whose call is not in
 *   the preceding assistant message becomes plain user text — the API rejects both orphans;
 * - thinking blocks and cache_control markers are Anthropic-only and are dropped;
 * - `tools` only when there are any (an empty array is a 400 on OpenAI), each a strict function schema
 *   (closed objects, every key required) unless the schema cannot be strict;
 * - structured output as `response_format: json_schema`, or, where the server lacks it, as a forced call of
 *   one `structured_output` function (the adapter turns its arguments back into the answer text).
 */
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam, ChatCompletionTool, ChatCompletionToolChoiceOption } from 'openai/resources/chat/completions/completions';
import { functionToolOf, STRUCTURED_OUTPUT_TOOL, structuredOutputTool, type FunctionTool } from './functionTools';
import type { ModelRequest } from './modelClient';
import { toStrictSchema } from './strictSchema';

/** What this endpoint turned out to accept (learned from its 400s; see openaiClient.ts). */
export interface OpenAICompat {
  maxTokensParam: 'max_completion_tokens' | 'max_tokens';
  structuredOutput: 'json_schema' | 'tool';
  temperature: boolean;
  reasoningEffort: boolean;
  streamUsage: boolean;
  strictTools: boolean;
}

export function defaultCompat(baseURL: string): OpenAICompat {
  const official = /(^|\.)openai\.com$/.test(hostOf(baseURL)) || /\.openai\.azure\.com$/.test(hostOf(baseURL));
  return { maxTokensParam: official ? 'max_completion_tokens' : 'max_tokens', structuredOutput: 'json_schema', temperature: true, reasoningEffort: true, streamUsage: true, strictTools: true };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

const textOfBlocks = (blocks: readonly { type: string; text?: string }[]): string =>
  blocks
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('\n\n');

/**
 * Chat Completions has no error flag on a tool result: the text says it. Our failed results already start
 * with an error line (after the tool_call_id reference); anything else flagged as an error gets one.
 */
export const ERROR_RESULT = /^(\[tool_call_id: [^\]\n]+\]\n)?error\b/;

function toolResultText(block: ToolResultBlockParam): string {
  const c = block.content;
  if (c === undefined) return '';
  if (typeof c === 'string') return c;
  return c.map((b) => (b.type === 'text' ? b.text : `[${b.type} omitted]`)).join('\n\n');
}

function blocksOf(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** The conversation as Chat Completions messages, with every tool call paired with exactly one result. */
export function toChatMessages(request: ModelRequest): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  const system = textOfBlocks(request.system);
  if (system) out.push({ role: 'system', content: system });
  let pending: string[] = [];
  const closePending = (): void => {
    for (const id of pending) out.push({ role: 'tool', tool_call_id: id, content: 'error: no result was recorded for this call.' });
    pending = [];
  };
  for (const message of request.messages) {
    const blocks = blocksOf(message);
    if (message.role === 'assistant') {
      closePending();
      const text = textOfBlocks(blocks as { type: string; text?: string }[]);
      const calls = blocks.flatMap((b) =>
        b.type === 'tool_use' ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }] : [],
      );
      if (calls.length > 0) {
        out.push({ role: 'assistant', content: text || null, tool_calls: calls });
        pending = calls.map((c) => c.id);
      } else {
        out.push({ role: 'assistant', content: text });
      }
      continue;
    }
    const texts: string[] = [];
    for (const b of blocks) {
      if (b.type === 'tool_result') {
        const content = toolResultText(b);
        const i = pending.indexOf(b.tool_use_id);
        if (i >= 0) {
          out.push({ role: 'tool', tool_call_id: b.tool_use_id, content: b.is_error && !ERROR_RESULT.test(content) ? `error: ${content}` : content });
          pending.splice(i, 1);
        } else {
          texts.push(`(result of tool call ${b.tool_use_id})\n${content}`);
        }
      } else if (b.type === 'text') {
        texts.push(b.text);
      } else if (b.type !== 'thinking' && b.type !== 'redacted_thinking') {
        texts.push(`[${b.type} omitted]`);
      }
    }
    closePending();
    if (texts.length > 0) out.push({ role: 'user', content: texts.join('\n\n') });
  }
  closePending();
  return out;
}

function chatTool(tool: FunctionTool, strictAllowed: boolean): ChatCompletionTool {
  const strict = toStrictSchema(tool.parameters);
  const useStrict = strictAllowed && strict.strict;
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: strict.schema, ...(useStrict ? { strict: true } : {}) },
  };
}

export function toChatParams(request: ModelRequest, compat: OpenAICompat): ChatCompletionCreateParamsStreaming {
  const functions = request.tools.map(functionToolOf);
  const structuredAsTool = request.outputSchema !== undefined && compat.structuredOutput === 'tool';
  // Tools stay declared when closed (tool_choice none): the history may hold calls of them.
  const closed = request.toolChoice?.type === 'none';
  let tools: ChatCompletionTool[] = functions.map((t) => chatTool(t, compat.strictTools));
  let toolChoice: ChatCompletionToolChoiceOption | undefined;
  if (structuredAsTool) {
    tools = [...tools, chatTool(structuredOutputTool(request.outputSchema!), compat.strictTools)];
    // Only the answer is left to give: force it; with lookups still open, some tool call must come.
    toolChoice = tools.length === 1 || closed ? { type: 'function', function: { name: STRUCTURED_OUTPUT_TOOL } } : 'required';
  } else if (tools.length > 0 && request.toolChoice) {
    const c = request.toolChoice;
    toolChoice = c.type === 'any' ? 'required' : c.type === 'tool' ? { type: 'function', function: { name: c.name } } : c.type === 'none' ? 'none' : 'auto';
  }
  const params: ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: toChatMessages(request),
    stream: true,
    ...(compat.streamUsage ? { stream_options: { include_usage: true } } : {}),
    ...(compat.maxTokensParam === 'max_completion_tokens' ? { max_completion_tokens: request.maxTokens } : { max_tokens: request.maxTokens }),
  };
  if (tools.length > 0) params.tools = tools;
  if (tools.length > 0 && toolChoice !== undefined) params.tool_choice = toolChoice;
  if (request.outputSchema && !structuredAsTool) {
    const strict = toStrictSchema(request.outputSchema);
    params.response_format = { type: 'json_schema', json_schema: { name: 'answer', schema: strict.schema, strict: strict.strict } };
  }
  if (request.temperature !== undefined && compat.temperature) params.temperature = request.temperature;
  if (request.effort !== undefined && compat.reasoningEffort) params.reasoning_effort = request.effort;
  return params;
}
