/**
 * The mission run: approval, then the scheduling loop (execute → verify → retry → replan), then the
 * report. Every transition is recorded through the TraceRecorder (persisted, then emitted) and followed
 * by a state snapshot. The public entry points (runMission, startMission, resumeMission) live in
 * start.ts; this class is their shared body.
 *
 * Loop invariants: nothing starts while a replan trigger is pending (running steps drain first, so a
 * replan sees a quiet world); nothing starts after cancellation or an exhausted budget; a step is
 * 'succeeded' only after a passed verification.
 */
import type { Approver, Diagnostics } from '../ports';
import type { Plan, Step } from '../contracts/plan';
import type { StepResult } from '../contracts/results';
import type { MissionPhase, StepRunStatus, TraceEvent, TraceEventBody } from '../contracts/traceEvents';
import { TraceRecorder } from '../trace/recorder';
import { PlanHistory } from '../plan/history';
import { ToolCallStore } from '../handoff/toolCallStore';
import { DEFAULT_CONTEXT_BUDGET, type ContextBudget } from '../handoff/contextBudget';
import { Scheduler, scheduleNodeOf } from './scheduler';
import { BudgetTracker, type BudgetExceeded } from './budgets';
import { DEFAULT_BUDGETS, type MissionOptions, type MissionReport, type MissionOutcome } from './options';
import type { MissionState, StepState } from './state';
import type { ReplanTrigger } from './replan';
import { runStepSafely } from './stepFlow';
import { settleTrackedSecrets } from './trackedSecrets';
import { budgetStop, planOutcome } from './outcome';
import { replanOnce } from './replanFlow';
import { requestPlanApproval } from './planApproval';
import { contentHasher } from './hashing';
import { SnapshotWriter } from './snapshots';
import type { StepFlowContext } from './missionContext';
import type { HookContext } from './userSetup';
import { onlyTheUserDecides } from '../tools/consent';
import { errorDetail, errorText } from '../primitives/errorText';
import { CostLedger } from './costLedger';

/** Without a host log (a library caller that passed none): the process's stderr. */
const consoleDiagnostics: Diagnostics = { error: (message) => console.error(message) };

export interface RunInit {
  missionId: string;
  history: PlanHistory;
  approvedVersion: number | null;
  steps: Map<string, StepState>;
  toolCalls: ToolCallStore;
  nextSeq: number;
  usage?: MissionState['usage'];
  direct?: boolean;
  /** The trace so far of a mission that goes on (resume): what the cost ledger has counted already. */
  earlier?: readonly TraceEvent[];
}

export class MissionRun implements StepFlowContext {
  readonly missionId: string;
  readonly recorder: TraceRecorder;
  readonly history: PlanHistory;
  readonly toolCalls: ToolCallStore;
  readonly budget: BudgetTracker;
  readonly costs: CostLedger;
  readonly steps: Map<string, StepState>;
  readonly abort = new AbortController();
  approvedVersion: number | null;
  phase: MissionPhase = 'planning';
  direct = false;
  triggers: ReplanTrigger[] = [];
  hookContext: HookContext = [];
  scheduler: Scheduler | null = null;
  approvalAbort: AbortController | null = null;
  #budgetHit: BudgetExceeded | null = null;
  /** Set by interrupt(): the run stops without an outcome, resumable as it was (a window that closed). */
  #interrupted: string | null = null;
  #fatal: { message: string; failure?: StepResult['failure'] } | null = null;
  #planChanged = false;
  /** Whether the question about secrets git tracks is settled for this mission (asked, or nothing to ask). */
  trackedSecretsSettled = false;
  #wake: () => void = () => undefined;
  readonly #snapshots: SnapshotWriter;
  readonly diagnostics: Diagnostics;
  #lastSnapshotError: string | undefined;
  #outcome: MissionOutcome | null = null;
  #index: { version: number; steps: Map<string, Step> } | null = null;
  readonly contextBudget: ContextBudget;
  readonly stepApprover: Approver;
  readonly hashOf: (path: string) => Promise<string | null>;
  /** Rejection reasons per step in its current run, and which step each open request belongs to. */
  readonly #rejections = new Map<string, string[]>();
  readonly #requestStep = new Map<string, string>();

