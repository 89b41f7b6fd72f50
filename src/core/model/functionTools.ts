/**
 * Tools as plain function declarations (name, description, JSON-schema parameters), for providers that
 * have no Anthropic built-in tools. Anthropic's `text_editor_20250728` and `bash_20250124` become ordinary
 * function tools with exactly the inputs the model sends Anthropic — the zod schemas below are the ones
 * the executor's dispatch validates, so the declaration and the check cannot drift apart, and the
 * executor gets the same tools, policy and approvals on every provider.
 */
import { z } from 'zod';
import type { Tool, ToolUnion } from './messages';

/** Input of Anthropic's text_editor_20250728 tool (all commands in one object, as the model sends it). */
export const TextEditorInput = z.object({
  command: z.enum(['view', 'create', 'str_replace', 'insert', 'undo_edit']).describe('The edit operation.'),
  path: z.string().min(1).describe('Workspace-relative file path.'),
  view_range: z.tuple([z.number().int(), z.number().int()]).optional().describe('view: [first line, last line] (1-based; -1 for the end of the file).'),
  file_text: z.string().optional().describe('create: the whole content of the new file.'),
  old_str: z.string().optional().describe('str_replace: the exact text to replace; it must match exactly one place in the file.'),
  new_str: z.string().optional().describe('str_replace: the replacement text (insert: the text to insert).'),
  insert_line: z.number().int().nonnegative().optional().describe('insert: insert after this line number (0 for the top).'),
  insert_text: z.string().optional().describe('insert: the text to insert.'),
});

/** Input of Anthropic's bash_20250124 tool. */
export const BashInput = z.object({
  command: z.string().optional().describe('The command line to run in the workspace root.'),
  restart: z.boolean().optional().describe('Restart the shell (every command already runs in a fresh process).'),
});

export interface FunctionTool {
  name: string;
  description: string;
  /** A JSON schema of an object. */
  parameters: Record<string, unknown>;
}

const TEXT_EDITOR_DESCRIPTION =
  'View, create and edit files. Commands: view (a file, optionally view_range), create (path + file_text), ' +
  'str_replace (path + old_str + new_str; old_str must match exactly one place), insert (path + insert_line + insert_text). ' +
  'undo_edit is not supported.';
const BASH_DESCRIPTION =
  'Run one command line in the workspace root and return its exit code and output (capped). No state (cd, exports) carries over between calls.';

function schemaOf(schema: z.ZodObject): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object' };
}

/** The function-tool form of one Anthropic tool declaration (built-in tools keep their name). */
export function functionToolOf(tool: ToolUnion): FunctionTool {
  const { type = 'custom', name = '' } = tool as { type?: string; name?: string };
  if (type.startsWith('text_editor_')) return { name, description: TEXT_EDITOR_DESCRIPTION, parameters: schemaOf(TextEditorInput) };
  if (type.startsWith('bash_')) return { name, description: BASH_DESCRIPTION, parameters: schemaOf(BashInput) };
  const custom = tool as Tool;
  if (!custom.input_schema) throw new Error(`tool ${name} (${type}) has no function form`);
  return { name: custom.name, description: custom.description ?? '', parameters: { ...(custom.input_schema as Record<string, unknown>) } };
}

/** The name of the function tool that carries structured output where response formats are not available. */
export const STRUCTURED_OUTPUT_TOOL = 'structured_output';

export function structuredOutputTool(schema: Record<string, unknown>): FunctionTool {
  return {
    name: STRUCTURED_OUTPUT_TOOL,
    description: 'Return your final answer by calling this function once, with the complete answer as its arguments.',
    parameters: schema,
  };
}
