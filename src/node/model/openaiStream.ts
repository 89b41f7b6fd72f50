/**
 * Assembles a streamed Chat Completion into the Messages-shaped answer the roles read: a text block, then
 * one `tool_use` block per tool call (whose id, name and argument fragments may arrive split across
 * chunks), a stop reason, and usage.
 *
 * A stream is complete only when a choice carried `finish_reason`: a stream that ends without one is an
 * `IncompleteStreamError` (retried), never a short answer. Reasoning deltas (`reasoning_content`,
 * `reasoning`, sent by some servers) are not part of the answer and are dropped. Arguments that are not
 * valid JSON reach the tool's input check as `{ _unparsed_arguments }`, so the model reads why its call
 * failed instead of the step failing.
 */
import type { ContentBlock } from '../../core/model/messages';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions/completions';
import type { Usage } from '../../core/contracts/traceEvents';
import { IncompleteStreamError } from '../../core/model/streamErrors';
import { STRUCTURED_OUTPUT_TOOL } from '../../core/model/functionTools';
import { stripAddedNulls } from '../../core/model/strictSchema';

interface PartialCall {
  id: string;
  name: string;
  args: string;
}

export interface AssembledAnswer {
  id: string;
  model: string;
  content: ContentBlock[];
  stopReason: string;
  usage: Usage;
  /** False when the server sent no usage (the figures are estimated as chars/4). */
  usageReported: boolean;
}

export class ChatStreamAssembler {
  private text = '';
  private readonly calls = new Map<number, PartialCall>();
  private finish: string | null = null;
  private usage: ChatCompletionChunk['usage'] | undefined;
  private id = '';
  private model = '';
  chunks = 0;

  add(chunk: ChatCompletionChunk): void {
    this.chunks++;
    if (chunk.id) this.id = chunk.id;
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string') this.text += delta.content;
      for (const call of delta.tool_calls ?? []) {
        const index = call.index ?? this.calls.size;
        const current = this.calls.get(index) ?? { id: '', name: '', args: '' };
        if (call.id) current.id = call.id;
        if (call.function?.name) current.name += current.name && current.name === call.function.name ? '' : call.function.name;
        if (call.function?.arguments) current.args += call.function.arguments;
        this.calls.set(index, current);
      }
      if (choice.finish_reason) this.finish = choice.finish_reason;
    }
  }

  /**
   * The answer; throws IncompleteStreamError when the stream never finished. `schemas` maps tool names to
   * their declared parameter schemas (nulls a strict schema forced on optional keys are removed).
   */
  result(schemas: ReadonlyMap<string, Record<string, unknown>>, estimateInputTokens: () => number): AssembledAnswer {
    if (this.finish === null) throw new IncompleteStreamError(this.chunks, 'finish_reason');
    const content: ContentBlock[] = [];
    let structured: string | undefined;
    const uses: ContentBlock[] = [];
    [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .forEach(([index, call]) => {
        let input: unknown;
        try {
          input = call.args.trim() === '' ? {} : JSON.parse(call.args);
        } catch {
          // SyntaxError: arguments that are not JSON go on as they came; the tool's input check refuses them.
          input = { _unparsed_arguments: call.args };
        }
        if (call.name === STRUCTURED_OUTPUT_TOOL && structured === undefined) {
          structured = JSON.stringify(stripAddedNulls(input, schemas.get(STRUCTURED_OUTPUT_TOOL)));
          return;
        }
        const schema = schemas.get(call.name);
        uses.push({
          type: 'tool_use',
          id: call.id || `call_${this.id || 'x'}_${index}`,
          name: call.name,
          input: schema ? stripAddedNulls(input, schema) : input,
          caller: { type: 'direct' },
        } as ContentBlock);
      });
    const text = structured ?? this.text;
    if (text) content.push({ type: 'text', text, citations: null } as ContentBlock);
    content.push(...uses);
    const stopReason = this.finish === 'length' ? 'max_tokens' : uses.length > 0 ? 'tool_use' : this.finish === 'content_filter' ? 'refusal' : 'end_turn';
    const u = this.usage;
    const cached = u?.prompt_tokens_details?.cached_tokens ?? 0;
    const usage: Usage = u
      ? { inputTokens: Math.max(0, (u.prompt_tokens ?? 0) - cached), outputTokens: u.completion_tokens ?? 0, cacheReadTokens: cached, cacheWriteTokens: 0 }
      : { inputTokens: estimateInputTokens(), outputTokens: Math.ceil(JSON.stringify(content).length / 4), cacheReadTokens: 0, cacheWriteTokens: 0 };
    return { id: this.id, model: this.model, content, stopReason, usage, usageReported: u !== undefined && u !== null };
  }
}