  constructor(
    readonly options: MissionOptions,
    init: RunInit,
  ) {
    this.missionId = init.missionId;
    this.history = init.history;
    this.approvedVersion = init.approvedVersion;
    this.steps = init.steps;
    this.toolCalls = init.toolCalls;
    this.direct = init.direct ?? false;
    this.diagnostics = options.diagnostics ?? consoleDiagnostics;
    this.recorder = new TraceRecorder(init.missionId, options.store, options.events, options.clock, init.nextSeq, this.diagnostics);
    this.budget = new BudgetTracker(
      { ...defaultsOf(options) },
      () => options.clock.now(),
      init.usage && {
        inputTokens: init.usage.inputTokens,
        outputTokens: init.usage.outputTokens,
        costUsd: init.usage.costUsd,
        replans: init.usage.replans,
        stepAttempts: init.usage.stepAttempts,
        priorElapsedMs: init.usage.elapsedMs,
      },
    );
    this.costs = new CostLedger(init.earlier);
    this.contextBudget = { ...DEFAULT_CONTEXT_BUDGET, ...options.contextBudget };
    // 'all' approves by rule — except a command that would run without the OS sandbox, and an action a
    // PreToolUse hook asked about: the user says.
    this.stepApprover =
      options.approve === 'all'
        ? {
            request: async (request, signal) =>
              onlyTheUserDecides(request) ? options.approver.request(request, signal) : { decision: 'approved', by: 'rule', rule: 'approve=all' },
          }
        : options.approver;
    this.hashOf = contentHasher(options.workspace);
    this.#snapshots = new SnapshotWriter(
      (finished) => options.store.saveState(this.missionId, this.snapshot(finished)),
      options.clock,
      options.snapshotIntervalMs ?? 50,
      (error) => this.#snapshotFailed(error),
    );
    this.recorder.onEvent((event) => {
      this.budget.observe(event);
      this.costs.observe(event);
      this.#noteRejection(event);
      if (event.type === 'model_call' && !this.#budgetHit) {
        const over = this.budget.exceeded();
        if (over) queueMicrotask(() => this.#settle(this.exceed(over), 'ending the mission on its budget'));
      }
    });
    if (options.signal) {
      if (options.signal.aborted) this.abort.abort();
      else options.signal.addEventListener('abort', () => this.cancel('the mission was cancelled'), { once: true });
    }
  }

