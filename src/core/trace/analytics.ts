/**
 * Trace analytics: which steps replan most often, and how effort splits between planning (planner and
 * replanner), acting (executors) and verifying — in model calls, tokens, cost and model time — computed
 * from `model_call` and `replan` events only, so any recorded trace can be analysed after the fact.
 */
import type { TraceEvent } from '../contracts/traceEvents';

export interface Effort {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  durationMs: number;
}

/** A replan as its trace event recorded it (what the mission view shows of it), with its place in the trace. */
export type ReplanLogEntry = Pick<
  Extract<TraceEvent, { type: 'replan' }>,
  'seq' | 'at' | 'trigger' | 'stepId' | 'mode' | 'evidence' | 'fromVersion' | 'toVersion' | 'invalidated'
>;

export interface MissionAnalytics {
  replanLog: ReplanLogEntry[];
  /** Steps by number of replans they triggered, most first. */
  replansByStep: { stepId: string; replans: number }[];
  effort: { planning: Effort; acting: Effort; verifying: Effort };
  /** Planning's share of all tokens and of all model time (0..1; 0 when nothing was spent). */
  planningShare: { tokens: number; time: number };
  /** Per step: executor and verifier effort. */
  byStep: { stepId: string; effort: Effort }[];
}

const empty = (): Effort => ({ modelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, durationMs: 0 });

export function analytics(events: readonly TraceEvent[]): MissionAnalytics {
  const effort = { planning: empty(), acting: empty(), verifying: empty() };
  const perStep = new Map<string, Effort>();
  const replanLog: ReplanLogEntry[] = [];
  const replanCounts = new Map<string, number>();
  for (const event of events) {
    if (event.type === 'model_call') {
      const bucket = event.role === 'executor' ? effort.acting : event.role === 'verifier' ? effort.verifying : effort.planning;
      add(bucket, event);
      if (event.stepId && event.role !== 'planner' && event.role !== 'replanner') {
        const step = perStep.get(event.stepId) ?? empty();
        add(step, event);
        perStep.set(event.stepId, step);
      }
    } else if (event.type === 'replan') {
      replanLog.push({
        seq: event.seq,
        at: event.at,
        trigger: event.trigger,
        stepId: event.stepId,
        mode: event.mode,
        evidence: event.evidence,
        fromVersion: event.fromVersion,
        toVersion: event.toVersion,
        invalidated: event.invalidated,
      });
      if (event.stepId) replanCounts.set(event.stepId, (replanCounts.get(event.stepId) ?? 0) + 1);
    }
  }
  const tokens = (e: Effort): number => e.inputTokens + e.outputTokens;
  const allTokens = tokens(effort.planning) + tokens(effort.acting) + tokens(effort.verifying);
  const allTime = effort.planning.durationMs + effort.acting.durationMs + effort.verifying.durationMs;
  return {
    replanLog,
    replansByStep: [...replanCounts]
      .map(([stepId, replans]) => ({ stepId, replans }))
      .sort((a, b) => b.replans - a.replans || a.stepId.localeCompare(b.stepId)),
    effort,
    planningShare: {
      tokens: allTokens === 0 ? 0 : tokens(effort.planning) / allTokens,
      time: allTime === 0 ? 0 : effort.planning.durationMs / allTime,
    },
    byStep: [...perStep].map(([stepId, e]) => ({ stepId, effort: e })),
  };
}

function add(into: Effort, event: Extract<TraceEvent, { type: 'model_call' }>): void {
  into.modelCalls += 1;
  into.inputTokens += event.usage.inputTokens + event.usage.cacheReadTokens + event.usage.cacheWriteTokens;
  into.outputTokens += event.usage.outputTokens;
  into.costUsd += event.costUsd;
  into.durationMs += event.durationMs;
}
