/**
 * A role's MCP tools for one step, and the path of one call — like a command's, in order:
 *   1. policy   — the name must be one the mission offers (`mcp.unknown_tool`); its server must be usable
 *                 (`mcp.server_unavailable`); the step's `mcp` grants must allow it (`mcp.not_granted`);
 *                 the verifier may call only tools the server marks read-only (`mcp.verifier_read_only`);
 *                 the arguments must be a JSON object (`mcp.invalid_arguments`). A refusal is recorded as
 *                 `policy_denied` and the server never hears of the call.
 *   2. approval — the approval gate, with the server, tool, arguments and how the server is confined;
 *   3. sandbox  — a stdio server runs in the step's sandbox without writes (serverSandbox.ts), network
 *                 only if the step has it; it is started on the step's first call and stopped at its end;
 *   4. call     — through the McpServers port, with a timeout; every fault comes back naming the server;
 *   5. record   — an `mcp_call` event (what a replay answers from) and the tool_call record; the result
 *                 text is capped.
 * Instructions in the repository play no part here: only the approved plan's grants do.
 */
import type { McpCallOutcome } from '../contracts/mcp';
import type { Failure } from '../contracts/results';
import type { McpStepTools, OfferedMcpTool, ToolOutcome } from '../ports';
import { runApproved } from './approvalGate';
import { canonicalJson } from '../primitives/canonicalJson';
import { cancelled, permissionDenied, timedOut, toolError } from './failures';
import { sha256Hex } from '../primitives/hash';
import type { ToolEnv } from './readTools';
import { failed, type CallResult } from './toolRecorder';
import { grantFor, toolRef } from '../mcp/grants';
import { serverSandboxSpec } from '../mcp/serverSandbox';

const MCP_TIMEOUT_MS = 60_000;
const MCP_MAX_RESULT_CHARS = 32_000;

