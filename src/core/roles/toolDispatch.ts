/**
 * Maps a model's tool_use onto our sandboxed tools and renders the outcome as a tool_result. A failed call
 * comes back as an `is_error` tool_result carrying the structured failure text, so the model can read why
 * and retry; it never throws into the loop. Every result names its tool_call_id so later steps, the
 * verifier and the replanner can cite and fetch it.
 */
import type { ToolResultBlockParam, ToolUseBlock } from '../model/messages';
import type { z } from 'zod';
import type { ReadOnlyTools, StepTools, ToolOutcome } from '../ports';
import { BashInput, FetchInput, ListInput, SearchInput, TEXT_EDITOR_NAME, TextEditorInput, ViewFileInput } from './toolDefs';
import { err, ok, type Result } from '../contracts/result';

export interface Dispatched {
  block: ToolResultBlockParam;
  toolCallId?: string;
}

export function renderOutcome(toolUseId: string, outcome: ToolOutcome): Dispatched {
  if (outcome.ok) {
    return {
      block: { type: 'tool_result', tool_use_id: toolUseId, content: `[tool_call_id: ${outcome.toolCallId}]\n${outcome.output}` },
      toolCallId: outcome.toolCallId,
    };
  }
  const f = outcome.failure;
  const text = [
    `[tool_call_id: ${outcome.toolCallId}]`,
    `error (${f.class}${f.detail ? `: ${f.detail}` : ''}): ${f.message}`,
    f.suggestion ? `suggestion: ${f.suggestion}` : '',
    outcome.output ? `output:\n${outcome.output}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return { block: { type: 'tool_result', tool_use_id: toolUseId, content: text, is_error: true }, toolCallId: outcome.toolCallId };
}

export function errorResult(toolUseId: string, message: string): Dispatched {
  return { block: { type: 'tool_result', tool_use_id: toolUseId, content: `error: ${message}`, is_error: true } };
}

function parseInput<T extends z.ZodType>(schema: T, use: ToolUseBlock): Result<z.infer<T>, Dispatched> {
  const parsed = schema.safeParse(use.input);
  if (parsed.success) return ok(parsed.data);
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ');
  return err(errorResult(use.id, `invalid input for ${use.name}: ${issues}`));
}

/** Workspace-relative paths: a leading "./" is dropped; anything else goes to the policy as given. */
const rel = (path: string): string => path.replace(/^(\.\/)+/, '') || '.';

/** The read-only tools (planner lookups, verifier, and the executor's own read-only tools). */
export async function dispatchReadOnly(use: ToolUseBlock, tools: ReadOnlyTools): Promise<Dispatched | undefined> {
  switch (use.name) {
    case 'view_file': {
      const p = parseInput(ViewFileInput, use);
      if (!p.ok) return p.error;
      const range: [number, number] | undefined = p.value.start_line !== undefined ? [p.value.start_line, p.value.end_line ?? -1] : undefined;
      return renderOutcome(use.id, await tools.view(rel(p.value.path), range));
    }
    case 'list_files': {
      const p = parseInput(ListInput, use);
      if (!p.ok) return p.error;
      return renderOutcome(use.id, await tools.list(rel(p.value.path), p.value.depth));
    }
    case 'search_files': {
      const p = parseInput(SearchInput, use);
      if (!p.ok) return p.error;
      return renderOutcome(use.id, await tools.search(p.value.pattern, p.value.glob));
    }
    case 'fetch_tool_result': {
      const p = parseInput(FetchInput, use);
      if (!p.ok) return p.error;
      return renderOutcome(use.id, await tools.fetchToolResult(p.value.tool_call_id));
    }
    default:
      return undefined;
  }
}

/** The executor's write-capable tools: Anthropic's text editor and bash, mapped onto StepTools. */
export async function dispatchExecutor(use: ToolUseBlock, tools: StepTools): Promise<Dispatched> {
  if (use.name === TEXT_EDITOR_NAME) {
    const p = parseInput(TextEditorInput, use);
    if (!p.ok) return p.error;
    const i = p.value;
    const path = rel(i.path);
    switch (i.command) {
      case 'view':
        return renderOutcome(use.id, await tools.view(path, i.view_range));
      case 'create':
        if (i.file_text === undefined) return errorResult(use.id, 'create needs file_text');
        return renderOutcome(use.id, await tools.create(path, i.file_text));
      case 'str_replace':
        if (i.old_str === undefined) return errorResult(use.id, 'str_replace needs old_str');
        return renderOutcome(use.id, await tools.strReplace(path, i.old_str, i.new_str ?? ''));
      case 'insert': {
        const text = i.insert_text ?? i.new_str;
        if (i.insert_line === undefined || text === undefined) return errorResult(use.id, 'insert needs insert_line and insert_text');
        return renderOutcome(use.id, await tools.insert(path, i.insert_line, text));
      }
      case 'undo_edit':
        return errorResult(use.id, 'undo_edit is not supported; revert with str_replace instead');
    }
  }
  if (use.name === 'bash') {
    const p = parseInput(BashInput, use);
    if (!p.ok) return p.error;
    if (p.value.restart) {
      return { block: { type: 'tool_result', tool_use_id: use.id, content: 'bash restarted (every command already runs in a fresh process).' } };
    }
    if (!p.value.command) return errorResult(use.id, 'bash needs a command');
    return renderOutcome(use.id, await tools.bash(p.value.command));
  }
  const readOnly = await dispatchReadOnly(use, tools);
  return readOnly ?? errorResult(use.id, `unknown tool "${use.name}"`);
}
