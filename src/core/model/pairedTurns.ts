/**
 * A Messages-shaped conversation as plain turns with every tool call paired with exactly one result, for
 * the adapters whose APIs have no Anthropic blocks (Chat Completions, VS Code's language models). Both
 * refuse an orphan: a call left without a result, or a result whose call is not in the assistant turn
 * just before. So a call left unanswered gets an explicit error result, and a stray result becomes text.
 * Thinking blocks and cache markers are Anthropic-only and are dropped; other block types are named.
 */
import type { ContentBlockParam, MessageParam, TextBlockParam, ToolResultBlockParam } from './messages';

interface ToolCallPart {
  id: string;
  name: string;
  input: unknown;
}

interface ToolResultPart {
  callId: string;
  text: string;
  isError: boolean;
}

export type PairedTurn =
  | { role: 'assistant'; text: string; calls: ToolCallPart[] }
  /** Results first (answering the assistant turn before), then the user's text. */
  | { role: 'user'; results: ToolResultPart[]; text: string };

export const UNANSWERED_CALL = 'error: no result was recorded for this call.';

export function systemText(system: readonly TextBlockParam[]): string {
  return system
    .map((b) => b.text)
    .filter(Boolean)
    .join('\n\n');
}

function blocksOf(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

function resultText(block: ToolResultBlockParam): string {
  const c = block.content;
  if (c === undefined) return '';
  if (typeof c === 'string') return c;
  return c.map((b) => (b.type === 'text' ? b.text : `[${b.type} omitted]`)).join('\n\n');
}

export function pairedTurns(messages: readonly MessageParam[]): PairedTurn[] {
  const out: PairedTurn[] = [];
  let open: string[] = [];
  const closeOpen = (into?: Extract<PairedTurn, { role: 'user' }>): void => {
    if (open.length === 0) return;
    const missing = open.map((callId) => ({ callId, text: UNANSWERED_CALL, isError: true }));
    if (into) into.results.push(...missing);
    else out.push({ role: 'user', results: missing, text: '' });
    open = [];
  };
  for (const message of messages) {
    const blocks = blocksOf(message);
    if (message.role === 'assistant') {
      closeOpen();
      const text = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n\n');
      const calls = blocks.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, input: b.input ?? {} }] : []));
      out.push({ role: 'assistant', text, calls });
      open = calls.map((c) => c.id);
      continue;
    }
    const turn: Extract<PairedTurn, { role: 'user' }> = { role: 'user', results: [], text: '' };
    const texts: string[] = [];
    for (const b of blocks) {
      if (b.type === 'tool_result') {
        const text = resultText(b);
        const i = open.indexOf(b.tool_use_id);
        if (i >= 0) {
          turn.results.push({ callId: b.tool_use_id, text, isError: b.is_error === true });
          open.splice(i, 1);
        } else {
          texts.push(`(result of tool call ${b.tool_use_id})\n${text}`);
        }
      } else if (b.type === 'text') {
        texts.push(b.text);
      } else if (b.type !== 'thinking' && b.type !== 'redacted_thinking') {
        texts.push(`[${b.type} omitted]`);
      }
    }
    closeOpen(turn);
    turn.text = texts.join('\n\n');
    if (turn.results.length > 0 || turn.text) out.push(turn);
  }
  closeOpen();
  return out;
}