type Refusal = { rule: string; reason: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A fault as the step's failure: it names the server and says what to do. */
function faultFailure(server: string, outcome: Extract<McpCallOutcome, { ok: false }>): Failure {
  const message = `MCP server "${server}": ${outcome.message}`;
  if (outcome.fault === 'timeout') return { ...timedOut(message), detail: `mcp.timeout:${server}` };
  const suggestion = {
    not_configured: 'the server is not configured here; escalate if the step needs it',
    start_failed: 'the server could not be started; escalate so the user can fix its configuration',
    timeout: '',
    malformed: 'the server answered with something that is not a valid MCP result; do not rely on this tool',
    auth: 'the server needs authentication this mission does not have; escalate so the user can sign in',
    disconnected: 'the server went away; retry once, then escalate',
    refused: 'the server cannot be used here; escalate',
  }[outcome.fault];
  return { ...toolError(message, suggestion), detail: `mcp.${outcome.fault}:${server}` };
}

/** The sandbox spec of a step's stdio servers, built on the step's first sandboxed call and reused. */
type SpecCache = { spec?: ReturnType<typeof serverSandboxSpec> };

/** Steps 3–5: the call itself, once approved — in the step's sandbox when the server is confined — and its record. */
async function callServer(
  ctx: ToolEnv['ctx'],
  mcp: NonNullable<ToolEnv['ctx']['mcp']>,
  t: OfferedMcpTool,
  input: Record<string, unknown>,
  cache: SpecCache,
): Promise<McpCallOutcome> {
  const confinement = mcp.serverState[t.server]!.confinement;
  let sandbox = null;
  if (confinement === 'sandboxed') {
    const host = ctx.terminal.hostFacts(ctx.env);
    cache.spec ??= serverSandboxSpec(ctx.workspace, ctx.env, ctx.step.authority.network, host, ctx.settings.allowSensitive);
    const built = await cache.spec;
    if (!built.ok) return { ok: false, fault: 'refused', message: `its sandbox could not be prepared: ${built.error}` };
    sandbox = built.value;
  }
  const started = ctx.clock.now();
  const request = { missionId: ctx.missionId, stepId: ctx.step.id, server: t.server, tool: t.tool, arguments: input, sandbox };
  const result = await mcp.servers.call({ ...request, timeoutMs: MCP_TIMEOUT_MS, maxResultChars: MCP_MAX_RESULT_CHARS }, ctx.signal);
  await ctx.record({
    type: 'mcp_call',
    stepId: ctx.step.id,
    role: ctx.role,
    server: t.server,
    tool: t.tool,
    argumentsHash: sha256Hex(canonicalJson(input)),
    confinement,
    outcome: result,
    durationMs: Math.max(0, ctx.clock.now() - started),
  });
  return result;
}

export function createMcpStepTools(env: ToolEnv): McpStepTools | undefined {
  const { ctx, recorder, gate } = env;
  if (!ctx.mcp) return undefined;
  const mcp = ctx.mcp;
  const grants = ctx.step.authority.mcp;
  const byName = new Map(mcp.tools.map((t) => [t.name, t]));
  const usable = (t: OfferedMcpTool): boolean => mcp.serverState[t.server]?.unavailable === undefined;
  const offered = mcp.tools.filter((t) => usable(t) && grantFor(grants, t) !== undefined && (ctx.role !== 'verifier' || t.readOnly));
  const cache: SpecCache = {};

  function refusal(name: string, tool: OfferedMcpTool | undefined, args: unknown): Refusal | null {
    if (!tool)
      return { rule: 'mcp.unknown_tool', reason: `"${name}" is not an MCP tool of this mission (offered: ${offered.map((t) => t.name).join(', ') || 'none'})` };
    const unavailable = mcp.serverState[tool.server]?.unavailable;
    if (unavailable !== undefined) return { rule: 'mcp.server_unavailable', reason: `MCP server "${tool.server}" cannot be used: ${unavailable}` };
    if (grantFor(grants, tool) === undefined) {
      return { rule: 'mcp.not_granted', reason: `${toolRef(tool)} is not granted to step ${ctx.step.id} (its mcp grants: ${grants.join(', ') || 'none'})` };
    }
    if (ctx.role === 'verifier' && !tool.readOnly)
      return { rule: 'mcp.verifier_read_only', reason: `the verifier may call only read-only MCP tools; ${toolRef(tool)} is not marked read-only` };
    if (!isObject(args)) return { rule: 'mcp.invalid_arguments', reason: 'the arguments of an MCP tool call must be a JSON object' };
    return null;
  }

  async function run(name: string, args: unknown): Promise<CallResult> {
    const tool = byName.get(name);
    const refused = refusal(name, tool, args);
    if (refused) {
      await ctx.record({
        type: 'policy_denied',
        stepId: ctx.step.id,
        action: `call MCP tool ${tool ? toolRef(tool) : name}`,
        rule: refused.rule,
        reason: refused.reason,
      });
      return failed(permissionDenied(refused.rule, refused.reason));
    }
    const t = tool!;
    const input = args as Record<string, unknown>;
    const confinement = mcp.serverState[t.server]!.confinement;
    const network = confinement === 'sandboxed' && ctx.step.authority.network;
    const outcome = await runApproved(gate, { kind: 'mcp', server: t.server, tool: t.tool, arguments: input, readOnly: t.readOnly, confinement, network }, () =>
      callServer(ctx, mcp, t, input, cache),
    );
    if (!outcome.ok) return failed(outcome.error);
    const result = outcome.value;
    if (ctx.signal.aborted) return failed(cancelled('the mission was cancelled during the MCP call'));
    if (!result.ok) return failed(faultFailure(t.server, result));
    const text = `${result.text}${result.truncated ? `\n[result cut to ${MCP_MAX_RESULT_CHARS} characters]` : ''}`;
    if (result.isError)
      return {
        ...failed(toolError(`MCP tool ${toolRef(t)} reported an error`, "read the tool's message; fix the arguments or escalate")),
        output: `MCP tool ${toolRef(t)} reported an error:\n${text}`,
      };
    return { ok: true, output: text };
  }

  return {
    offered: () => offered,
    call: (name: string, args: unknown): Promise<ToolOutcome> => {
      const tool = byName.get(name);
      return recorder.call(tool ? `mcp:${toolRef(tool)}` : `mcp:${name}`, args ?? null, () => run(name, args));
    },
  };
}
