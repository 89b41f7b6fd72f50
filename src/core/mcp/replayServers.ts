/**
 * MCP servers for a replay: every call is answered with the outcome the recording holds (`mcp_call`
 * events), matched by step, server, tool and the hash of the arguments, in recorded order — no server is
 * started. A call the recording does not have is answered as a fault and noted as a divergence.
 */
import type { TraceEvent } from '../contracts/traceEvents';
import type { McpCallOutcome } from '../contracts/mcp';
import type { McpServers } from '../ports';
import { canonicalJson } from '../primitives/canonicalJson';
import { sha256Hex } from '../primitives/hash';

type McpCallEvent = Extract<TraceEvent, { type: 'mcp_call' }>;

export interface ReplayMcpServers extends McpServers {
  divergence(): string | undefined;
}

export function createReplayMcpServers(events: readonly TraceEvent[]): ReplayMcpServers {
  const queue = events.filter((e): e is McpCallEvent => e.type === 'mcp_call');
  const used = new Set<number>();
  let diverged: string | undefined;
  return {
    async call(request): Promise<McpCallOutcome> {
      const hash = sha256Hex(canonicalJson(request.arguments));
      const i = queue.findIndex(
        (e, n) => !used.has(n) && e.stepId === request.stepId && e.server === request.server && e.tool === request.tool && e.argumentsHash === hash,
      );
      if (i < 0) {
        diverged ??= `step ${request.stepId} called MCP tool ${request.server}/${request.tool} with arguments the recording does not have`;
        return { ok: false, fault: 'not_configured', message: 'the recording has no such call (replay)' };
      }
      used.add(i);
      return queue[i]!.outcome;
    },
    endStep: async () => undefined,
    divergence: () => diverged,
  };
}
