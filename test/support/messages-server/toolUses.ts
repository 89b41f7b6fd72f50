/**
 * An executor's tool calls and final report, as a scenario scripts them (the same names on every provider:
 * the OpenAI adapter declares Anthropic's built-in tools as function tools of the same name).
 */
import type { Reply } from './scenario';

export type ToolUse = { name: string; input: unknown; id?: string };

export const createFile = (id: string, path: string, text: string): ToolUse => ({
  id,
  name: 'str_replace_based_edit_tool',
  input: { command: 'create', path, file_text: text },
});
export const replace = (id: string, path: string, oldText: string, newText: string): ToolUse => ({
  id,
  name: 'str_replace_based_edit_tool',
  input: { command: 'str_replace', path, old_str: oldText, new_str: newText },
});
export const sh = (id: string, command: string): ToolUse => ({ id, name: 'bash', input: { command } });
export const done = (output = 'done'): Reply => ({
  toolUse: [{ name: 'report_result', input: { status: 'succeeded', output, evidence: [{ description: output }] } }],
});
