/**
 * MCP tools as a role's model sees them: a function tool per offered tool (its server's JSON schema as
 * input), named `mcp__<server>__<tool>` so none can shadow ours, and the dispatch of a call by that name
 * to the role's McpStepTools (policy, approval and trace live there). A name with our prefix that the
 * role was not offered still goes to McpStepTools, which refuses it and records why — the server never
 * hears of it.
 */
import type { Tool, ToolUseBlock, ToolInputSchema } from '../model/messages';
import type { McpStepTools, OfferedMcpTool } from '../ports';
import { MCP_PREFIX } from '../mcp/names';
import { toolRef } from '../mcp/grants';
import { errorResult, renderOutcome, type Dispatched } from './toolDispatch';

function mcpToolDef(t: OfferedMcpTool): Tool {
  const { $schema: _schema, ...schema } = t.inputSchema;
  const description = `[MCP tool ${toolRef(t)}${t.readOnly ? ', read-only' : ''}; each call waits for approval] ${t.description}`.slice(0, 1024);
  return { name: t.name, description, input_schema: { ...(schema as ToolInputSchema), type: 'object' } };
}

/** The role's MCP tool declarations (none when the step is granted none). */
export function mcpToolDefs(mcp: McpStepTools | undefined): Tool[] {
  return (mcp?.offered() ?? []).map(mcpToolDef);
}

export const isMcpName = (name: string): boolean => name.startsWith(MCP_PREFIX);

export async function dispatchMcp(use: ToolUseBlock, mcp: McpStepTools | undefined): Promise<Dispatched> {
  if (!mcp) return errorResult(use.id, `unknown tool "${use.name}": this mission has no MCP servers`);
  return renderOutcome(use.id, await mcp.call(use.name, use.input));
}
