/**
 * The replay adapter: answers each model call with the response recorded in a trace, and fails loudly —
 * a `Failure` with detail "replay_diverged" plus `divergence()` — the moment the mission asks something
 * the recording did not (another role or step, a different prompt, tools or conversation shape).
 *
 * Calls are matched per (role, stepId) by request hash, so parallel steps may interleave differently
 * from the recording without counting as divergence.
 */
import { err, ok } from '../contracts/result';
import type { ContentBlock } from './messages';
import { TraceEventSchema, type TraceEvent } from '../contracts/traceEvents';
import type { Failure } from '../contracts/results';
import type { ModelClient, ModelRequest } from './modelClient';
import { requestHash } from './requestHash';

type ModelCallEvent = Extract<TraceEvent, { type: 'model_call' }>;

export interface ReplayModelClient extends ModelClient {
  /** The first divergence seen, or undefined while the mission follows the recording. */
  divergence(): string | undefined;
  /** Recorded calls not yet replayed. */
  remaining(): number;
  /** Recorded calls replayed so far. */
  replayed(): number;
}

export interface ReplayOptions {
  /**
   * The recording stops short of the mission's end (the user cancelled it, or it was cut off): a call for
   * a role and step that has no recorded call left is past that point, not a divergence. It is answered
   * as cancelled, and `onPastEnd` is told (the caller stops the mission there).
   */
  onPastEnd?(request: ModelRequest): void;
}

export function createReplayModelClient(trace: readonly unknown[], options: ReplayOptions = {}): ReplayModelClient {
  const calls: ModelCallEvent[] = [];
  for (const raw of trace) {
    const parsed = TraceEventSchema.safeParse(raw);
    if (parsed.success && parsed.data.type === 'model_call' && parsed.data.response && parsed.data.requestHash) calls.push(parsed.data);
  }
  const used = new Set<number>();
  let diverged: string | undefined;

  const failWith = (failure: Failure) => err({ failure, durationMs: 0, attempts: 1 });
  const fail = (message: string) => {
    diverged ??= message;
    return failWith({
      class: 'invalid_output',
      message: `Replay diverged from the recording: ${message}`,
      recoverable: false,
      detail: 'replay_diverged',
      suggestion: 'Record a new trace for this mission; the code or prompts changed since the recording.',
      partialSideEffects: { files: [], commands: [] },
    });
  };

  return {
    async call(request) {
      const hash = requestHash(request);
      const open = calls.map((c, i) => ({ c, i })).filter(({ c, i }) => !used.has(i) && c.role === request.role);
      // Calls are matched per (role, step) when the request names its step, so parallel steps may interleave.
      const sameStep = request.stepId === undefined ? open : open.filter(({ c }) => c.stepId === request.stepId);
      const step = request.stepId ? ` for step ${request.stepId}` : '';
      if (sameStep.length === 0) {
        if (options.onPastEnd) {
          options.onPastEnd(request);
          return failWith({
            class: 'cancelled',
            message: 'The recording stops before this model call.',
            recoverable: false,
            detail: 'replay_past_end',
            suggestion: '',
            partialSideEffects: { files: [], commands: [] },
          });
        }
        return fail(`an extra ${request.role} call${step} (${request.model}) that the recording does not have`);
      }
      const hit = sameStep.find(({ c }) => c.requestHash === hash);
      if (!hit) {
        const next = sameStep[0]!.c;
        return fail(
          `${request.role} call differs from recorded call for step ${next.stepId ?? '-'} (prompt ${next.promptVersion}); request hash ${hash} ≠ ${next.requestHash}`,
        );
      }
      used.add(hit.i);
      const r = hit.c;
      return ok({
        id: `replay_${hit.i}`,
        model: r.model,
        content: r.response!.content as ContentBlock[],
        stopReason: r.response!.stopReason,
        usage: r.usage,
        requestId: r.requestId,
        durationMs: 0,
        attempts: 1,
      });
    },
    divergence: () => diverged,
    remaining: () => calls.length - used.size,
    replayed: () => used.size,
  };
}
