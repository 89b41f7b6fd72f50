/**
 * Estimate against actual: watches a mission's trace events (as the budget tracker does) and, at the end,
 * sets the estimate of the last approved plan version beside what the executors and verifiers spent, per
 * step and in total, with planning apart. Counted from the trace, so the summary says exactly what the
 * `model_call` events say.
 */
import type { CostSummary, PlanEstimate } from '../contracts/estimate';
import type { TraceEvent } from '../contracts/traceEvents';

interface Spent {
  tokens: number;
  costUsd: number;
}

export class CostLedger {
  readonly #estimates = new Map<number, PlanEstimate>();
  #approved: number | null = null;
  readonly #steps = new Map<string, Spent>();
  readonly #planning: Spent = { tokens: 0, costUsd: 0 };
  #unpriced = 0;

  /** Takes in earlier events first when a mission goes on (resume, retry, continue). */
  constructor(earlier: readonly TraceEvent[] = []) {
    for (const event of earlier) this.observe(event);
  }

  observe(event: TraceEvent): void {
    if (event.type === 'plan_estimate') this.#estimates.set(event.version, event.estimate);
    else if (event.type === 'plan_approved') this.#approved = event.version;
    else if (event.type === 'model_call') {
      const tokens = event.usage.inputTokens + event.usage.cacheReadTokens + event.usage.cacheWriteTokens + event.usage.outputTokens;
      const into = event.role === 'planner' || event.role === 'replanner' || event.stepId === null ? this.#planning : this.#step(event.stepId);
      into.tokens += tokens;
      into.costUsd += event.costUsd;
      if (into !== this.#planning && event.pricing === 'unknown') this.#unpriced++;
    }
  }

  #step(id: string): Spent {
    let spent = this.#steps.get(id);
    if (!spent) this.#steps.set(id, (spent = { tokens: 0, costUsd: 0 }));
    return spent;
  }

  /** The summary, or null when no plan version was estimated (a front end that does not estimate). */
  summary(): CostSummary | null {
    const version = this.#approved !== null && this.#estimates.has(this.#approved) ? this.#approved : Math.max(-1, ...this.#estimates.keys());
    const estimate = this.#estimates.get(version);
    if (!estimate) return null;
    const estimated = new Map(estimate.steps.map((s) => [s.stepId, s]));
    const ids = [...estimated.keys(), ...[...this.#steps.keys()].filter((id) => !estimated.has(id))];
    const actual = [...this.#steps.values()];
    return {
      version,
      estimate,
      actual: { tokens: sum(actual, 'tokens'), costUsd: sum(actual, 'costUsd'), unpricedCalls: this.#unpriced },
      planning: { ...this.#planning },
      steps: ids.map((stepId) => {
        const e = estimated.get(stepId);
        const a = this.#steps.get(stepId) ?? { tokens: 0, costUsd: 0 };
        return { stepId, estimatedTokens: e?.tokens ?? null, estimatedUsd: e?.costUsd ?? null, actualTokens: a.tokens, actualUsd: a.costUsd };
      }),
    };
  }
}

function sum(items: readonly Spent[], key: keyof Spent): number {
  return items.reduce((n, s) => n + s[key], 0);
}
