/**
 * Renders a scenario `Reply` as a Messages API response: a JSON message, or the SSE event sequence the
 * real API streams (message_start, content blocks with text_delta / input_json_delta, message_delta,
 * message_stop), with the stream faults injected at the points the real API would show them.
 */
import type { Reply } from './scenario';
import type { SimUsage } from './cacheSim';

interface RenderedBlock {
  type: 'text' | 'tool_use' | 'thinking';
  text?: string;
  thinking?: string;
  signature?: string;
  id?: string;
  name?: string;
  input?: unknown;
}

export interface RenderedMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: RenderedBlock[];
  stop_reason: string;
  stop_sequence: null;
  usage: SimUsage & { output_tokens: number };
}

export function renderMessage(reply: Reply, model: string, id: string, usage: SimUsage, nextToolId: () => string): RenderedMessage {
  const content: RenderedBlock[] = [];
  if (reply.thinking !== undefined) content.push({ type: 'thinking', thinking: reply.thinking, signature: `sig_${id}` });
  if (reply.text !== undefined) content.push({ type: 'text', text: reply.text });
  if (reply.structured !== undefined) {
    content.push({ type: 'text', text: typeof reply.structured === 'string' ? reply.structured : JSON.stringify(reply.structured) });
  }
  for (const t of reply.toolUse ?? []) content.push({ type: 'tool_use', id: t.id ?? nextToolId(), name: t.name, input: t.input ?? {} });
  let stop = reply.stopReason ?? (reply.toolUse?.length ? 'tool_use' : 'end_turn');
  if (reply.fault === 'max_tokens') {
    // Cut the last block the way a max_tokens stop does: text halfway, tool input dropped.
    stop = 'max_tokens';
    const last = content.at(-1);
    if (last?.type === 'text' && last.text) last.text = last.text.slice(0, Math.max(1, Math.floor(last.text.length / 2)));
    if (last?.type === 'tool_use') content.pop();
  }
  const outputTokens = Math.max(1, Math.ceil(JSON.stringify(content).length / 4));
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { ...usage, output_tokens: outputTokens, ...(reply.usage as Partial<SimUsage & { output_tokens: number }> | undefined) },
  };
}

function chunks(text: string, parts: number): string[] {
  if (text.length === 0) return [''];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export interface SseEvent {
  event: string;
  data: unknown;
}

/** The full event sequence of a streamed message (faults applied by the server, which cuts it short). */
export function sseEvents(message: RenderedMessage): SseEvent[] {
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } } },
    },
    { event: 'ping', data: { type: 'ping' } },
  ];
  message.content.forEach((block, index) => {
    if (block.type === 'thinking') {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
      });
      for (const part of chunks(block.thinking ?? '', 2)) {
        events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: part } } });
      }
      events.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } },
      });
    } else if (block.type === 'text') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } });
      for (const part of chunks(block.text ?? '', 3)) {
        events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: part } } });
      }
    } else {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } },
      });
      for (const part of chunks(JSON.stringify(block.input ?? {}), 3)) {
        events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } } });
      }
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: {
        output_tokens: message.usage.output_tokens,
        input_tokens: message.usage.input_tokens,
        cache_read_input_tokens: message.usage.cache_read_input_tokens,
        cache_creation_input_tokens: message.usage.cache_creation_input_tokens,
      },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

export const errorBody = (type: string, message: string, details?: Record<string, unknown>): unknown => ({
  type: 'error',
  error: { type, message, ...(details ? { details } : {}) },
});
