/**
 * The replay adapter: answers each model call with the response recorded in a trace, and fails loudly —
 * a `Failure` with detail "replay_diverged" plus `divergence()` — the moment the mission asks something
 * the recording did not (another role or step, a different prompt, tools or conversation shape).
 *
 * Calls are matched per (role, stepId) in recorded order, so parallel steps may interleave differently
 * from the recording without counting as divergence.
 */
import type { ContentBlock } from '@anthropic-ai/sdk/resources/messages/messages';
import { TraceEventSchema, type TraceEvent } from '../contracts/traceEvents';
import type { ModelClient, ModelRequest } from './modelClient';
import { requestHash } from './requestHash';

type ModelCallEvent = Extract<TraceEvent, { type: 'model_call' }>;

export interface ReplayModelClient extends ModelClient {
  /** The first divergence seen, or undefined while the mission follows the recording. */
  divergence(): string | undefined;
  /** Recorded calls not yet replayed. */
  remaining(): number;
}

export function createReplayModelClient(trace: readonly unknown[]): ReplayModelClient {
  const calls: ModelCallEvent[] = [];
  for (const raw of trace) {
    const parsed = TraceEventSchema.safeParse(raw);
    if (parsed.success && parsed.data.type === 'model_call' && parsed.data.response && parsed.data.requestHash) calls.push(parsed.data);
  }
  const used = new Set<number>();
  let diverged: string | undefined;

  const fail = (message: string) => {
    diverged ??= message;
    return {
      ok: false as const,
      durationMs: 0,
      attempts: 1,
      failure: {
        class: 'invalid_output' as const,
        message: `Replay diverged from the recording: ${message}`,
        recoverable: false,
        detail: 'replay_diverged',
        suggestion: 'Record a new trace for this mission; the code or prompts changed since the recording.',
        partialSideEffects: { files: [], commands: [] },
      },
    };
  };

  return {
    async call(request) {
      const hash = requestHash(request);
      const sameRole = calls.map((c, i) => ({ c, i })).filter(({ c, i }) => !used.has(i) && c.role === request.role);
      if (sameRole.length === 0) return fail(`an extra ${request.role} call (${request.model}) that the recording does not have`);
      const hit = sameRole.find(({ c }) => c.requestHash === hash);
      if (!hit) {
        const next = sameRole[0]!.c;
        return fail(`${request.role} call differs from recorded call for step ${next.stepId ?? '-'} (prompt ${next.promptVersion}); request hash ${hash} ≠ ${next.requestHash}`);
      }
      used.add(hit.i);
      const r = hit.c;
      return {
        ok: true,
        response: {
          id: `replay_${hit.i}`,
          model: r.model,
          content: r.response!.content as ContentBlock[],
          stopReason: r.response!.stopReason,
          usage: r.usage,
          requestId: r.requestId,
          durationMs: 0,
          attempts: 1,
        },
      };
    },
    divergence: () => diverged,
    remaining: () => calls.length - used.size,
  };
}