  #noteRejection(event: TraceEvent): void {
    if (event.type === 'approval_requested' && event.stepId !== null && event.kind !== 'plan') this.#requestStep.set(event.requestId, event.stepId);
    else if (event.type === 'approval_decided') {
      const stepId = this.#requestStep.get(event.requestId);
      this.#requestStep.delete(event.requestId);
      if (stepId !== undefined && event.decision.decision === 'rejected' && !this.abort.signal.aborted) {
        this.#rejections.set(stepId, [...(this.#rejections.get(stepId) ?? []), event.decision.reason]);
      }
    } else if (event.type === 'step_status' && event.status === 'pending') this.#rejections.delete(event.stepId);
  }

  rejectionsOf(stepId: string): string[] {
    return [...(this.#rejections.get(stepId) ?? [])];
  }

  /** Steps of the latest plan by id (cached per version: lookups happen on every step start). */
  stepById(id: string): Step | undefined {
    const plan = this.plan;
    if (this.#index?.version !== plan.version) this.#index = { version: plan.version, steps: new Map(plan.steps.map((s) => [s.id, s])) };
    return this.#index.steps.get(id);
  }

  get plan(): Plan {
    const latest = this.history.latest;
    if (!latest) throw new Error('no plan yet');
    return latest.plan;
  }

  async record(body: TraceEventBody): Promise<void> {
    await this.recorder.record(body);
  }

  /**
   * A failure that must not stop what is running (a cleanup, a snapshot, a note) still lands: as a trace
   * `log` event, which the front ends mirror to their log, and in the host's log directly when the trace
   * cannot take it. Never rejects.
   */
  async noteFailure(what: string, error: unknown, level: 'warn' | 'error' = 'warn'): Promise<void> {
    await this.#log(level, `${what}: ${errorText(error)}`);
  }

  /** Records a log line; if the trace cannot take it, the host's log gets it (and why). Never rejects. */
  async #log(level: 'warn' | 'error', message: string): Promise<void> {
    try {
      await this.recorder.record({ type: 'log', level, message });
    } catch (error) {
      this.diagnostics.error(`mission ${this.missionId}: ${message} — not in the trace: ${errorText(error)}`);
    }
  }

  /** Runs a promise nobody awaits; its failure is noted rather than left unhandled. */
  #settle(work: Promise<unknown>, what: string): void {
    work.catch((error: unknown) => this.noteFailure(what, error, 'error'));
  }

  /** A failed snapshot write: noted once per distinct message (one every 50 ms would drown the trace). */
  #snapshotFailed(error: unknown): void {
    const message = errorText(error);
    if (message === this.#lastSnapshotError) return;
    this.#lastSnapshotError = message;
    void this.#log('warn', `saving the mission state failed (resume rebuilds it from the trace): ${message}`);
  }

  async setPhase(phase: MissionPhase, reason?: string): Promise<void> {
    this.phase = phase;
    await this.record({ type: 'mission_phase', phase, reason });
    void this.save();
  }

  async setStatus(stepId: string, status: StepRunStatus, attempt: number, reason?: string): Promise<void> {
    const state = this.steps.get(stepId) ?? { status, attempt };
    state.status = status;
    state.attempt = attempt;
    this.steps.set(stepId, state);
    await this.record({ type: 'step_status', stepId, status, attempt, reason });
    void this.save();
  }

  /** Requests a state snapshot (throttled; see snapshots.ts). Resolves once one including this is written. */
  save(finished = false): Promise<void> {
    return this.#snapshots.request(finished);
  }

  snapshot(finished: boolean): MissionState {
    const steps: Record<string, StepState> = {};
    for (const [id, s] of this.steps) steps[id] = { ...s };
    return {
      schema: 1,
      seq: this.recorder.nextSeq - 1,
      missionId: this.missionId,
      task: this.options.task,
      constraints: this.options.constraints ?? [],
      workspaceSummary: this.options.workspaceSummary ?? '',
      phase: this.phase,
      versions: this.history.versions.map((v) => ({ plan: v.plan, author: v.author })),
      approvedVersion: this.approvedVersion,
      direct: this.direct,
      steps,
      usage: { ...this.budget.usage, elapsedMs: this.budget.elapsedMs() },
      // A mission stopped by a budget can be resumed with a larger one; the other outcomes are final.
      finished: finished && this.#outcome !== 'budget_exceeded',
    };
  }

  cancel(reason: string): void {
    if (this.abort.signal.aborted) return;
    this.abort.abort();
    this.approvalAbort?.abort();
    void this.#log('warn', `cancel: ${reason}`);
    this.#wake();
  }

  /**
   * Stops the run without ending the mission: the host is going away (a window reload), not the user
   * cancelling. Running steps are told and recorded interrupted, steps not started stay pending, and no
   * outcome is recorded — the mission stays resumable exactly as it was.
   */
  interrupt(reason: string): void {
    if (this.abort.signal.aborted) return;
    this.#interrupted = reason;
    this.abort.abort();
    this.approvalAbort?.abort();
    void this.#log('warn', `interrupted: ${reason}`);
    this.#wake();
  }

  /** Ends the mission on an exhausted budget: recorded once, running steps told, nothing new starts. */
  async exceed(over: BudgetExceeded): Promise<void> {
    if (this.#budgetHit || this.abort.signal.aborted) return;
    this.#budgetHit = over;
    await this.record({ type: 'budget', kind: over.kind, used: over.used, limit: over.limit, exceeded: true });
    this.abort.abort();
    this.approvalAbort?.abort();
    this.#wake();
  }

  fail(message: string, failure?: StepResult['failure']): void {
    this.#fatal ??= { message, failure };
    this.#wake();
  }

  addTrigger(trigger: ReplanTrigger): void {
    this.triggers.push(trigger);
    this.#wake();
  }

  planChanged(): void {
    this.#planChanged = true;
    this.#wake();
  }

  get stopping(): boolean {
    return this.abort.signal.aborted || this.#fatal !== null || this.#budgetHit !== null;
  }

  /** Plan approval (re-asked after every edit) then the scheduling loop, then the report. */
  async run(): Promise<MissionReport> {
    try {
      if (this.approvedVersion !== this.plan.version) {
        const approved = await requestPlanApproval(this);
        if (!approved.ok) return await this.finish(...(this.budgetOutcome() ?? [approved.error.outcome, approved.error.message, approved.error.failure]));
      }
      await this.setPhase('running', this.direct ? 'direct mode' : undefined);
      await this.loop();
      return await this.finish(...this.outcome());
    } catch (error) {
      const message = errorText(error);
      await this.#log('error', `engine error: ${errorDetail(error)}`);
      return this.finish('failed', `the engine failed: ${message}`, {
        class: 'tool_error',
        message,
        partialSideEffects: { files: [], commands: [] },
        recoverable: false,
        suggestion: 'see the trace log',
      });
    }
  }

  rebuildScheduler(): void {
    const running = [...this.steps].filter(([, s]) => s.status === 'running' || s.status === 'verifying').map(([id]) => id);
    const succeeded = [...this.steps].filter(([, s]) => s.status === 'succeeded').map(([id]) => id);
    // Steps that ended without success stay ended when the scheduler is rebuilt (a user edit mid-mission);
    // only a replan or a resume re-opens them, by setting them 'pending' first. 'skipped' inside the
    // current plan means the user declined to re-run an interrupted step; 'reverted' means the user undid it.
    const ended = new Set<StepRunStatus>(['failed', 'blocked', 'skipped', 'interrupted', 'cancelled', 'reverted']);
    const failed = [...this.steps].filter(([, s]) => ended.has(s.status)).map(([id]) => id);
    this.scheduler = new Scheduler(this.plan.steps.map(scheduleNodeOf), {
      maxParallel: this.options.maxParallel ?? 2,
      succeeded,
      running,
      failed,
      commandsConfined: this.options.commandsConfined === true,
    });
  }

  async loop(): Promise<void> {
    this.budget.start();
    const watchdog = new AbortController();
    this.options.clock.sleep(this.budget.remainingWallMs(), watchdog.signal).then(
      () =>
        this.#settle(
          this.exceed({ kind: 'wall_time', used: this.budget.elapsedMs(), limit: this.budget.limits.maxWallMs }),
          'ending the mission on its wall time',
        ),
      // Rejects only when the watchdog is aborted: the loop ended first.
      () => undefined,
    );
    this.rebuildScheduler();
    const inflight = new Map<string, Promise<void>>();
    try {
      for (;;) {
        if (this.#planChanged) {
          this.#planChanged = false;
          this.rebuildScheduler();
        }
        // Before the first command: secrets git tracks are said, and asked about, once (trackedSecrets.ts).
        if (!this.stopping && this.triggers.length === 0 && (await settleTrackedSecrets(this))) {
          for (const id of this.scheduler!.take()) {
            // Each finished step wakes the loop; racing all in-flight promises on every turn would cost O(n²).
            inflight.set(
              id,
              runStepSafely(this, id).finally(() => {
                inflight.delete(id);
                this.#wake();
              }),
            );
          }
        }
        if (inflight.size === 0) {
          if (this.stopping) return;
          if (this.triggers.length > 0) {
            if (!(await replanOnce(this))) return;
            continue;
          }
          return;
        }
        await new Promise<void>((resolve) => (this.#wake = resolve));
        if (this.abort.signal.aborted && inflight.size > 0) {
          // The kill switch: running steps were told through their signal; give them a grace period.
          const grace = new AbortController();
          await Promise.race([
            Promise.allSettled(inflight.values()),
            this.options.clock.sleep(this.options.cancelGraceMs ?? 5000, grace.signal).catch(() => undefined),
          ]);
          grace.abort();
          for (const id of inflight.keys()) await this.setStatus(id, 'interrupted', this.steps.get(id)?.attempt ?? 1, 'did not stop within the grace period');
          return;
        }
      }
    } finally {
      watchdog.abort();
    }
  }

  /** Final results of the given steps that succeeded (what a dependent's handoff carries). */
  results(ids: readonly string[]): Map<string, StepResult> {
    const out = new Map<string, StepResult>();
    for (const id of ids) {
      const s = this.steps.get(id);
      if (s?.status === 'succeeded' && s.result) out.set(id, s.result);
    }
    return out;
  }

  /**
   * The budget outcome once a budget ran out, else null. An exhausted budget aborts the mission, so whatever
   * was waiting (the planner, the plan's review) sees a cancellation; this says what really stopped it.
   */
  budgetOutcome(): [MissionOutcome, string, StepResult['failure']] | null {
    return this.#budgetHit ? budgetStop(this.#budgetHit, this.options.capNames) : null;
  }

  outcome(): [MissionOutcome, string, StepResult['failure']?] {
    const budget = this.budgetOutcome();
    if (budget) return budget;
    if (this.abort.signal.aborted) return ['cancelled', 'the mission was cancelled'];
    if (this.#fatal) return ['failed', this.#fatal.message, this.#fatal.failure];
    return planOutcome(this.plan, this.steps);
  }

  async finish(outcome: MissionOutcome, summary: string, failure?: StepResult['failure']): Promise<MissionReport> {
    if (this.#interrupted !== null) return this.suspend(this.#interrupted);
    this.#outcome = outcome;
    const neverStarted: string[] = [];
    const planSteps = this.history.latest ? this.plan.steps : [];
    for (const step of planSteps) {
      const state = this.steps.get(step.id);
      if (!state || state.status === 'pending' || state.status === 'ready') {
        neverStarted.push(step.id);
        await this.setStatus(step.id, outcome === 'succeeded' ? 'skipped' : 'cancelled', state?.attempt ?? 0, `never started: mission ${outcome}`);
      } else if (state.status === 'blocked' || state.status === 'skipped') {
        neverStarted.push(step.id);
      }
    }
    const phase: MissionPhase = outcome === 'succeeded' ? 'succeeded' : outcome === 'cancelled' ? 'cancelled' : 'failed';
    const cost = this.costs.summary();
    if (cost) await this.record({ type: 'cost_summary', summary: cost });
    await this.record({ type: 'mission_finished', outcome, summary, failure });
    this.phase = phase;
    await this.record({ type: 'mission_phase', phase, reason: summary });
    await this.save(true);
    await this.recorder.flush();
    const ids = (status: StepRunStatus): string[] => planSteps.filter((s) => this.steps.get(s.id)?.status === status).map((s) => s.id);
    return {
      missionId: this.missionId,
      outcome,
      summary,
      failure,
      budget: this.#budgetHit ?? undefined,
      planVersion: this.history.latest?.version ?? null,
      succeeded: ids('succeeded'),
      failed: ids('failed'),
      interrupted: ids('interrupted'),
      neverStarted,
      replans: this.budget.usage.replans,
      direct: this.direct,
      usage: { inputTokens: this.budget.usage.inputTokens, outputTokens: this.budget.usage.outputTokens, costUsd: this.budget.usage.costUsd },
      ...(cost ? { cost } : {}),
    };
  }

  /** The end of an interrupted run: the phase says so, nothing is finished, the snapshot stays resumable. */
  private async suspend(reason: string): Promise<MissionReport> {
    this.phase = 'interrupted';
    await this.record({ type: 'mission_phase', phase: 'interrupted', reason });
    await this.save(false);
    await this.recorder.flush();
    const planSteps = this.history.latest ? this.plan.steps : [];
    const ids = (status: StepRunStatus): string[] => planSteps.filter((s) => this.steps.get(s.id)?.status === status).map((s) => s.id);
    return {
      missionId: this.missionId,
      outcome: 'cancelled',
      summary: `interrupted: ${reason}`,
      planVersion: this.history.latest?.version ?? null,
      succeeded: ids('succeeded'),
      failed: ids('failed'),
      interrupted: ids('interrupted'),
      neverStarted: ids('pending'),
      replans: this.budget.usage.replans,
      direct: this.direct,
      usage: { inputTokens: this.budget.usage.inputTokens, outputTokens: this.budget.usage.outputTokens, costUsd: this.budget.usage.costUsd },
    };
  }
}

function defaultsOf(options: MissionOptions): BudgetTracker['limits'] {
  return { ...DEFAULT_BUDGETS, ...options.budgets };
}
