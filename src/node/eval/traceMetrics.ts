/**
 * What one mission did, counted from its trace alone (so any recorded run can be counted again): model
 * calls, tokens and cost, steps and attempts, replans accepted and refused, the policy's refusals, the
 * sandbox's undoings, and the verifier's verdicts. The trace is read back through the event schemas; lines
 * that do not validate are counted, never guessed at.
 */
import { decodeTrace } from '../../core/trace/jsonl';
import type { TraceEvent } from '../../core/contracts/traceEvents';
import type { MissionOutcome } from '../../core/mission/options';

type Pricing = 'priced' | 'local' | 'unknown' | 'mixed' | 'none';

export interface TraceMetrics {
  missionId: string | null;
  /** From mission_finished; null when the trace has none (the mission never ended). */
  outcome: MissionOutcome | null;
  summary: string;
  modelCalls: number;
  byRole: Record<string, { calls: number; costUsd: number }>;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
  costUsd: number;
  /** How the cost was reached: every call priced, every call local (free), some unknown… */
  pricing: Pricing;
  /** Steps in the final plan version, and step attempts started (retries included). */
  steps: { planned: number; attempts: number; succeeded: number; failed: number };
  replans: { accepted: number; refused: number };
  policyDenials: number;
  /** Commands whose changes outside the step's scope the sandbox undid (or could not). */
  sandboxDenials: number;
  /** Verifier verdicts: passed, failed, and successes taken unchecked (the direct baseline). */
  verifications: { passed: number; failed: number; unverified: number };
  /** The plan's estimate beside what its executors and verifiers spent (cost_summary); null when not estimated. */
  estimate: RunEstimate | null;
  traceProblems: number;
}

/** Estimate and actual of one run: executor and verifier calls (planning is in neither). */
interface RunEstimate {
  estimatedTokens: number;
  /** null: a model of the plan had no known price. */
  estimatedUsd: number | null;
  actualTokens: number;
  actualUsd: number;
}

export function metricsOfTrace(text: string): TraceMetrics {
  const { events, problems } = decodeTrace(text);
  return { ...metricsOf(events), traceProblems: problems.length };
}

function metricsOf(events: readonly TraceEvent[]): Omit<TraceMetrics, 'traceProblems'> {
  const m: Omit<TraceMetrics, 'traceProblems'> = {
    missionId: events[0]?.missionId ?? null,
    outcome: null,
    summary: '',
    modelCalls: 0,
    byRole: {},
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    costUsd: 0,
    pricing: 'none',
    steps: { planned: 0, attempts: 0, succeeded: 0, failed: 0 },
    replans: { accepted: 0, refused: 0 },
    policyDenials: 0,
    sandboxDenials: 0,
    verifications: { passed: 0, failed: 0, unverified: 0 },
    estimate: null,
  };
  const pricings = new Set<string>();
  const finalStatus = new Map<string, string>();
  let finalSteps: string[] = [];
  for (const e of events) {
    switch (e.type) {
      case 'model_call': {
        m.modelCalls++;
        const role = (m.byRole[e.role] ??= { calls: 0, costUsd: 0 });
        role.calls++;
        role.costUsd += e.costUsd;
        m.costUsd += e.costUsd;
        m.tokens.input += e.usage.inputTokens;
        m.tokens.output += e.usage.outputTokens;
        m.tokens.cacheRead += e.usage.cacheReadTokens;
        m.tokens.cacheWrite += e.usage.cacheWriteTokens;
        pricings.add(e.pricing ?? 'priced');
        break;
      }
      case 'plan_version':
        finalSteps = e.plan.steps.map((s) => s.id);
        break;
      case 'step_status':
        if (e.status === 'running') m.steps.attempts++;
        finalStatus.set(e.stepId, e.status);
        break;
      case 'replan':
        if (e.toVersion !== null && !e.refusedBecause?.length) m.replans.accepted++;
        else m.replans.refused++;
        break;
      case 'policy_denied':
        m.policyDenials++;
        break;
      case 'command_sandbox':
        // Direct writes undone afterwards, or staged writes never applied: the sandbox said no.
        if (e.rolledBack.length > 0 || e.unrestored.length > 0 || e.refused.length > 0) m.sandboxDenials++;
        break;
      case 'verification':
        if (e.verification.checks.length === 1 && e.verification.checks[0]!.check === 'not verified') m.verifications.unverified++;
        else if (e.verification.passed) m.verifications.passed++;
        else m.verifications.failed++;
        break;
      case 'cost_summary':
        m.estimate = {
          estimatedTokens: e.summary.estimate.tokens,
          estimatedUsd: e.summary.estimate.costUsd,
          actualTokens: e.summary.actual.tokens,
          actualUsd: e.summary.actual.costUsd,
        };
        break;
      case 'mission_finished':
        m.outcome = e.outcome;
        m.summary = e.summary;
        break;
      default:
    }
  }
  m.pricing = pricings.size === 0 ? 'none' : pricings.size === 1 ? ([...pricings][0] as Pricing) : 'mixed';
  m.steps.planned = finalSteps.length;
  m.steps.succeeded = finalSteps.filter((id) => finalStatus.get(id) === 'succeeded').length;
  m.steps.failed = finalSteps.filter((id) => ['failed', 'blocked', 'interrupted'].includes(finalStatus.get(id) ?? '')).length;
  return m;
}
