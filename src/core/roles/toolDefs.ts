/**
 * The tool sets, per role. Role separation is enforced here by construction: the planner gets read-only
 * lookups (or nothing), the verifier read-only tools plus report_verdict, and only the executor gets the
 * text editor and bash. The sandbox policy refuses writes from the verifier again, regardless. Providers
 * without Anthropic's built-in tools get the same sets as function tools (model/functionTools.ts): an
 * adapter translates declarations, it never adds or drops a tool.
 *
 * Inputs of our custom tools are zod schemas (safeParse at the boundary); their JSON schemas for the API are
 * generated from the same zod objects so the two cannot drift.
 */
import { z } from 'zod';
import type { Tool, ToolUnion, ToolInputSchema } from '../model/messages';
import { FailureClassSchema } from '../contracts/results';

export const TEXT_EDITOR_NAME = 'str_replace_based_edit_tool';
export const BASH_NAME = 'bash';

export const ViewFileInput = z.object({
  path: z.string().min(1).describe('Workspace-relative file path.'),
  start_line: z.number().int().positive().optional().describe('First line to show (1-based).'),
  end_line: z.number().int().optional().describe('Last line to show; -1 for end of file.'),
});
export const ListInput = z.object({
  path: z.string().describe('Workspace-relative directory ("." for the root).'),
  depth: z.number().int().positive().max(5).optional().describe('How many levels to list (default 2).'),
});
export const SearchInput = z.object({
  pattern: z.string().min(1).describe('Regular expression to search for in file contents.'),
  glob: z.string().optional().describe('Limit the search to files matching this glob.'),
});
export const FetchInput = z.object({
  tool_call_id: z.string().min(1).describe('Id of an earlier tool call (from a [tool_call_id: ...] reference).'),
});

export const ReportResultInput = z.object({
  status: z.enum(['succeeded', 'failed', 'needs_replan']).describe('succeeded only when the expected output exists.'),
  output: z.string().min(1).describe('Short summary for the user and the dependent steps (under 100 words).'),
  evidence: z
    .array(z.object({ description: z.string(), tool_call_id: z.string().optional() }))
    .describe('What proves the result, each backed by a tool_call_id where possible.'),
  observation: z.string().optional().describe('Anything materially different from what the plan assumed.'),
  failure: z
    .object({ class: FailureClassSchema, message: z.string(), recoverable: z.boolean(), suggestion: z.string().optional() })
    .optional()
    .describe('Required when status is not succeeded.'),
});

export const EscalateInput = z.object({
  reason: z.enum(['missing_authority', 'ambiguity', 'precondition_failed', 'other']),
  message: z.string().min(1).describe('What is missing or unclear, with the evidence (tool_call_ids).'),
  suggestion: z.string().optional().describe('What would unblock the step.'),
});

export const ReportVerdictInput = z.object({
  passed: z.boolean(),
  detail: z.string().min(1).describe('What you examined and why it does or does not meet the criterion.'),
  tool_call_id: z.string().optional().describe('The tool call whose output decided the verdict.'),
});

/** The built-in tools' inputs live with their function-tool form (model/functionTools.ts): one schema for both. */
export { BashInput, TextEditorInput } from '../model/functionTools';

function custom(name: string, description: string, schema: z.ZodObject): Tool {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return { name, description, input_schema: { ...(json as ToolInputSchema), type: 'object' } };
}

const viewFile = custom('view_file', 'Read a file (optionally a line range). Returns numbered lines. Read-only.', ViewFileInput);
const listFiles = custom('list_files', 'List a directory tree (respects .gitignore). Returns one path per line. Read-only.', ListInput);
const searchFiles = custom('search_files', 'Search file contents by regular expression. Returns path:line: text matches. Read-only.', SearchInput);
const fetchResult = custom('fetch_tool_result', 'Return the full raw output of an earlier tool call by its id, instead of repeating the call.', FetchInput);

export const REPORT_RESULT = custom('report_result', 'Finish the step: report its structured result. Call exactly once, last.', ReportResultInput);
export const ESCALATE = custom(
  'escalate',
  'Stop and hand the decision back to the user/planner: missing authority, ambiguity, or a prerequisite that does not hold.',
  EscalateInput,
);
export const REPORT_VERDICT = custom('report_verdict', 'Give your verdict on the criterion. Call exactly once, last.', ReportVerdictInput);

/** The executor's tools, in a fixed order (the order is part of the cached prefix). */
export const EXECUTOR_TOOLS: ToolUnion[] = [
  { type: 'text_editor_20250728', name: TEXT_EDITOR_NAME, max_characters: 20_000 },
  { type: 'bash_20250124', name: BASH_NAME },
  listFiles,
  searchFiles,
  fetchResult,
  REPORT_RESULT,
  ESCALATE,
];

/** The verifier's tools: read-only, plus the verdict. No text editor (it has write commands), no bash. */
export const VERIFIER_TOOLS: ToolUnion[] = [viewFile, listFiles, searchFiles, fetchResult, REPORT_VERDICT];

/** The planner's optional lookups: read-only only. */
export const LOOKUP_TOOLS: ToolUnion[] = [viewFile, listFiles, searchFiles, fetchResult];

export const WRITE_TOOL_NAMES = new Set([TEXT_EDITOR_NAME, BASH_NAME]);

/** Given to the planner verbatim: what each executor tool takes, returns, and cannot do. */
export const EXECUTOR_TOOL_GUIDE = `
- str_replace_based_edit_tool (text editor): view a file or directory (optional line range); create a file
  with full text; str_replace old_str → new_str, where old_str must match exactly one place (else it fails
  with the closest candidate); insert text after a line number. Returns the result or an error to retry.
  Cannot: write outside the step's "edit" globs, touch sensitive files (.env, keys), undo edits.
- bash: run one command line in the workspace root and return exit code and output (capped, head and tail
  kept). Cannot: run anything outside the step's "commands" allowlist, keep state (cd, exports) between
  calls, run interactive programs, reach the network unless the command itself does.
- list_files, search_files: read-only listing and regex search within the step's "read" globs.
- fetch_tool_result: read the raw output of any earlier tool call of the mission by id (results are passed
  by reference; executors reuse them instead of repeating calls).
- report_result: the structured result (status, summary, evidence by tool_call_id, observation).
- escalate: hand the decision back (missing authority, ambiguity, failed prerequisite).
Every write and command may wait for the user's approval; a refusal fails the call, not the mission.
`.trim();
