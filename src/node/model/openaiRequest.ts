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
import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions/completions';
import { functionToolOf, STRUCTURED_OUTPUT_TOOL, structuredOutputTool, type FunctionTool } from '../../core/model/functionTools';
import type { ModelRequest } from '../../core/model/modelClient';
import { pairedTurns, systemText } from '../../core/model/pairedTurns';
import { toStrictSchema } from '../../core/model/strictSchema';

/** What this endpoint turned out to accept (learned from its 400s; see openaiClient.ts). */
export interface OpenAICompat {
  maxTokensParam: 'max_completion_tokens' | 'max_tokens';
  structuredOutput: 'json_schema' | 'tool';
  temperature: boolean;
  reasoningEffort: boolean;
  streamUsage: boolean;
  strictTools: boolean;
  /** Some servers take tools but not `tool_choice` (or not "required"): then the choice is left to the model. */
  toolChoice: boolean;
  /** OpenAI's own API routes requests with the same `prompt_cache_key` to the same cache: one key per role. */
  promptCacheKey: boolean;
}

export function defaultCompat(baseURL: string): OpenAICompat {
  const official = /(^|\.)openai\.com$/.test(hostOf(baseURL)) || /\.openai\.azure\.com$/.test(hostOf(baseURL));
  return {
    maxTokensParam: official ? 'max_completion_tokens' : 'max_tokens',
    structuredOutput: 'json_schema',
    temperature: true,
    reasoningEffort: true,
    streamUsage: true,
    strictTools: true,
    toolChoice: true,
    promptCacheKey: official,
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return ''; // TypeError: not a URL, so no host to name
  }
}

/**
 * Chat Completions has no error flag on a tool result: the text says it. Our failed results already start
 * with an error line (after the tool_call_id reference); anything else flagged as an error gets one.
 */
export const ERROR_RESULT = /^(\[tool_call_id: [^\]\n]+\]\n)?error\b/;

/** The conversation as Chat Completions messages, with every tool call paired with exactly one result. */
function toChatMessages(request: ModelRequest): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  const system = systemText(request.system);
  if (system) out.push({ role: 'system', content: system });
  for (const turn of pairedTurns(request.messages)) {
    if (turn.role === 'assistant') {
      if (turn.calls.length === 0) out.push({ role: 'assistant', content: turn.text });
      else
        out.push({
          role: 'assistant',
          content: turn.text || null,
          tool_calls: turn.calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.input) } })),
        });
      continue;
    }
    for (const r of turn.results)
      out.push({ role: 'tool', tool_call_id: r.callId, content: r.isError && !ERROR_RESULT.test(r.text) ? `error: ${r.text}` : r.text });
    if (turn.text) out.push({ role: 'user', content: turn.text });
  }
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
  if (tools.length > 0 && toolChoice !== undefined && compat.toolChoice) params.tool_choice = toolChoice;
  if (request.outputSchema && !structuredAsTool) {
    const strict = toStrictSchema(request.outputSchema);
    params.response_format = { type: 'json_schema', json_schema: { name: 'answer', schema: strict.schema, strict: strict.strict } };
  }
  if (compat.promptCacheKey) params.prompt_cache_key = `plan-execute-${request.role}`;
  if (request.temperature !== undefined && compat.temperature) params.temperature = request.temperature;
  if (request.effort !== undefined && compat.reasoningEffort) params.reasoning_effort = request.effort;
  return params;
}
