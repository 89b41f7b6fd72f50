/**
 * MCP servers as the engine sees them: the catalogue (which server offers which tool, read at mission
 * start and recorded in the trace), how a server is confined, and the outcome of one tool call. Tools are
 * an authority like commands: a step's `mcp` grants name them, and every call passes the policy and the
 * approval gate (src/core/tools/mcpCall.ts).
 */
import { z } from 'zod';

/**
 * How a server runs: `sandboxed` — a stdio server the product starts inside the step's OS sandbox;
 * `unsandboxed` — a stdio server started without one (the sandbox is off); `remote` — an HTTP server the
 * product only talks to (what it does runs elsewhere, unconfined by us); `vscode` — a server VS Code runs.
 */
export const McpConfinementSchema = z.enum(['sandboxed', 'unsandboxed', 'remote', 'vscode']);

export const McpToolInfoSchema = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(4_000).default(''),
  /** The server's `readOnlyHint` annotation (a hint from the server, not a guarantee). */
  readOnly: z.boolean().default(false),
  /** JSON schema of the tool's arguments (an object schema). */
  inputSchema: z.record(z.string(), z.unknown()).default({ type: 'object' }),
});

export const McpServerInfoSchema = z.object({
  name: z.string().min(1).max(100),
  transport: z.enum(['stdio', 'http', 'vscode']),
  /** Where it was configured (`.vscode/mcp.json`, `.mcp.json`, a --mcp-config file, VS Code). */
  source: z.string(),
  confinement: McpConfinementSchema,
  /** `failed`: its tools could not be listed (the reason says why); no step can use it. */
  status: z.enum(['ok', 'failed']),
  reason: z.string().optional(),
  tools: z.array(McpToolInfoSchema),
});

export const McpCatalogueSchema = z.object({
  servers: z.array(McpServerInfoSchema),
  /** Problems with the configuration as a whole (a file that does not parse, a server left out and why). */
  notes: z.array(z.string()).default([]),
});

/** What went wrong with a server: each becomes a structured failure naming it, never a hang. */
export const McpFaultKindSchema = z.enum(['not_configured', 'start_failed', 'timeout', 'malformed', 'auth', 'disconnected', 'refused']);

/** The outcome of one tool call, as the server (or its absence) gave it. Recorded for replay. */
export const McpCallOutcomeSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** The result rendered as text (text blocks, other blocks described, structured content as JSON), capped. */
    text: z.string(),
    /** The tool said its call failed (`isError`): the model reads why. */
    isError: z.boolean(),
    truncated: z.boolean().default(false),
  }),
  z.object({ ok: z.literal(false), fault: McpFaultKindSchema, message: z.string() }),
]);

export type McpConfinement = z.infer<typeof McpConfinementSchema>;
export type McpToolInfo = z.infer<typeof McpToolInfoSchema>;
export type McpServerInfo = z.infer<typeof McpServerInfoSchema>;
export type McpCatalogue = z.infer<typeof McpCatalogueSchema>;
export type McpFaultKind = z.infer<typeof McpFaultKindSchema>;
export type McpCallOutcome = z.infer<typeof McpCallOutcomeSchema>;
