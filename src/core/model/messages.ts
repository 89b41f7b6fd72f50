/**
 * The Messages-shaped values the model port carries (modelClient.ts): system and content blocks, turns,
 * tool declarations and the tool choice. Core's own types, so no vendor package decides what a role sees.
 *
 * They are the subset of Anthropic's Messages API the roles use, spelled as that API spells it (see
 * modelClient.ts for why the port keeps that shape). Direction: a request's values are a structural
 * subset of the SDK's params, so the Anthropic adapter (src/node/model/anthropicClient.ts) passes them on
 * as they are; a response's blocks are mapped back by that adapter, keeping only the kinds below (the
 * roles ask for no server tools, so no other kind can come back). The other adapters translate both ways.
 */

/** Marks the end of a cached prefix. */
interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

// ───────────────────────────── what the model answers ─────────────────────────────

export interface TextBlock {
  type: 'text';
  text: string;
}

/** A model's visible reasoning; sent back verbatim (with its signature) in a tool loop. */
interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** One block of a response. */
export type ContentBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock;

// ───────────────────────────── what a request sends ─────────────────────────────

export interface TextBlockParam {
  type: 'text';
  text: string;
  cache_control?: CacheControl | null;
}

interface ThinkingBlockParam {
  type: 'thinking';
  thinking: string;
  signature: string;
}

interface RedactedThinkingBlockParam {
  type: 'redacted_thinking';
  data: string;
}

interface ToolUseBlockParam {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  cache_control?: CacheControl | null;
}

/** The answer to one tool call (text only: the roles send no images or documents). */
export interface ToolResultBlockParam {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | TextBlockParam[];
  is_error?: boolean;
  cache_control?: CacheControl | null;
}

export type ContentBlockParam = TextBlockParam | ThinkingBlockParam | RedactedThinkingBlockParam | ToolUseBlockParam | ToolResultBlockParam;

/** One turn of the conversation. */
export interface MessageParam {
  role: 'user' | 'assistant';
  content: string | ContentBlockParam[];
}

// ───────────────────────────── tools ─────────────────────────────

/** A JSON schema of an object: a custom tool's input. */
export interface ToolInputSchema {
  type: 'object';
  properties?: unknown;
  required?: string[] | null;
  [key: string]: unknown;
}

/** A tool the roles define (name, description, input schema). */
export interface Tool {
  type?: 'custom' | null;
  name: string;
  description?: string;
  input_schema: ToolInputSchema;
  cache_control?: CacheControl | null;
}

/** Anthropic's built-in file editor; the other adapters declare it as a function tool (functionTools.ts). */
interface TextEditorTool {
  type: 'text_editor_20250728';
  name: 'str_replace_based_edit_tool';
  max_characters?: number | null;
  cache_control?: CacheControl | null;
}

/** Anthropic's built-in shell tool; the other adapters declare it as a function tool. */
interface BashTool {
  type: 'bash_20250124';
  name: 'bash';
  cache_control?: CacheControl | null;
}

/** Every tool declaration a role can offer. */
export type ToolUnion = Tool | TextEditorTool | BashTool;

export type ToolChoice =
  { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean } | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean } | { type: 'none' };
