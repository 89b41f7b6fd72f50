/**
 * Budget accounting. Usage is counted from the trace (every model_call event a role records passes
 * through here), so what is enforced is exactly what the trace shows. Exceeding a budget is reported
 * once, as a structured reason; the engine ends the mission on it.
 */
import type { TraceEvent } from '../contracts/traceEvents';
import type { MissionBudgets } from './options';

export type BudgetKind = 'replans' | 'tokens' | 'cost' | 'wall_time' | 'steps';

export interface BudgetExceeded {
  kind: BudgetKind;
  used: number;
  limit: number;
}

export interface BudgetUsage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  replans: number;
  stepAttempts: number;
  /** Execution time accumulated before this run (resume). */
  priorElapsedMs: number;
}

export class BudgetTracker {
  readonly usage: BudgetUsage;
  #startedAt: number | null = null;

  constructor(
    readonly limits: MissionBudgets,
    private readonly now: () => number,
    prior?: Partial<BudgetUsage>,
  ) {
    this.usage = { inputTokens: 0, outputTokens: 0, costUsd: 0, replans: 0, stepAttempts: 0, priorElapsedMs: 0, ...prior };
  }

  /** Starts the wall clock (execution begins after plan approval). */
  start(): void {
    this.#startedAt ??= this.now();
  }

  elapsedMs(): number {
    return this.usage.priorElapsedMs + (this.#startedAt === null ? 0 : this.now() - this.#startedAt);
  }

  remainingWallMs(): number {
    return Math.max(0, this.limits.maxWallMs - this.elapsedMs());
  }

  observe(event: TraceEvent): void {
    if (event.type !== 'model_call') return;
    this.usage.inputTokens += event.usage.inputTokens + event.usage.cacheReadTokens + event.usage.cacheWriteTokens;
    this.usage.outputTokens += event.usage.outputTokens;
    this.usage.costUsd += event.costUsd;
  }

  /** The first budget already exceeded, or null. */
  exceeded(): BudgetExceeded | null {
    const tokens = this.usage.inputTokens + this.usage.outputTokens;
    if (tokens > this.limits.maxTokens) return { kind: 'tokens', used: tokens, limit: this.limits.maxTokens };
    if (this.usage.costUsd > this.limits.maxCostUsd) return { kind: 'cost', used: this.usage.costUsd, limit: this.limits.maxCostUsd };
    const elapsed = this.elapsedMs();
    if (elapsed >= this.limits.maxWallMs) return { kind: 'wall_time', used: elapsed, limit: this.limits.maxWallMs };
    return null;
  }

  /** May one more step attempt start? (null when yes) */
  canStartStep(): BudgetExceeded | null {
    if (this.usage.stepAttempts >= this.limits.maxSteps) return { kind: 'steps', used: this.usage.stepAttempts, limit: this.limits.maxSteps };
    return this.exceeded();
  }

  /** May one more replan happen? (null when yes) */
  canReplan(): BudgetExceeded | null {
    if (this.usage.replans >= this.limits.maxReplans) return { kind: 'replans', used: this.usage.replans, limit: this.limits.maxReplans };
    return this.exceeded();
  }
}
