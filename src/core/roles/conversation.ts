/** Helpers for carrying a conversation forward between turns. */
import type { ContentBlock, ContentBlockParam } from '../model/messages';

/**
 * Converts response blocks to request params (drops fields the API does not accept back). Thinking blocks
 * are kept verbatim with their signatures: models that think by default require them back in a tool loop.
 */
export function assistantParams(content: readonly ContentBlock[]): ContentBlockParam[] {
  const out: ContentBlockParam[] = [];
  for (const b of content) {
    if (b.type === 'thinking') out.push({ type: 'thinking', thinking: b.thinking, signature: b.signature });
    else if (b.type === 'redacted_thinking') out.push({ type: 'redacted_thinking', data: b.data });
    else if (b.type === 'text') out.push({ type: 'text', text: b.text });
    else if (b.type === 'tool_use') out.push({ type: 'tool_use', id: b.id, name: b.name, input: b.input });
  }
  return out;
}

/** The concatenated text blocks of a response. */
export function textOf(content: readonly ContentBlock[]): string {
  return content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}
