/**
 * Which hooks an event runs, and the tool as Claude Code names it. Fixed points (a hook written for
 * Claude Code behaves the same here):
 *  - a matcher is a regular expression matched against the WHOLE tool name (`Edit|Write`, `mcp__db__.*`);
 *    absent, `""` and `"*"` match every tool;
 *  - the text editor maps as view → `Read`, create → `Write`, str_replace and insert → `Edit`; the bash
 *    tool is `Bash`; our list and search lookups are `LS` and `Grep`; an MCP tool keeps the name it is
 *    offered under, `mcp__<server>__<tool>`;
 *  - `file_path` is absolute.
 * SessionStart's matcher is matched against how the session started (`startup` for a new mission);
 * UserPromptSubmit and Stop have no matcher (a written one is ignored, as in Claude Code).
 */
import type { Hook, HookEvent } from '../contracts/hooks';

/** Why a matcher is not a usable regular expression, or undefined when it is. */
export function matcherError(matcher: string): string | undefined {
  if (matcher === '' || matcher === '*') return undefined;
  try {
    new RegExp(`^(?:${matcher})$`);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export function matches(matcher: string, name: string): boolean {
  if (matcher === '' || matcher === '*') return true;
  if (matcherError(matcher) !== undefined) return false;
  return new RegExp(`^(?:${matcher})$`).test(name);
}

/**
 * The hooks of `event` that apply: for tool events those whose matcher takes the tool's name, for
 * SessionStart those whose matcher takes the source. The same command declared twice runs once (as in
 * Claude Code), the first declaration's entry kept.
 */
export function hooksFor(hooks: readonly Hook[], event: HookEvent, subject?: string): Hook[] {
  const seen = new Set<string>();
  const out: Hook[] = [];
  for (const h of hooks) {
    if (h.event !== event) continue;
    const matcherCounts = event === 'PreToolUse' || event === 'PostToolUse' || event === 'SessionStart';
    if (matcherCounts && !matches(h.matcher, subject ?? '')) continue;
    const key = `${h.origin}\u0000${h.command}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(h);
  }
  return out;
}

/** A tool call as a hook sees it: Claude Code's tool name and input. */
export interface ToolUse {
  name: string;
  input: Record<string, unknown>;
}

/** Our tool calls, as the step's tools receive them (paths workspace-relative or absolute, as the model sent them). */
export type OurToolCall =
  | { tool: 'view'; path: string; range?: [number, number] }
  | { tool: 'list'; path: string }
  | { tool: 'search'; pattern: string; glob?: string }
  | { tool: 'create'; path: string; text: string }
  | { tool: 'str_replace'; path: string; oldText: string; newText: string }
  | { tool: 'insert'; path: string; afterLine: number; text: string }
  | { tool: 'bash'; command: string }
  | { tool: 'mcp'; name: string; arguments: Record<string, unknown> };

function absolute(root: string, path: string): string {
  if (path.startsWith('/')) return path;
  const rel = path.replace(/^(\.\/)+/, '');
  return rel === '' || rel === '.' ? root : `${root}/${rel}`;
}

export function toolUseOf(call: OurToolCall, root: string): ToolUse {
  switch (call.tool) {
    case 'view': {
      const range = call.range ? { offset: call.range[0], ...(call.range[1] !== -1 ? { limit: call.range[1] - call.range[0] + 1 } : {}) } : {};
      return { name: 'Read', input: { file_path: absolute(root, call.path), ...range } };
    }
    case 'list':
      return { name: 'LS', input: { path: absolute(root, call.path) } };
    case 'search':
      return { name: 'Grep', input: { pattern: call.pattern, path: root, ...(call.glob !== undefined ? { glob: call.glob } : {}) } };
    case 'create':
      return { name: 'Write', input: { file_path: absolute(root, call.path), content: call.text } };
    case 'str_replace':
      return { name: 'Edit', input: { file_path: absolute(root, call.path), old_string: call.oldText, new_string: call.newText, replace_all: false } };
    case 'insert':
      return { name: 'Edit', input: { file_path: absolute(root, call.path), old_string: '', new_string: call.text, insert_line: call.afterLine } };
    case 'bash':
      return { name: 'Bash', input: { command: call.command } };
    case 'mcp':
      return { name: call.name, input: call.arguments };
  }
}
