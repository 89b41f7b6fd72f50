/**
 * The replay-relevant shape of a request, hashed. Replay must notice when a mission asks something
 * different from the recording, yet not trip over values that legitimately differ between runs: tool
 * results (command output, timings) count only by their tool_use id and error flag, and ids and
 * timestamps the sandbox generates are masked in the text we render ourselves.
 */
import { sha256Hex } from '../primitives/hash';
import type { ModelRequest } from './modelClient';

const MASKS: [RegExp, string][] = [
  [/tool_call_id: [^\]\s,)]+/g, 'tool_call_id: *'],
  // Tool-call ids are random per run (toolRecorder.ts): wherever they are listed (a replan request's
  // "[tool_call_ids: …]", a failed attempt's ids), they must not make a replay diverge.
  [/\btc_[A-Za-z0-9_.-]+?_[0-9a-f]{6}_\d+\b/g, 'tc_*'],
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\b/g, '<time>'],
];

function mask(text: string): string {
  return MASKS.reduce((t, [re, to]) => t.replace(re, to), text);
}

function shapeOfContent(content: unknown): unknown {
  if (typeof content === 'string') return mask(content);
  if (!Array.isArray(content)) return content;
  return content.map((block: Record<string, unknown>) => {
    if (block.type === 'tool_result') return { type: 'tool_result', tool_use_id: block.tool_use_id, is_error: block.is_error === true };
    if (block.type === 'text') return { type: 'text', text: mask(String(block.text)) };
    if (block.type === 'tool_use') return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    return { type: block.type };
  });
}

export function requestHash(request: ModelRequest): string {
  const shape = {
    // Absent for Anthropic, so traces recorded before other providers existed still replay.
    ...(request.provider && request.provider !== 'anthropic' ? { provider: request.provider } : {}),
    model: request.model,
    system: request.system.map((b) => mask(b.text)),
    tools: request.tools.map((t) => JSON.stringify({ ...t, cache_control: undefined })),
    outputSchema: request.outputSchema ?? null,
    messages: request.messages.map((m) => ({ role: m.role, content: shapeOfContent(m.content) })),
  };
  return sha256Hex(JSON.stringify(shape)).slice(0, 32);
}
