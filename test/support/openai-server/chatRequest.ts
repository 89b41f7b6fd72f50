/**
 * What the Chat Completions server does with a request before answering it:
 * - `validateChatRequest` refuses, with the 400 OpenAI itself gives, what OpenAI refuses: an empty `tools`
 *   array, `tool_choice` without tools, a `tool` message that answers no preceding call, a call left
 *   unanswered, arguments that are not strings, an assistant message with neither content nor calls, and
 *   strict schemas that are not closed with every key required. Lenient servers accept more; a test that
 *   passes here sends what the strictest server takes.
 * - `messagesView` shows the request in the Messages shape the shared scenario matcher reads (system text,
 *   user/assistant turns, tool results inside user turns), so one scenario drives both servers.
 */
import { ERROR_RESULT } from '../../../src/node/model/openaiRequest';
import type { MessagesBody } from '../messages-server/scenario';

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id?: unknown; type?: unknown; function?: { name?: unknown; arguments?: unknown } }[];
  tool_call_id?: unknown;
  name?: unknown;
}

export interface ChatBody {
  model?: string;
  messages?: ChatMessage[];
  tools?: { type?: string; function?: { name?: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean } }[];
  tool_choice?: unknown;
  response_format?: { type?: string; json_schema?: { name?: string; schema?: Record<string, unknown>; strict?: boolean } };
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  reasoning_effort?: string;
  [key: string]: unknown;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

/** Strict-mode schema problems, in OpenAI's words (context = the JSON path of the node). */
function strictSchemaProblems(schema: unknown, context: string[] = []): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [];
  const node = schema as Record<string, unknown>;
  const where = `context=(${context.map((c) => `'${c}'`).join(', ')})`;
  const problems: string[] = [];
  if ('oneOf' in node) problems.push(`In ${where}, 'oneOf' is not permitted.`);
  if ('prefixItems' in node) problems.push(`In ${where}, 'prefixItems' is not permitted.`);
  const isObj = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
  if (isObj) {
    if (node.additionalProperties !== false) problems.push(`In ${where}, 'additionalProperties' is required to be supplied and to be false.`);
    const props = (node.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(node.required) ? (node.required as string[]) : [];
    const missing = Object.keys(props).filter((k) => !required.includes(k));
    if (missing.length > 0)
      problems.push(`In ${where}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`);
    for (const [k, v] of Object.entries(props)) problems.push(...strictSchemaProblems(v, [...context, 'properties', k]));
  }
  if (node.items) problems.push(...strictSchemaProblems(node.items, [...context, 'items']));
  for (const key of ['anyOf', 'allOf'] as const) {
    if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((b, i) => problems.push(...strictSchemaProblems(b, [...context, key, String(i)])));
  }
  return problems;
}

/** The first reason OpenAI would refuse this request, or undefined. */
export function validateChatRequest(body: ChatBody): string | undefined {
  if (typeof body.model !== 'string' || !body.model) return 'you must provide a model parameter';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "Invalid 'messages': empty array. Expected an array with minimum length 1.";
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools) || body.tools.length === 0)
      return "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.";
    for (const [i, t] of body.tools.entries()) {
      const name = t.function?.name ?? '';
      if (t.type !== 'function' || !/^[a-zA-Z0-9_-]{1,64}$/.test(name)) return `Invalid 'tools[${i}].function.name': string does not match pattern.`;
      if (t.function?.strict === true) {
        const p = strictSchemaProblems(t.function.parameters ?? {});
        if (p.length > 0) return `Invalid schema for function '${name}': ${p[0]}`;
      }
    }
  }
  if (body.tool_choice !== undefined && body.tools === undefined)
    return "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.";
  if (body.stream_options !== undefined && body.stream !== true) return "The 'stream_options' parameter is only allowed when 'stream' is enabled.";
  const rf = body.response_format;
  if (rf?.type === 'json_schema' && rf.json_schema?.strict === true) {
    const p = strictSchemaProblems(rf.json_schema.schema ?? {});
    if (p.length > 0) return `Invalid schema for response_format '${rf.json_schema.name ?? ''}': ${p[0]}`;
  }
  let pending: string[] = [];
  for (const [i, m] of body.messages.entries()) {
    if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(m.role))
      return `Invalid value: '${m.role}'. Supported values are: 'system', 'assistant', 'user', 'tool', and 'developer'.`;
    if (m.role === 'tool') {
      const id = String(m.tool_call_id ?? '');
      if (!pending.includes(id)) return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
      pending = pending.filter((p) => p !== id);
      continue;
    }
    if (pending.length > 0)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(', ')}`;
    if (m.role === 'assistant') {
      const calls = m.tool_calls ?? [];
      if (calls.length === 0 && (m.content === undefined || m.content === null))
        return `Invalid value for 'messages[${i}].content': expected a string, got null.`;
      for (const c of calls) {
        if (typeof c.function?.arguments !== 'string')
          return `Invalid type for 'messages[${i}].tool_calls[0].function.arguments': expected a string, but got an object instead.`;
        if (typeof c.id !== 'string' || !c.id) return `Missing required parameter: 'messages[${i}].tool_calls[0].id'.`;
      }
      pending = calls.map((c) => String(c.id));
    }
  }
  if (pending.length > 0)
    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(', ')}`;
  return undefined;
}

/** The request in the Messages shape the scenario matcher reads. */
export function messagesView(body: ChatBody): MessagesBody {
  const system = (body.messages ?? [])
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => contentText(m.content))
    .join('\n');
  const messages: NonNullable<MessagesBody['messages']> = [];
  for (const m of body.messages ?? []) {
    if (m.role === 'user') messages.push({ role: 'user', content: [{ type: 'text', text: contentText(m.content) }] });
    if (m.role === 'assistant') {
      const blocks: Record<string, unknown>[] = [];
      const text = contentText(m.content);
      if (text) blocks.push({ type: 'text', text });
      for (const c of m.tool_calls ?? [])
        blocks.push({ type: 'tool_use', id: c.id, name: c.function?.name, input: safeJson(String(c.function?.arguments ?? '')) });
      messages.push({ role: 'assistant', content: blocks });
    }
    if (m.role === 'tool') {
      // No error flag in Chat Completions: a result whose text opens with an error line is one.
      const content = contentText(m.content);
      const block = { type: 'tool_result', tool_use_id: m.tool_call_id, content, is_error: ERROR_RESULT.test(content) };
      const last = messages.at(-1);
      if (last?.role === 'user' && Array.isArray(last.content) && last.content.every((b) => b.type === 'tool_result')) last.content.push(block);
      else messages.push({ role: 'user', content: [block] });
    }
  }
  return {
    model: body.model,
    system,
    tools: (body.tools ?? []).map((t) => ({ name: t.function?.name, ...t.function })),
    messages,
    stream: body.stream === true,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
