/** The tool results a mission sent back to the scripted model, by tool-use id, read from its recorded requests. */
import type { MessagesBody } from './scenario';

export interface SentToolResult {
  content: string;
  isError: boolean;
}

export function toolResultsOf(requests: readonly { body: MessagesBody }[]): Map<string, SentToolResult> {
  const out = new Map<string, SentToolResult>();
  for (const r of requests) {
    for (const m of r.body.messages ?? []) {
      if (m.role !== 'user' || typeof m.content === 'string') continue;
      for (const b of m.content) {
        if (b.type !== 'tool_result') continue;
        out.set(String(b.tool_use_id), { content: typeof b.content === 'string' ? b.content : JSON.stringify(b.content), isError: b.is_error === true });
      }
    }
  }
  return out;
}
